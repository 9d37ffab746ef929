/// Something in a file that stops it importing as it is: a broken component
/// or one Chime cannot hold, with the file, its line and UID.
public struct ImportFault: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file's path, `-` for standard input, or the subscription's URL.
    public var source: String
    /// The line it starts on (0 when the whole file is at fault).
    public var line: Int
    /// VEVENT, VTODO, …; nil when the whole file is at fault.
    public var component: String?
    public var uid: String?
    public var reason: String

    /// `work.ics:42: VEVENT 1234@example.com: the rule …`
    public var description: String {
        var text = source + (line > 0 ? ":\(line)" : "") + ": "
        if let component { text += component + (uid.map { " " + $0 } ?? "") + ": " }
        return text + reason
    }
}
