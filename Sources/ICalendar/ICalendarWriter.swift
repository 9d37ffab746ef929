import Glibc

/// Writes component trees as RFC 5545 text: CR LF line ends, lines folded
/// at 75 octets (§3.1) never inside a UTF-8 character, parameter values
/// quoted and RFC 6868-escaped as `ICalendarProperty.contentLine` does.
/// Property values are written as given: they are value text already
/// (`ICalendarText.escape` makes TEXT).
///
/// What it writes `ICalendarReader` reads back equal; what could not be
/// read back equal is refused with an `ICalendarWriteError` rather than
/// written wrong: a name that is not one (letters, digits, `-`, `_`), a
/// property named BEGIN or END, a parameter without values, a line feed or
/// another CONTROL character in a property value, nesting deeper than `ICalendarReader.maximumDepth`.
public enum ICalendarWriter {
    /// The longest physical line, in octets without the CR LF (RFC 5545 §3.1).
    public static let maximumLineOctets = 75

    /// The text of `components`, one after the other.
    public static func write(_ components: [ICalendarComponent]) throws(ICalendarWriteError) -> [UInt8] {
        var output = Output()
        for component in components { try output.component(component) }
        return output.bytes
    }

    /// The text of one component (usually a VCALENDAR).
    public static func write(_ component: ICalendarComponent) throws(ICalendarWriteError) -> [UInt8] {
        try write([component])
    }

    /// `write(_:)` as a String.
    public static func text(_ components: [ICalendarComponent]) throws(ICalendarWriteError) -> String {
        String(decoding: try write(components), as: UTF8.self)
    }

    /// The text written so far. Each line goes straight into `bytes` and is
    /// folded where it stands when it is too long (few are), so nothing is
    /// copied a line; the export (`ICalendarExportSink`) writes into it too.
    struct Output: ICalendarExportSink {
        typealias Failure = ICalendarWriteError

        var bytes: [UInt8] = []
        /// The names of the open components, outermost first.
        private var open: [String] = []
        /// Where a long line is copied to while it is folded.
        private var long: [UInt8] = []

        init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

        /// As if `name` were begun: for a part of a component written on its own, to be joined to it.
        mutating func open(within name: String) { open.append(name) }

        mutating func begin(_ name: String) throws(ICalendarWriteError) {
            guard open.count < ICalendarReader.maximumDepth else {
                throw ICalendarWriteError(component: name, property: "",
                                          reason: "nests deeper than the \(ICalendarReader.maximumDepth) components a reader follows")
            }
            guard ICalendarContentLine.isName(name) else {
                throw ICalendarWriteError(component: name, property: "", reason: "'\(name)' is not a component name (letters, digits, '-', '_')")
            }
            delimiter("BEGIN:", name)
            open.append(name)
        }

        mutating func end(_ name: String) {
            open.removeLast()
            delimiter("END:", name)
        }

        mutating func component(_ component: ICalendarComponent) throws(ICalendarWriteError) {
            try begin(component.name)
            for property in component.properties { try self.property(property) }
            for child in component.components { try self.component(child) }
            end(component.name)
        }

        mutating func property(_ property: ICalendarProperty) throws(ICalendarWriteError) {
            try refuseDelimiter(property.name)
            let start = bytes.count
            if let flaw = ICalendarContentLine.append(property, to: &bytes) { throw refusal(property.name, flaw) }
            fold(from: start)
        }

        mutating func property(_ name: String, _ parameters: ICalendarItems.Parameters, lent: [ICalendarParameter],
                               value: (inout [UInt8]) -> Void) throws(ICalendarWriteError) {
            try refuseDelimiter(name)
            let start = bytes.count
            guard ICalendarContentLine.isName(name) else { throw refusal(name, "'\(name)' is not a property name (letters, digits, '-', '_')") }
            bytes.append(contentsOf: name.utf8)
            parameters.append(to: &bytes)
            for parameter in lent {
                if let flaw = ICalendarContentLine.append(parameter, to: &bytes) { throw refusal(name, flaw) }
            }
            bytes.append(ICalendarContentLine.colon)
            let valueStart = bytes.count
            value(&bytes)
            if let flaw = ICalendarContentLine.valueFlaw(bytes, from: valueStart) { throw refusal(name, flaw) }
            fold(from: start)
        }

        var mark: Int { bytes.count }

        mutating func insert(_ components: [ICalendarComponent], at mark: Int) throws(ICalendarWriteError) {
            var inserted = Output()
            inserted.open = open
            for component in components { try inserted.component(component) }
            bytes.insert(contentsOf: inserted.bytes, at: mark)
        }

        private func refuseDelimiter(_ name: String) throws(ICalendarWriteError) {
            if name == "BEGIN" || name == "END" {
                throw refusal(name, "a property named \(name) would read back as a component")
            }
        }

        private func refusal(_ property: String, _ reason: String) -> ICalendarWriteError {
            ICalendarWriteError(component: open.last ?? "", property: property, reason: reason)
        }

        private mutating func delimiter(_ keyword: StaticString, _ name: String) {
            let start = bytes.count
            bytes.append(contentsOf: UnsafeBufferPointer(start: keyword.utf8Start, count: keyword.utf8CodeUnitCount))
            bytes.append(contentsOf: name.utf8)
            fold(from: start)
        }

        /// Ends the line begun at `start`, folded: at most 75 octets a
        /// physical line, the space that starts a continuation counted, a
        /// cut moved back to the start of the UTF-8 character it would split.
        mutating func fold(from start: Int) {
            guard bytes.count - start > ICalendarWriter.maximumLineOctets else {
                bytes.append(ICalendarContentLine.carriageReturn)
                bytes.append(ICalendarContentLine.lineFeed)
                return
            }
            long.removeAll(keepingCapacity: true)
            long.append(contentsOf: bytes[start...])
            bytes.removeSubrange(start...)
            let total = long.count
            var start = 0
            var room = ICalendarWriter.maximumLineOctets
            // Bounded: each turn writes at least 71 octets (75 less the
            // space and at most three bytes of a split character).
            while total - start > room {
                var cut = start + room
                while cut > start + 1, long[cut] & 0xC0 == 0x80 { cut -= 1 }
                bytes.append(contentsOf: long[start..<cut])
                bytes.append(ICalendarContentLine.carriageReturn)
                bytes.append(ICalendarContentLine.lineFeed)
                bytes.append(ICalendarContentLine.space)
                start = cut
                room = ICalendarWriter.maximumLineOctets - 1
            }
            bytes.append(contentsOf: long[start..<total])
            bytes.append(ICalendarContentLine.carriageReturn)
            bytes.append(ICalendarContentLine.lineFeed)
        }
    }
}
