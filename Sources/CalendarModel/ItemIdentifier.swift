/// A stable identifier of a calendar, event, reminder or alarm: 32 lowercase
/// hexadecimal digits (a random UUID without its dashes), so that people can
/// abbreviate it to a unique prefix as they do commit hashes.
///
/// Held as its 128 bits, not as the text: the daemon's plan keys a hundred
/// thousand items by identifier, and two words hash, compare and copy with
/// no allocation and no reference count. The text is made only at the edges
/// that show or store it (SQL, JSON, listings).
public struct ItemIdentifier: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The first sixteen digits' value; `low` the last sixteen. Compared in
    /// that order, the words sort as the text does (the digits are of one
    /// case and the text of one length), so any order by identifier is
    /// the same as before.
    public let high: UInt64
    public let low: UInt64

    /// Nil unless `text` is 32 lowercase hexadecimal digits.
    public init?(_ text: String) {
        var text = text
        guard let identifier = text.withUTF8(Self.init(utf8:)) else { return nil }
        self = identifier
    }

    /// Nil unless `bytes` are 32 lowercase hexadecimal digits. On the bytes
    /// themselves: every item a query reads is checked, and its column need
    /// not become a `String` first.
    public init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count == 32 else { return nil }
        var words: (UInt64, UInt64) = (0, 0)
        for index in 0..<32 {
            let digit = bytes[index]
            let value: UInt8
            switch digit {
            case 48...57: value = digit &- 48
            case 97...102: value = digit &- 87
            default: return nil
            }
            if index < 16 { words.0 = words.0 << 4 | UInt64(value) } else { words.1 = words.1 << 4 | UInt64(value) }
        }
        self.init(high: words.0, low: words.1)
    }

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// 128 bits from the system's generator.
    public static func random() -> ItemIdentifier {
        var generator = SystemRandomNumberGenerator()
        return ItemIdentifier(high: generator.next(), low: generator.next())
    }

    /// The 32 digits, as stored and shown.
    public var rawValue: String { digits(32) }

    public var description: String { rawValue }

    /// The first eight digits, enough to tell items apart in a listing.
    public var short: String { digits(8) }

    /// The first `count` digits (at most 32).
    private func digits(_ count: Int) -> String {
        String(unsafeUninitializedCapacity: count) { buffer in
            let hex: StaticString = "0123456789abcdef"
            for index in 0..<count {
                let word = index < 16 ? high : low
                let nibble = Int(word >> UInt64(60 - 4 * (index % 16)) & 0xF)
                buffer[index] = hex.utf8Start[nibble]
            }
            return count
        }
    }

    public static func < (lhs: ItemIdentifier, rhs: ItemIdentifier) -> Bool { (lhs.high, lhs.low) < (rhs.high, rhs.low) }
}
