/// A strict JSON (RFC 8259) reader: Chime's one for text from outside,
/// holiday-cn's files and gpsd's reports.
///
/// Foundation's decoders say only "not valid JSON" on Linux, keep one of two
/// duplicate keys silently and read `1` where a boolean belongs; a refused
/// import has to say where and why, and a gpsd line is read in a few µs
/// (JSONSerialization took about 30), so the reader is our own. Foundation-free.
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Why the text is not JSON, with the place of the fault: its byte
    /// offset, and its line and column (counted in characters).
    public struct SyntaxError: Error, Sendable {
        public let offset: Int
        public let line: Int
        public let column: Int
        public let reason: String
    }

    /// Nesting deeper than this is refused rather than recursed into: no
    /// holiday file comes near it.
    static let maximumDepth = 64

    /// `lastKeyWins`: a member named twice keeps its last value (as gpsd's
    /// readers do) rather than being refused. `keptDepth`: arrays and
    /// objects nested deeper are checked but left empty (gpsd's SKY reports
    /// carry satellite lists nobody reads), which reading a line needs not build.
    public static func parse(_ bytes: [UInt8], lastKeyWins: Bool = false, keptDepth: Int = .max) throws(SyntaxError) -> JSONValue {
        var reader = Reader(bytes: bytes, lastKeyWins: lastKeyWins, keptDepth: keptDepth)
        reader.skipSpace()
        let value = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.index == bytes.count else {
            let what = if case .object = value { "object" } else { "value" }
            throw reader.error("unexpected text after the JSON \(what)")
        }
        return value
    }

    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    private struct Reader {
        let bytes: [UInt8]
        let lastKeyWins: Bool
        let keptDepth: Int
        var index = 0

        func error(_ reason: String) -> SyntaxError {
            // Line and column of `index`, counted in characters, not bytes,
            // so that an editor finds the spot.
            var line = 1, column = 1
            var position = 0
            while position < min(index, bytes.count) {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\n") {
                    line += 1
                    column = 1
                } else if byte & 0xC0 != 0x80 {
                    column += 1
                }
                position += 1
            }
            return SyntaxError(offset: index, line: line, column: column, reason: reason)
        }

        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipSpace() {
            while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
        }

        mutating func value(depth: Int) throws(SyntaxError) -> JSONValue {
            guard depth < JSONValue.maximumDepth else { throw error("nested too deeply (more than \(JSONValue.maximumDepth) levels)") }
            guard let byte = current else { throw error("the text ends where a value should be") }
            switch byte {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
            default: throw error("unexpected character '\(Self.show(byte))' where a value should be")
            }
        }

        static func show(_ byte: UInt8) -> String {
            byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : "\\u{\(String(byte, radix: 16))}"
        }

        mutating func literal(_ word: StaticString) throws(SyntaxError) {
            let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
            guard index + expected.count <= bytes.count, bytes[index..<index + expected.count].elementsEqual(expected) else {
                throw error("unexpected text where a value should be (expected '\(word)'?)")
            }
            index += expected.count
        }

        mutating func object(depth: Int) throws(SyntaxError) -> JSONValue {
            let keeps = depth < keptDepth
            var members: [String: JSONValue] = [:]
            try sequence(closedBy: UInt8(ascii: "}"), in: "an object") { (reader: inout Reader) throws(SyntaxError) in
                guard reader.current == UInt8(ascii: "\"") else { throw reader.error("expected a member name in double quotes") }
                let keyStart = reader.index
                let key = try reader.string()
                reader.skipSpace()
                guard reader.current == UInt8(ascii: ":") else { throw reader.error("expected ':' after the member name \"\(key)\"") }
                reader.index += 1
                reader.skipSpace()
                let member = try reader.value(depth: depth + 1)
                guard !keeps || members.updateValue(member, forKey: key) == nil || reader.lastKeyWins else {
                    reader.index = keyStart
                    throw reader.error("the member \"\(key)\" appears twice")
                }
            }
            return .object(members)
        }

        mutating func array(depth: Int) throws(SyntaxError) -> JSONValue {
            let keeps = depth < keptDepth
            var elements: [JSONValue] = []
            try sequence(closedBy: UInt8(ascii: "]"), in: "an array") { (reader: inout Reader) throws(SyntaxError) in
                let element = try reader.value(depth: depth + 1)
                if keeps { elements.append(element) }
            }
            return .array(elements)
        }

        /// An object's or an array's body, from its opening bracket past
        /// `close`: `element` reads each member or element (from its first
        /// character); the commas between them are read here.
        mutating func sequence(closedBy close: UInt8, in container: StaticString,
                               _ element: (inout Reader) throws(SyntaxError) -> Void) throws(SyntaxError) {
            index += 1
            skipSpace()
            if current == close {
                index += 1
                return
            }
            while true {
                skipSpace()
                try element(&self)
                skipSpace()
                switch current {
                case UInt8(ascii: ","): index += 1
                case close: index += 1; return
                default: throw error("expected ',' or '\(Self.show(close))' in \(container)")
                }
            }
        }

        mutating func number() throws(SyntaxError) -> Double {
            let start = index
            func digits() -> Int {
                let from = index
                while let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { index += 1 }
                return index - from
            }
            if current == UInt8(ascii: "-") { index += 1 }
            let integerStart = index
            guard digits() > 0 else { throw error("a number needs digits") }
            if bytes[integerStart] == UInt8(ascii: "0"), index - integerStart > 1 { throw error("a number may not start with 0") }
            if current == UInt8(ascii: ".") {
                index += 1
                guard digits() > 0 else { throw error("a number needs digits after '.'") }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                index += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
                guard digits() > 0 else { throw error("a number needs digits in its exponent") }
            }
            guard let value = Double(String(decoding: bytes[start..<index], as: UTF8.self)) else {
                throw error("not a number")
            }
            // 1e999 is valid JSON but no Double: read as infinity, it could not
            // be written back (JSONEncoder refuses non-finite numbers).
            guard value.isFinite else { throw error("a number too large: '\(String(decoding: bytes[start..<index], as: UTF8.self))'") }
            return value
        }

        mutating func string() throws(SyntaxError) -> String {
            index += 1
            // The common case, no escapes: validated and copied once.
            let start = index
            while let byte = current, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\"), byte >= 0x20 { index += 1 }
            if current == UInt8(ascii: "\"") {
                // At the closing quote, as the run-by-run path below says it.
                guard let text = String(validating: bytes[start..<index], as: UTF8.self) else { throw error("a string is not valid UTF-8") }
                index += 1
                return text
            }
            index = start
            var scalars = String.UnicodeScalarView()
            var runStart = index
            // Unescaped runs are validated as UTF-8 in one piece.
            func flushRun(_ end: Int) throws(SyntaxError) {
                guard end > runStart else { return }
                guard let text = String(validating: bytes[runStart..<end], as: UTF8.self) else {
                    throw error("a string is not valid UTF-8")
                }
                scalars.append(contentsOf: text.unicodeScalars)
            }
            while true {
                guard let byte = current else { throw error("a string is not closed") }
                switch byte {
                case UInt8(ascii: "\""):
                    try flushRun(index)
                    index += 1
                    return String(scalars)
                case UInt8(ascii: "\\"):
                    try flushRun(index)
                    index += 1
                    try escape(into: &scalars)
                    runStart = index
                case 0..<0x20:
                    throw error("a control character inside a string (write it escaped)")
                default:
                    index += 1
                }
            }
        }

        mutating func escape(into scalars: inout String.UnicodeScalarView) throws(SyntaxError) {
            guard let byte = current else { throw error("a string is not closed") }
            index += 1
            switch byte {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                let first = try hex4()
                var code = UInt32(first)
                if (0xD800..<0xDC00).contains(first) {
                    // A high surrogate must be followed by an escaped low one.
                    guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                        throw error("a lone surrogate \\u\(String(first, radix: 16)) in a string")
                    }
                    index += 2
                    let second = try hex4()
                    guard (0xDC00..<0xE000).contains(second) else { throw error("a lone surrogate \\u\(String(first, radix: 16)) in a string") }
                    code = 0x10000 + ((UInt32(first) - 0xD800) << 10) + (UInt32(second) - 0xDC00)
                } else if (0xDC00..<0xE000).contains(first) {
                    throw error("a lone surrogate \\u\(String(first, radix: 16)) in a string")
                }
                guard let scalar = Unicode.Scalar(code) else { throw error("\\u escape is not a character") }
                scalars.append(scalar)
            default:
                throw error("unknown escape '\\\(Self.show(byte))' in a string")
            }
        }

        mutating func hex4() throws(SyntaxError) -> UInt16 {
            guard index + 4 <= bytes.count,
                  bytes[index..<index + 4].allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) }),
                  let value = UInt16(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16) else {
                throw error("\\u needs four hexadecimal digits")
            }
            index += 4
            return value
        }
    }
}
