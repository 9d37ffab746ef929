/// One SQLite value, in one of SQLite's five storage classes.
public enum DatabaseValue: Hashable, Sendable, CustomStringConvertible {
    case null
    case integer(Int64)
    case real(Double)
    /// UTF-8 text; it may contain NUL characters, which survive the round trip.
    case text(String)
    /// Bytes; an empty blob stays an empty blob (it is not stored as NULL).
    case blob([UInt8])

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The value as an SQL literal, for messages and logs: `NULL`, `42`, `1.5`,
    /// `'it''s'`, `X'00FF'`.
    public var description: String {
        switch self {
        case .null:
            return "NULL"
        case .integer(let value):
            return String(value)
        case .real(let value):
            return String(value)
        case .text(let value):
            var quoted = "'"
            for character in value {
                quoted += character == "'" ? "''" : String(character)
            }
            return quoted + "'"
        case .blob(let bytes):
            let digits = Array("0123456789ABCDEF")
            var text = "X'"
            for byte in bytes {
                text.append(digits[Int(byte >> 4)])
                text.append(digits[Int(byte & 0xF)])
            }
            return text + "'"
        }
    }
}
