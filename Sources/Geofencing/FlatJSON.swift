/// A small JSON reader for one-line reports such as gpsd's: it checks the
/// whole text against the JSON grammar and keeps the top-level members whose
/// values are scalars (nested arrays and objects are checked and skipped).
/// Foundation's JSONSerialization took about 30 µs for a short TPV line
/// here and turns `true` into a number; this takes a few µs and keeps the
/// types apart.
struct FlatJSON {
    enum Value: Hashable {
        case string(String)
        case number(Double)
        case bool(Bool)
        case null
        case nested

        /// What the value is, for a message.
        var kind: String {
            switch self {
            case .string(let text): "the string \"\(PositionLine.clipped(text))\""
            case .number(let value): "the number \(value)"
            case .bool(let value): "\(value)"
            case .null: "null"
            case .nested: "an array or object"
            }
        }
    }

    struct Failure: Error {
        let message: String
        let offset: Int
    }

    /// The members of a top-level object, last one winning on a repeated key.
    static func object(_ text: String) throws(Failure) -> [String: Value] {
        var reader = FlatJSON(bytes: Array(text.utf8))
        return try reader.topLevelObject()
    }

    private let bytes: [UInt8]
    private var position = 0

    private init(bytes: [UInt8]) { self.bytes = bytes }

    /// Objects and arrays may nest this deep, so that a hostile line cannot
    /// exhaust the stack.
    private static let maximumDepth = 64

    private mutating func topLevelObject() throws(Failure) -> [String: Value] {
        skipSpace()
        guard peek() == UInt8(ascii: "{") else { throw fail("expected a JSON object") }
        position += 1
        var members: [String: Value] = [:]
        skipSpace()
        if peek() == UInt8(ascii: "}") {
            position += 1
        } else {
            while true {
                skipSpace()
                let key = try string()
                skipSpace()
                try expect(UInt8(ascii: ":"))
                members[key] = try value(depth: 1)
                skipSpace()
                if peek() == UInt8(ascii: ",") { position += 1; continue }
                try expect(UInt8(ascii: "}"))
                break
            }
        }
        skipSpace()
        guard position == bytes.count else { throw fail("unexpected text after the JSON object") }
        return members
    }

    private mutating func value(depth: Int) throws(Failure) -> Value {
        skipSpace()
        guard let byte = peek() else { throw fail("the JSON text ends where a value should be") }
        switch byte {
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard depth < Self.maximumDepth else { throw fail("JSON nested too deeply") }
            try skipContainer(depth: depth)
            return .nested
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        default:
            return .number(try number())
        }
    }

    private mutating func skipContainer(depth: Int) throws(Failure) {
        let isObject = bytes[position] == UInt8(ascii: "{")
        let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
        position += 1
        skipSpace()
        if peek() == close { position += 1; return }
        while true {
            skipSpace()
            if isObject {
                _ = try string()
                skipSpace()
                try expect(UInt8(ascii: ":"))
            }
            _ = try value(depth: depth + 1)
            skipSpace()
            if peek() == UInt8(ascii: ",") { position += 1; continue }
            try expect(close)
            return
        }
    }

    private mutating func string() throws(Failure) -> String {
        try expect(UInt8(ascii: "\""))
        let start = position
        // The common case, no escapes: one copy of the bytes.
        while let byte = peek(), byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
            guard byte >= 0x20 else { throw fail("a control character inside a JSON string") }
            position += 1
        }
        var result = String(decoding: bytes[start..<position], as: UTF8.self)
        while true {
            guard let byte = peek() else { throw fail("a JSON string is not closed") }
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                return result
            case UInt8(ascii: "\\"):
                result.unicodeScalars.append(try escape())
            default:
                guard byte >= 0x20 else { throw fail("a control character inside a JSON string") }
                // Multi-byte characters arrive one byte at a time: gather the
                // run up to the next quote or escape and decode it whole.
                let runStart = position - 1
                while let next = peek(), next != UInt8(ascii: "\""), next != UInt8(ascii: "\\"), next >= 0x20 { position += 1 }
                result += String(decoding: bytes[runStart..<position], as: UTF8.self)
            }
        }
    }

    private mutating func escape() throws(Failure) -> Unicode.Scalar {
        guard let byte = peek() else { throw fail("a JSON string ends inside an escape") }
        position += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try hexQuad()
            if (0xD800..<0xDC00).contains(high) {
                guard peek() == UInt8(ascii: "\\") else { throw fail("a lone surrogate in a JSON string") }
                position += 1
                try expect(UInt8(ascii: "u"))
                let low = try hexQuad()
                guard (0xDC00..<0xE000).contains(low) else { throw fail("a lone surrogate in a JSON string") }
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
            }
            guard let scalar = Unicode.Scalar(high) else { throw fail("a lone surrogate in a JSON string") }
            return scalar
        default:
            throw fail("an unknown escape in a JSON string")
        }
    }

    private mutating func hexQuad() throws(Failure) -> UInt32 {
        var result: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = peek() else { throw fail("a JSON string ends inside a \\u escape") }
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw fail("a \\u escape needs four hexadecimal digits")
            }
            result = result << 4 | UInt32(digit)
            position += 1
        }
        return result
    }

    /// A number by JSON's grammar: no leading zeros, no leading '+', no
    /// bare '.', no NaN or Infinity.
    private mutating func number() throws(Failure) -> Double {
        let start = position
        if peek() == UInt8(ascii: "-") { position += 1 }
        guard let first = peek(), isDigit(first) else { throw fail("expected a JSON value") }
        position += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        if peek() == UInt8(ascii: ".") {
            position += 1
            guard let digit = peek(), isDigit(digit) else { throw fail("a JSON number needs digits after its point") }
            skipDigits()
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            position += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { position += 1 }
            guard let digit = peek(), isDigit(digit) else { throw fail("a JSON number needs digits in its exponent") }
            skipDigits()
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        guard let value = Double(text) else { throw fail("a JSON number out of range") }
        return value
    }

    private mutating func skipDigits() {
        while let byte = peek(), isDigit(byte) { position += 1 }
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func literal(_ word: StaticString) throws(Failure) {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard position + expected.count <= bytes.count,
              bytes[position..<(position + expected.count)].elementsEqual(expected) else { throw fail("expected a JSON value") }
        position += expected.count
    }

    private mutating func expect(_ byte: UInt8) throws(Failure) {
        guard peek() == byte else {
            throw fail(peek() == nil ? "the JSON text ends early" : "expected '\(Character(Unicode.Scalar(byte)))' in the JSON text")
        }
        position += 1
    }

    private mutating func skipSpace() {
        while let byte = peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { position += 1 }
    }

    private func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

    private func fail(_ message: String) -> Failure { Failure(message: message, offset: position) }
}
