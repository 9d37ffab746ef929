/// TEXT values (RFC 5545 §3.3.11): backslash escapes for `\`, `;`, `,` and
/// line breaks; the other CONTROL characters, which have no escape, are
/// written as U+FFFD.
public enum ICalendarText {
    /// The value text for `text`: `\` `;` `,` escaped, line breaks as `\n`
    /// (a CR LF pair or a lone CR is one break), other CONTROL characters as U+FFFD.
    public static func escape(_ text: String) -> String {
        // Most texts need nothing and are kept.
        guard text.utf8.contains(where: needsEscape) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 8)
        appendEscaped(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `escape(text)`'s bytes appended to `out`. On bytes: every character
    /// escaped is ASCII, which no other UTF-8 character's bytes contain.
    static func appendEscaped(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in
            guard bytes.contains(where: needsEscape) else {
                out.append(contentsOf: bytes)
                return
            }
            var previousWasCR = false
            for byte in bytes {
                defer { previousWasCR = byte == carriageReturn }
                switch byte {
                case backslash, semicolon, comma: out.append(backslash); out.append(byte)
                case carriageReturn: out.append(backslash); out.append(UInt8(ascii: "n"))
                case lineFeed: if !previousWasCR { out.append(backslash); out.append(UInt8(ascii: "n")) }
                // No escape exists for the other CONTROL characters, and no value may hold them.
                case _ where ICalendarContentLine.isControl(byte): out.append(contentsOf: ICalendarContentLine.replacement)
                default: out.append(byte)
                }
            }
        }
    }

    @inline(__always)
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte == backslash || byte == semicolon || byte == comma || ICalendarContentLine.isControl(byte)
    }

    private static let backslash = UInt8(ascii: "\\"), semicolon = UInt8(ascii: ";"), comma = UInt8(ascii: ",")
    private static let carriageReturn = UInt8(ascii: "\r"), lineFeed = UInt8(ascii: "\n")

    /// The text a value says. Lenient as readers must be: `\N` is a line
    /// break like `\n`, an unknown escape (`\:`, seen from Outlook) keeps the
    /// character after the backslash, a lone trailing backslash is kept.
    public static func unescape(_ value: some StringProtocol) -> String {
        // On the contiguous bytes: through the UTF8View a value's bytes are read one witness call at a time.
        var text = String(value)
        return text.withUTF8 { unescape(bytes: $0) } ?? text
    }

    /// `unescape` of UTF-8 bytes; nil when they hold no backslash (the text is itself).
    private static func unescape(bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard bytes.contains(UInt8(ascii: "\\")) else { return nil }
        // On UTF-8 bytes: every escape is ASCII, and a byte after a
        // backslash that begins a multi-byte character is kept with the
        // rest of it, as the character would be (a String built a scalar
        // at a time cost a twentieth of an import).
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var escaping = false
        for byte in bytes {
            if escaping {
                escaping = false
                out.append(byte == UInt8(ascii: "n") || byte == UInt8(ascii: "N") ? UInt8(ascii: "\n") : byte)
            } else if byte == UInt8(ascii: "\\") {
                escaping = true
            } else {
                out.append(byte)
            }
        }
        if escaping { out.append(UInt8(ascii: "\\")) }
        return String(decoding: out, as: UTF8.self)
    }

    /// A list value (CATEGORIES, RESOURCES) split on its unescaped commas,
    /// each part unescaped.
    public static func list(_ value: some StringProtocol) -> [String] {
        var parts: [String] = []
        var current = Substring(value).startIndex
        var start = current
        var escaping = false
        let text = Substring(value)
        while current < text.endIndex {
            let character = text[current]
            if escaping {
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else if character == "," {
                parts.append(unescape(text[start..<current]))
                start = text.index(after: current)
            }
            current = text.index(after: current)
        }
        parts.append(unescape(text[start..<text.endIndex]))
        return parts
    }
}
