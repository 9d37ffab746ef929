/// Why a notification could not be shown now. Every case is worth a retry
/// later: the daemon keeps the firing undelivered and tries again.
public enum NotificationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No session bus to talk to: `DBUS_SESSION_BUS_ADDRESS` is unset and
    /// `$XDG_RUNTIME_DIR/bus` does not exist (or the address asks for
    /// autolaunch, which Chime never does).
    case noBus(reason: String)
    /// The session bus at this address could not be reached.
    case busUnreachable(address: String, message: String)
    /// The bus is there, but the notification server refused or is missing.
    case serverUnavailable(message: String)
    /// The call did not return within the watchdog (a stopped server blocks
    /// a call for 25 s).
    case timedOut(seconds: Double)
    /// An earlier call is still blocked past its watchdog; nothing is sent
    /// until it returns.
    case stuck(seconds: Double)

    public var description: String {
        switch self {
        case .noBus(let reason):
            "no session bus: \(reason)"
        case .busUnreachable(let address, let message):
            "the session bus at \(address) cannot be reached: \(message)"
        case .serverUnavailable(let message):
            "no notification server answered on the session bus: \(message)"
        case .timedOut(let seconds):
            "the notification server did not answer within \(Self.format(seconds)) s"
        case .stuck(let seconds):
            "an earlier call to the notification server has been blocked for \(Self.format(seconds)) s; not sending more"
        }
    }

    private static func format(_ seconds: Double) -> String {
        let tenths = (seconds * 10).rounded() / 10
        return tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)
    }
}
