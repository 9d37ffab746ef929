import Foundation

/// A stable identifier of a calendar, event, reminder or alarm: 32 lowercase
/// hexadecimal digits (a random UUID without its dashes), so that people can
/// abbreviate it to a unique prefix as they do commit hashes.
public struct ItemIdentifier: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: String

    /// Nil unless `rawValue` is 32 lowercase hexadecimal digits.
    public init?(_ rawValue: String) {
        guard rawValue.utf8.count == 32, rawValue.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            return nil
        }
        self.rawValue = rawValue
    }

    public static func random() -> ItemIdentifier {
        ItemIdentifier(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""))!
    }

    public var description: String { rawValue }

    /// The first eight digits, enough to tell items apart in a listing.
    public var short: String { String(rawValue.prefix(8)) }

    public static func < (lhs: ItemIdentifier, rhs: ItemIdentifier) -> Bool { lhs.rawValue < rhs.rawValue }
}
