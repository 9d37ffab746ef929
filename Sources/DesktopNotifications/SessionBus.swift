import CLibnotify
import Foundation

/// Finding the session bus, and the process's one connection to it, which
/// libnotify shares (it asks GLib for the session bus singleton).
enum SessionBus {
    /// The session bus address to use: `DBUS_SESSION_BUS_ADDRESS`, else
    /// `$XDG_RUNTIME_DIR/bus` when that socket exists (systemd user
    /// sessions), else nil. Nil too for an address that asks for autolaunch:
    /// a daemon must never start a bus (and with it a stray notification
    /// server) of its own.
    static func address(environment: [String: String], fileExists: (String) -> Bool) -> Result<String, NotificationError> {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty {
            if address.split(separator: ";").contains(where: { $0.hasPrefix("autolaunch:") }) {
                return .failure(.noBus(reason: "DBUS_SESSION_BUS_ADDRESS (\(address)) asks for autolaunch, which Chime never does"))
            }
            return .success(address)
        }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            let socket = (runtime.hasSuffix("/") ? String(runtime.dropLast()) : runtime) + "/bus"
            if fileExists(socket) { return .success("unix:path=" + escape(socket)) }
            return .failure(.noBus(reason: "DBUS_SESSION_BUS_ADDRESS is unset and \(socket) does not exist"))
        }
        return .failure(.noBus(reason: "DBUS_SESSION_BUS_ADDRESS and XDG_RUNTIME_DIR are both unset"))
    }

    /// D-Bus address values escape every byte outside `[-0-9A-Za-z_/.\*]` as `%XX`.
    static func escape(_ value: String) -> String {
        var escaped = ""
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "/"), UInt8(ascii: "."), UInt8(ascii: "\\"), UInt8(ascii: "*"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"):
                escaped.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                escaped += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return escaped
    }

    /// The connection, and what libnotify was initialised with.
    private struct Connection {
        var bus: OpaquePointer?
        var address: String?
        var initializedName: String?
        /// The unique bus name of the notification server, as the name watch last saw it.
        var serverOwner: String?
    }

    /// On the GLib thread only, which every access checks.
    nonisolated(unsafe) private static var connection = GLibBound(Connection())

    /// Connects to the session bus at `address` (once; again after the bus
    /// went away) and initialises libnotify. Runs on the GLib thread.
    ///
    /// GLib reads the session bus address from the environment, and
    /// libnotify offers no way to hand it a connection; so when the
    /// environment names another bus (or none), `DBUS_SESSION_BUS_ADDRESS`
    /// is set here, on this thread, just before GLib's first look at it.
    /// With the address set, GLib never autolaunches a bus.
    static func connect(address: String, appName: String) throws(NotificationError) {
        if let current = connection.value.bus {
            if g_dbus_connection_is_closed(current) == 0 {
                guard connection.value.address == address else {
                    throw .busUnreachable(address: address, message: "this process is already connected to the session bus at "
                                          + (connection.value.address ?? "?") + ", and libnotify serves one bus per process")
                }
                return
            }
            // The bus went away (and with it libnotify's proxy): start over.
            chime_object_unref(UnsafeMutableRawPointer(current))
            connection.value = Connection()
            if notify_is_initted() != 0 { notify_uninit() }
        }
        if getenv("DBUS_SESSION_BUS_ADDRESS").map({ String(cString: $0) }) != address {
            setenv("DBUS_SESSION_BUS_ADDRESS", address, 1)
        }
        var error: UnsafeMutablePointer<GError>?
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            throw .busUnreachable(address: address, message: consume(error))
        }
        // GLib's default ends the whole process when the session bus closes;
        // the daemon outlives the bus and reconnects instead.
        g_dbus_connection_set_exit_on_close(bus, 0)
        connection.value.bus = bus
        connection.value.address = address
        // When the server goes away its notifications go with it (without a
        // NotificationClosed): forget them, so that a server that comes back
        // is not asked to replace ids it never gave.
        _ = g_bus_watch_name_on_connection(bus, "org.freedesktop.Notifications", G_BUS_NAME_WATCHER_FLAGS_NONE,
                                           { _, _, owner, _ in SessionBus.serverAppeared(owner.map { String(cString: $0) }) },
                                           { _, _, _ in
                                               SessionBus.serverAppeared(nil)
                                               NotificationTable.serverVanished()
                                           }, nil, nil)
        if connection.value.initializedName != appName {
            if notify_is_initted() != 0 { notify_uninit() }
            guard notify_init(appName) != 0 else { throw .serverUnavailable(message: "notify_init failed") }
            connection.value.initializedName = appName
        }
    }

    /// The unique bus name of the notification server there now, nil when
    /// there is none: what tells one server's notification ids from the next
    /// one's (a restarted server counts from 1 again). Runs on the GLib
    /// thread, after `connect`.
    static func serverAppeared(_ owner: String?) { connection.value.serverOwner = owner }

    static func serverName() -> String? {
        if let serverOwner = connection.value.serverOwner { return serverOwner }
        guard let bus = connection.value.bus, let owner = chime_name_owner(bus, "org.freedesktop.Notifications", 2000) else { return nil }
        defer { g_free(owner) }
        connection.value.serverOwner = String(cString: owner)
        return connection.value.serverOwner
    }

    /// The message of a GError, freeing it.
    static func consume(_ error: UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return "unknown error" }
        defer { g_error_free(error) }
        return error.pointee.message.map { String(cString: $0) } ?? "unknown error"
    }
}
