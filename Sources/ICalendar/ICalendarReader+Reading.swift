extension ICalendarReader {
    /// What one input holds: the sound components, the broken ones left out
    /// (`problems`), and the leniencies taken (`warnings`).
    public struct Reading: Hashable, Sendable {
        /// The top-level components in file order, usually VCALENDARs.
        public var components: [ICalendarComponent]
        /// Broken components, in the order they were found. Empty when the input is sound.
        public var problems: [Problem] = []
        /// What was read leniently, by line.
        public var warnings: [Warning] = []

    }

    /// A component that could not be read as it stands.
    ///
    /// A broken component is left out with everything inside it (`dropped`);
    /// a broken top-level component (a VCALENDAR) is kept without the lines
    /// that could not be read, so that one stray line does not lose a whole
    /// calendar — the problem is reported all the same.
    public struct Problem: Hashable, Sendable, CustomStringConvertible {
        /// The physical line of the fault, counted from 1.
        public var line: Int
        /// The broken component's name (upper case), e.g. `VEVENT`.
        public var component: String
        /// The line of the component's `BEGIN:`.
        public var componentLine: Int
        /// The component's UID, when it has one (read anywhere in it, before or after the fault).
        public var uid: String?
        public var reason: String
        /// Whether the component was left out of `Reading.components`.
        public var dropped: Bool

        public var description: String {
            let which = uid.map { " (UID \($0))" } ?? ""
            let fate = dropped ? ", left out" : ""
            return "line \(line): \(component) of line \(componentLine)\(which)\(fate): \(reason)"
        }
    }

    /// Something read leniently: the file is still read, but not as RFC 5545 writes it.
    public struct Warning: Hashable, Sendable, CustomStringConvertible {
        public enum Kind: Hashable, Sendable {
            /// A line without its leading space taken as the continuation of the one before.
            case badFolding
            /// Text outside any component, skipped.
            case outsideComponent
            /// Bytes that are not UTF-8, replaced with U+FFFD.
            case invalidUTF8
            /// CONTROL characters (a NUL, a BEL, …; not HTAB), replaced with U+FFFD.
            case controlCharacters
            /// Lines ending in CR alone (no LF anywhere), read as line ends.
            case carriageReturnLineEnds
        }

        public var line: Int
        public var kind: Kind
        public var reason: String

        public var description: String { "line \(line): \(reason)" }
    }
}
