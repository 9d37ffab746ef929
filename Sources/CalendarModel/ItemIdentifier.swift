/// A stable identifier of a calendar, event, reminder or alarm: 32 lowercase
/// hexadecimal digits (a random UUID without its dashes), so that people can
/// abbreviate it to a unique prefix as they do commit hashes.
public struct ItemIdentifier: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: String

    /// Nil unless `rawValue` is 32 lowercase hexadecimal digits.
    public init?(_ rawValue: String) {
        var text = rawValue
        // On the contiguous bytes: every item a query reads is checked, and
        // walking the UTF-8 view one element at a time cost five times more.
        let valid = text.withUTF8 { bytes in
            bytes.count == 32 && !bytes.contains { !((48...57).contains($0) || (97...102).contains($0)) }
        }
        guard valid else { return nil }
        self.rawValue = text
    }

    /// 128 bits from the system's generator, in hexadecimal.
    public static func random() -> ItemIdentifier {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(32)
        for _ in 0..<2 {
            var bits = generator.next()
            for _ in 0..<16 {
                text.append(digits[Int(bits & 0xF)])
                bits >>= 4
            }
        }
        return ItemIdentifier(unchecked: String(decoding: text, as: UTF8.self))
    }

    private init(unchecked rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    /// The first eight digits, enough to tell items apart in a listing.
    public var short: String { String(rawValue.prefix(8)) }

    public static func < (lhs: ItemIdentifier, rhs: ItemIdentifier) -> Bool { lhs.rawValue < rhs.rawValue }
}
