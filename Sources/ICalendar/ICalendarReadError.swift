/// Why reading stopped: a limit passed (`ICalendarReader.Limits`), an input
/// that is not UTF-8 at all, or a file that could not be read. Unlike a
/// `Reading.Problem` nothing of the input is returned.
public struct ICalendarReadError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        /// Larger than `Limits.fileSize`.
        case tooLarge
        /// An unfolded line longer than `Limits.lineLength`.
        case lineTooLong
        /// Components nested deeper than `Limits.depth`.
        case nestedTooDeep
        /// More components than `Limits.components`.
        case tooManyComponents
        /// More properties than `Limits.properties`.
        case tooManyProperties
        /// UTF-16 or UTF-32 (by its byte-order mark): iCalendar is UTF-8.
        case notUTF8
        /// A system call failed; `errno` says why.
        case unreadable(errno: Int32)
    }

    public var kind: Kind
    /// The physical line where reading stopped, counted from 1; 0 when not at a line.
    public var line: Int
    public var reason: String

    public var description: String {
        line > 0 ? "line \(line): \(reason)" : reason
    }
}
