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
        // Each word by itself, a digit by arithmetic: through a table looked
        // up by word and position for each digit, the 32 took about 870
        // instructions, and an import makes one for each row it writes.
        String(unsafeUninitializedCapacity: count) { buffer in
            Self.writeDigits(of: high, count: min(count, 16), into: buffer, at: 0)
            if count > 16 { Self.writeDigits(of: low, count: count - 16, into: buffer, at: 16) }
            return count
        }
    }

    /// Writes the 32 digits (`rawValue`'s) into `buffer` from `start`: for
    /// a text of many identifiers made without a String for each.
    public func writeDigits(into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int) {
        precondition(start >= 0 && start + 32 <= buffer.count, "ItemIdentifier.writeDigits: no room for 32 digits")
        Self.writeDigits(of: high, count: 16, into: buffer, at: start)
        Self.writeDigits(of: low, count: 16, into: buffer, at: start + 16)
    }

    /// The first `count` of a word's sixteen digits, into `buffer` from `start`.
    @inline(__always)
    private static func writeDigits(of word: UInt64, count: Int, into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int) {
        var rest = word
        for index in start..<start + count {
            let nibble = UInt8(truncatingIfNeeded: rest >> 60)
            buffer[index] = nibble < 10 ? nibble &+ 48 : nibble &+ 87
            rest <<= 4
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
