/// Writes component trees as RFC 5545 text: CR LF line ends, lines folded
/// at 75 octets (§3.1) never inside a UTF-8 character, parameter values
/// quoted and RFC 6868-escaped as `ICalendarProperty.contentLine` does.
/// Property values are written as given: they are value text already
/// (`ICalendarText.escape` makes TEXT).
///
/// What it writes `ICalendarReader` reads back equal; what could not be
/// read back equal is refused with an `ICalendarWriteError` rather than
/// written wrong: a name that is not one (letters, digits, `-`, `_`), a
/// property named BEGIN or END, a parameter without values, a line feed in
/// a property value, nesting deeper than `ICalendarReader.maximumDepth`.
public enum ICalendarWriter {
    /// The longest physical line, in octets without the CR LF (RFC 5545 §3.1).
    public static let maximumLineOctets = 75

    /// The text of `components`, one after the other.
    public static func write(_ components: [ICalendarComponent]) throws(ICalendarWriteError) -> [UInt8] {
        var output = Output()
        for component in components { try output.write(component, depth: 1) }
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

    struct Output {
        var bytes: [UInt8] = []
        /// The line being written, before folding.
        var line: [UInt8] = []

        mutating func write(_ component: ICalendarComponent, depth: Int) throws(ICalendarWriteError) {
            guard depth <= ICalendarReader.maximumDepth else {
                throw ICalendarWriteError(component: component.name, property: "",
                                          reason: "nests deeper than the \(ICalendarReader.maximumDepth) components a reader follows")
            }
            guard ICalendarContentLine.isName(component.name) else {
                throw ICalendarWriteError(component: component.name, property: "", reason: "'\(component.name)' is not a component name (letters, digits, '-', '_')")
            }
            delimiter("BEGIN", component.name)
            for property in component.properties {
                if property.name == "BEGIN" || property.name == "END" {
                    throw ICalendarWriteError(component: component.name, property: property.name,
                                              reason: "a property named \(property.name) would read back as a component")
                }
                line.removeAll(keepingCapacity: true)
                if let flaw = ICalendarContentLine.append(property, to: &line) {
                    throw ICalendarWriteError(component: component.name, property: property.name, reason: flaw)
                }
                fold()
            }
            for child in component.components { try write(child, depth: depth + 1) }
            delimiter("END", component.name)
        }

        mutating func delimiter(_ keyword: String, _ name: String) {
            line.removeAll(keepingCapacity: true)
            line.append(contentsOf: keyword.utf8)
            line.append(ICalendarContentLine.colon)
            line.append(contentsOf: name.utf8)
            fold()
        }

        /// Appends `line` folded: at most 75 octets a physical line, the
        /// space that starts a continuation counted, a cut moved back to the
        /// start of the UTF-8 character it would split.
        mutating func fold() {
            let total = line.count
            var start = 0
            var room = ICalendarWriter.maximumLineOctets
            // Bounded: each turn writes at least 71 octets (75 less the
            // space and at most three bytes of a split character).
            while total - start > room {
                var cut = start + room
                while cut > start + 1, line[cut] & 0xC0 == 0x80 { cut -= 1 }
                bytes.append(contentsOf: line[start..<cut])
                bytes.append(ICalendarContentLine.carriageReturn)
                bytes.append(ICalendarContentLine.lineFeed)
                bytes.append(ICalendarContentLine.space)
                start = cut
                room = ICalendarWriter.maximumLineOctets - 1
            }
            bytes.append(contentsOf: line[start..<total])
            bytes.append(ICalendarContentLine.carriageReturn)
            bytes.append(ICalendarContentLine.lineFeed)
        }
    }
}
