import Glibc

/// One property as one unfolded content line (RFC 5545 §3.1), and back:
/// how an item's unmodelled properties are kept as text
/// (`ICalendarOrigin.unmodelled`) and read again for export.
///
/// These are the same code `ICalendarReader` reads and `ICalendarWriter`
/// writes each line with (`ICalendarContentLine`), so there is one
/// content-line parser and one formatter.
extension ICalendarProperty {
    /// `NAME;PARAM=value,"quoted; value":value`, without a line break and
    /// unfolded. A parameter value is quoted when it holds `;`, `:` or `,`;
    /// RFC 6868 escapes stand for a line break (`^n`), `^` (`^^`) and `"` (`^'`).
    /// Written as given: what `ICalendarWriter` would refuse (a name that is
    /// not one, a line break in the value) is written all the same.
    public var contentLine: String {
        var bytes: [UInt8] = []
        _ = ICalendarContentLine.append(self, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Reads one unfolded content line; `line` is where it stood. Throws
    /// when there is no name or no colon after the parameters.
    public init(contentLine text: some StringProtocol, line: Int = 0) throws(ICalendarValueError) {
        var text = String(text)
        var repairs = ICalendarContentLine.Repairs()
        let result = text.withUTF8 { bytes in
            Result { () throws(ICalendarContentLine.Fault) in try ICalendarContentLine.parse(bytes, line: line, repairs: &repairs) }
        }
        switch result {
        case .success(let property): self = property
        case .failure(let fault): throw ICalendarValueError(value: text, line: line, reason: fault.reason)
        }
    }
}

extension ICalendarComponent {
    /// Properties and components as unfolded content lines, each ending in
    /// CR LF: the form of `ICalendarOrigin.unmodelled` and `Alarm.unmodelled`.
    public static func unmodelledText(properties: [ICalendarProperty], components: [ICalendarComponent]) -> String {
        guard !properties.isEmpty || !components.isEmpty else { return "" }
        // Into one buffer, made a String once: a String for each line and
        // each `+` cost an import about 6,700 instructions an alarm.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(128)
        appendUnmodelled(properties: properties, components: components, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The component as unfolded content lines, BEGIN to END, each ending in CR LF.
    public var unfoldedText: String {
        var bytes: [UInt8] = []
        appendUnfolded(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    static func appendUnmodelled(properties: [ICalendarProperty], components: [ICalendarComponent], to bytes: inout [UInt8]) {
        for property in properties {
            _ = ICalendarContentLine.append(property, to: &bytes)
            bytes.append(ICalendarContentLine.carriageReturn)
            bytes.append(ICalendarContentLine.lineFeed)
        }
        for component in components { component.appendUnfolded(to: &bytes) }
    }

    func appendUnfolded(to bytes: inout [UInt8]) {
        bytes.append(contentsOf: "BEGIN:".utf8)
        bytes.append(contentsOf: name.utf8)
        bytes.append(ICalendarContentLine.carriageReturn)
        bytes.append(ICalendarContentLine.lineFeed)
        Self.appendUnmodelled(properties: properties, components: components, to: &bytes)
        bytes.append(contentsOf: "END:".utf8)
        bytes.append(contentsOf: name.utf8)
        bytes.append(ICalendarContentLine.carriageReturn)
        bytes.append(ICalendarContentLine.lineFeed)
    }

    /// The deepest nesting `readUnmodelled` follows.
    public static let maximumUnmodelledDepth = 16

    /// Reads back what `unmodelledText` wrote: top-level properties, then
    /// the components among them. Lines end in LF or CR LF, as the reader's
    /// do (a lone CR is text); blank lines are skipped; `line` counts the others.
    public static func readUnmodelled(_ text: String) throws(ICalendarValueError) -> (properties: [ICalendarProperty], components: [ICalendarComponent]) {
        var text = text
        let result = text.withUTF8 { bytes in
            Result { () throws(ICalendarValueError) in try readUnmodelled(bytes) }
        }
        return try result.get()
    }

    static func readUnmodelled(_ bytes: UnsafeBufferPointer<UInt8>) throws(ICalendarValueError) -> (properties: [ICalendarProperty], components: [ICalendarComponent]) {
        var stack = [ICalendarComponent(name: "UNMODELLED")]
        var number = 0
        var start = 0
        // Bounded: each turn moves `start` past at least one byte.
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != ICalendarContentLine.lineFeed { end += 1 }
            let next = end + 1
            if end > start, bytes[end - 1] == ICalendarContentLine.carriageReturn { end -= 1 }
            defer { start = next }
            guard end > start else { continue }
            number += 1
            let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
            var repairs = ICalendarContentLine.Repairs()
            let property: ICalendarProperty
            do {
                property = try ICalendarContentLine.parse(line, line: number, repairs: &repairs)
            } catch {
                throw ICalendarValueError(value: String(decoding: line, as: UTF8.self), line: number, reason: error.reason)
            }
            if property.name == "BEGIN" {
                guard stack.count <= maximumUnmodelledDepth else {
                    throw ICalendarValueError(property: "BEGIN", value: property.value, line: number, reason: "nests deeper than \(maximumUnmodelledDepth) components")
                }
                stack.append(ICalendarComponent(name: property.value, line: number))
            } else if property.name == "END" {
                guard stack.count > 1, stack[stack.count - 1].name == property.value.uppercased() else {
                    throw ICalendarValueError(property: "END", value: property.value, line: number, reason: "ends a component that was not begun")
                }
                let done = stack.removeLast()
                stack[stack.count - 1].components.append(done)
            } else {
                stack[stack.count - 1].properties.append(property)
            }
        }
        guard stack.count == 1 else {
            throw ICalendarValueError(property: "BEGIN", value: stack[stack.count - 1].name, line: stack[stack.count - 1].line, reason: "is never ended")
        }
        return (stack[0].properties, stack[0].components)
    }
}

/// The content-line grammar (RFC 5545 §3.1, RFC 6868) on UTF-8 bytes: the
/// reader, the writer and `ICalendarProperty.contentLine` all go through
/// here. Bytes rather than Characters because a calendar of ten thousand
/// events is a few hundred thousand lines, and each String is built once.
enum ICalendarContentLine {
    /// Why a line is not a content line.
    struct Fault: Error {
        var reason: String
    }

    /// What reading a line had to mend; the text read has U+FFFD in place
    /// of each byte mended.
    struct Repairs: OptionSet {
        var rawValue: UInt8
        /// Bytes that are not UTF-8.
        static let invalidUTF8 = Repairs(rawValue: 1)
        /// RFC 5545's CONTROL characters (U+0000–U+0008, U+000A–U+001F,
        /// U+007F), which no value may hold: a NUL kept in a UID would end
        /// the C string of every program that reads it back.
        static let controlCharacters = Repairs(rawValue: 2)
    }

    /// A CONTROL character of RFC 5545 §3.1: every C0 byte but HTAB, and DEL.
    @inline(__always)
    static func isControl(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != tab) || byte == 0x7F
    }

    /// U+FFFD, the replacement character, in UTF-8.
    static let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]

    static let colon = UInt8(ascii: ":"), semicolon = UInt8(ascii: ";"), comma = UInt8(ascii: ",")
    static let quote = UInt8(ascii: "\""), caret = UInt8(ascii: "^"), equals = UInt8(ascii: "=")
    static let lineFeed = UInt8(ascii: "\n"), carriageReturn = UInt8(ascii: "\r")
    static let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t")

    /// A byte of a property, parameter or component name: RFC 5545's
    /// `ALPHA / DIGIT / "-"`, and `_`, which real files put in X- names.
    @inline(__always)
    static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"): true
        default: false
        }
    }

    /// Whether `name` is a name the reader reads back as it is: not empty,
    /// name bytes only.
    static func isName(_ name: String) -> Bool {
        // The contiguous bytes when the String has them (native ones do): the writer asks once a line.
        name.utf8.withContiguousStorageIfAvailable { !$0.isEmpty && $0.allSatisfy(isNameByte) }
            ?? (!name.isEmpty && name.utf8.allSatisfy(isNameByte))
    }

    /// The length of the name the line starts with when a `;` or `:`
    /// follows it, else 0: the test for "could be a content line".
    static func nameLength(_ line: UnsafeBufferPointer<UInt8>) -> Int {
        var index = 0
        while index < line.count, isNameByte(line[index]) { index += 1 }
        guard index > 0, index < line.count, line[index] == colon || line[index] == semicolon else { return 0 }
        return index
    }

    /// Whether the name at the start of `line` is `upperCaseName` (ASCII), in any case.
    static func nameIs(_ line: UnsafeBufferPointer<UInt8>, length: Int, _ upperCaseName: StaticString) -> Bool {
        guard length == upperCaseName.utf8CodeUnitCount else { return false }
        let expected = upperCaseName.utf8Start
        for index in 0..<length {
            // Only letters have a case: a digit or '-' masked as one would be another byte.
            let byte = line[index]
            if (byte >= 97 && byte <= 122 ? byte &- 32 : byte) != expected[index] { return false }
        }
        return true
    }

    /// The name in `bytes[range]` in upper case (name bytes are ASCII).
    static func upperCaseName(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(unsafeUninitializedCapacity: range.count) { target in
            var written = 0
            for index in range {
                let byte = bytes[index]
                target[written] = byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte - 32 : byte
                written += 1
            }
            return written
        }
    }

    /// `bytes[range]` as text; invalid UTF-8 and CONTROL characters become
    /// U+FFFD and are noted in `repairs`.
    static func text(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, repairs: inout Repairs) -> String {
        let slice = UnsafeBufferPointer(rebasing: bytes[range])
        // Printable ASCII, as nearly every value is, needs neither check of what follows: one pass finds it.
        if slice.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return String(decoding: slice, as: UTF8.self) }
        guard slice.contains(where: isControl) else { return utf8Text(slice, repairs: &repairs) }
        repairs.insert(.controlCharacters)
        var mended: [UInt8] = []
        mended.reserveCapacity(slice.count + 8)
        for byte in slice {
            if isControl(byte) { mended.append(contentsOf: replacement) } else { mended.append(byte) }
        }
        return mended.withUnsafeBufferPointer { utf8Text($0, repairs: &repairs) }
    }

    /// The bytes as text, invalid UTF-8 as U+FFFD (noted in `repairs`).
    /// Repaired exactly when the text's bytes are not those that came (a
    /// U+FFFD put in stands where no valid sequence was): decoding and
    /// comparing, as `String(validating:as:)` runs unspecialized here,
    /// looking up generic metadata for every value (a sixteenth of an import).
    private static func utf8Text(_ bytes: UnsafeBufferPointer<UInt8>, repairs: inout Repairs) -> String {
        var text = String(decoding: bytes, as: UTF8.self)
        // Compared with memcmp: elementsEqual went byte by byte through iterators.
        if bytes.contains(where: { $0 >= 0x80 }),
           !text.withUTF8({ $0.count == bytes.count && ($0.isEmpty || memcmp($0.baseAddress!, bytes.baseAddress!, $0.count) == 0) }) {
            repairs.insert(.invalidUTF8)
        }
        return text
    }

    /// A parameter value in `bytes[range]` with its RFC 6868 escapes
    /// decoded: `^n` (or `^N`) a line break, `^^` a caret, `^'` a double
    /// quote; any other caret stays as it is. CONTROL characters as they
    /// stand are mended as `text` mends them; the line feed `^n` stands for is kept.
    static func parameterText(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, repairs: inout Repairs) -> String {
        var hasCaret = false
        for index in range where bytes[index] == caret {
            hasCaret = true
            break
        }
        guard hasCaret else { return text(bytes, range, repairs: &repairs) }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(range.count)
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = bytes[index]
            index += 1
            if isControl(byte) {
                repairs.insert(.controlCharacters)
                decoded.append(contentsOf: replacement)
                continue
            }
            guard byte == caret, index < range.upperBound else {
                decoded.append(byte)
                continue
            }
            switch bytes[index] {
            case UInt8(ascii: "n"), UInt8(ascii: "N"): decoded.append(lineFeed); index += 1
            case caret: decoded.append(caret); index += 1
            case UInt8(ascii: "'"): decoded.append(quote); index += 1
            default: decoded.append(caret)
            }
        }
        return decoded.withUnsafeBufferPointer { utf8Text($0, repairs: &repairs) }
    }

    /// Reads one unfolded content line: `NAME *(";" PARAM "=" value *("," value)) ":" value`.
    /// Names are upper-cased; parameter values lose their quotes and RFC
    /// 6868 escapes; the value is kept as it stands. Invalid UTF-8 and
    /// CONTROL characters are replaced with U+FFFD and noted in `repairs`.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, line: Int, repairs: inout Repairs) throws(Fault) -> ICalendarProperty {
        let count = bytes.count
        var index = 0
        while index < count, isNameByte(bytes[index]) { index += 1 }
        guard index > 0 else { throw Fault(reason: "is not a content line: it does not start with a name") }
        let name = upperCaseName(bytes, 0..<index)
        var parameters: [ICalendarParameter] = []
        // Bounded: every turn of both loops moves `index` forward or leaves.
        while index < count, bytes[index] == semicolon {
            index += 1
            let nameStart = index
            while index < count, isNameByte(bytes[index]) { index += 1 }
            guard index > nameStart, index < count, bytes[index] == equals else {
                throw Fault(reason: "has a parameter without a name and '=' after \(name)")
            }
            let parameterName = upperCaseName(bytes, nameStart..<index)
            index += 1
            var values: [String] = []
            while true {
                if index < count, bytes[index] == quote {
                    let start = index + 1
                    var end = start
                    while end < count, bytes[end] != quote { end += 1 }
                    guard end < count else {
                        throw Fault(reason: "has a quoted value of the parameter \(parameterName) without its closing quote")
                    }
                    values.append(parameterText(bytes, start..<end, repairs: &repairs))
                    index = end + 1
                    guard index == count || bytes[index] == comma || bytes[index] == semicolon || bytes[index] == colon else {
                        throw Fault(reason: "has text after the closing quote of the parameter \(parameterName)")
                    }
                } else {
                    let start = index
                    while index < count {
                        let byte = bytes[index]
                        if byte == semicolon || byte == colon || byte == comma { break }
                        index += 1
                    }
                    values.append(parameterText(bytes, start..<index, repairs: &repairs))
                }
                guard index < count, bytes[index] == comma else { break }
                index += 1
            }
            parameters.append(ICalendarParameter(upperCaseName: parameterName, values: values))
        }
        guard index < count, bytes[index] == colon else { throw Fault(reason: "has no ':' before its value") }
        return ICalendarProperty(upperCaseName: name, parameters: parameters, value: text(bytes, (index + 1)..<count, repairs: &repairs), line: line)
    }

    /// Appends `property` as one unfolded line (no line break) and returns
    /// the first reason it would not read back the same, if any; it is
    /// written all the same (`contentLine` is lenient, the writer refuses).
    static func append(_ property: ICalendarProperty, to out: inout [UInt8]) -> String? {
        var flaw: String?
        if !isName(property.name) { flaw = "'\(property.name)' is not a property name (letters, digits, '-', '_')" }
        out.append(contentsOf: property.name.utf8)
        for parameter in property.parameters {
            let parameterFlaw = append(parameter, to: &out)
            if flaw == nil { flaw = parameterFlaw }
        }
        out.append(colon)
        let valueStart = out.count
        out.append(contentsOf: property.value.utf8)
        return flaw ?? valueFlaw(out, from: valueStart)
    }

    /// Appends `;NAME=value,…` and returns why it would not read back the same, if it would not.
    static func append(_ parameter: ICalendarParameter, to out: inout [UInt8]) -> String? {
        var flaw: String?
        if !isName(parameter.name) {
            flaw = "'\(parameter.name)' is not a parameter name (letters, digits, '-', '_')"
        } else if parameter.values.isEmpty {
            flaw = "the parameter \(parameter.name) has no value"
        } else if let control = parameter.values.lazy.compactMap({ $0.utf8.first { isControl($0) && $0 != lineFeed } }).first {
            flaw = "the parameter \(parameter.name) holds the control character U+\(hex4(control)), which no content line may"
        }
        out.append(semicolon)
        out.append(contentsOf: parameter.name.utf8)
        out.append(equals)
        for (position, value) in parameter.values.enumerated() {
            if position > 0 { out.append(comma) }
            appendParameterValue(value, to: &out)
        }
        return flaw
    }

    /// Why the value in `out` from `valueStart` on cannot be a content
    /// line's, if it holds a line feed or another CONTROL character.
    static func valueFlaw(_ out: [UInt8], from valueStart: Int) -> String? {
        guard let control = out[valueStart...].first(where: isControl) else { return nil }
        if control == lineFeed { return "the value holds a line break, which a content line cannot (TEXT writes it as \\n)" }
        return "the value holds the control character U+\(hex4(control)), which no content line may (TEXT writes it as U+FFFD)"
    }

    private static func hex4(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }

    /// Quoted when it holds `;`, `:` or `,`; `^`, `"` and line feeds RFC 6868-escaped.
    static func appendParameterValue(_ value: String, to out: inout [UInt8]) {
        var needsQuotes = false, needsEscapes = false
        for byte in value.utf8 {
            switch byte {
            case semicolon, colon, comma: needsQuotes = true
            case caret, quote, lineFeed: needsEscapes = true
            default: continue
            }
        }
        if needsQuotes { out.append(quote) }
        if needsEscapes {
            for byte in value.utf8 {
                switch byte {
                case caret: out.append(caret); out.append(caret)
                case quote: out.append(caret); out.append(UInt8(ascii: "'"))
                case lineFeed: out.append(caret); out.append(UInt8(ascii: "n"))
                default: out.append(byte)
                }
            }
        } else {
            out.append(contentsOf: value.utf8)
        }
        if needsQuotes { out.append(quote) }
    }
}
