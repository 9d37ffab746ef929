/// Text from items (titles, notes, locations, calendar names) and from the
/// command line made safe for a line on a terminal or in a log: a control
/// character written as it is would end the line early (a forged log line
/// after a newline), move the cursor back over it (a carriage return) or
/// drive the terminal (an escape sequence). Like systemd's tools, every such
/// character is written as a visible escape instead: `\n`, `\r`, `\t`,
/// `\xHH` for the other C0 controls and DEL, `\uHHHH` for the C1 controls,
/// the line and paragraph separators (U+2028, U+2029) and the bidirectional
/// embeddings, overrides and isolates, which reorder what a reader sees.
/// Backslashes are left alone, so a Windows path still reads as one; the
/// escape is for showing, not for parsing back. JSON output is not escaped
/// this way: it carries the exact text, with JSON's own escapes.
public enum TerminalText {
    /// `text` with its control characters escaped; the text itself when it has none.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                result.append(scalar)
                continue
            }
            let escape = switch scalar.value {
            case 0x0A: "\\n"
            case 0x0D: "\\r"
            case 0x09: "\\t"
            case 0x00...0x7F: "\\x" + hex(scalar.value, digits: 2)
            default: "\\u" + hex(scalar.value, digits: 4)
            }
            result.append(contentsOf: escape.unicodeScalars)
        }
        return String(result)
    }

    /// A JSON document with the characters JSON writers leave raw (DEL, C1,
    /// the separators, the bidirectional controls) as JSON's own `\uHHHH`:
    /// the same text to a JSON reader, inert on a terminal. The C0 controls
    /// inside strings are escaped by the JSON writer already, and the line
    /// breaks between a pretty-printed document's lines stay.
    public static func escapedJSON(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: { $0.value >= 0x7F && needsEscape($0) }) else { return json }
        var result = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            if scalar.value >= 0x7F && needsEscape(scalar) {
                result.append(contentsOf: ("\\u" + hex(scalar.value, digits: 4)).unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// C0 and DEL, C1, U+2028 and U+2029, and the bidirectional controls
    /// (ALM, LRM, RLM, the embeddings and overrides U+202A–U+202E, the
    /// isolates U+2066–U+2069).
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
