import CalendarModel

/// The daemon's plan between wakes: for every item with alarms, the instant
/// its next firing is due, in a heap ordered by instant.
///
/// Only the instant is kept, not the firing: an item is read again from the
/// store when it comes due, so a hundred thousand alarms cost a few
/// megabytes, and a change to one item re-plans that item alone. Replaced
/// and removed entries stay in the heap until they reach its top, where
/// they are recognised as stale and dropped.
struct StandingPlan {
    /// An item's identifier as 128 bits: a quarter of the string's size.
    struct Key: Hashable, Comparable {
        let high: UInt64
        let low: UInt64

        init(_ identifier: ItemIdentifier) {
            var halves: [UInt64] = [0, 0]
            for (index, digit) in identifier.rawValue.utf8.enumerated() {
                let value = UInt64(digit <= 57 ? digit - 48 : digit - 87)
                halves[index / 16] = halves[index / 16] << 4 | value
            }
            high = halves[0]
            low = halves[1]
        }

        var identifier: ItemIdentifier {
            let digits = Array("0123456789abcdef".utf8)
            var text: [UInt8] = []
            text.reserveCapacity(32)
            for half in [high, low] {
                for shift in stride(from: 60, through: 0, by: -4) { text.append(digits[Int(half >> UInt64(shift) & 0xF)]) }
            }
            // 32 hexadecimal digits by construction.
            return ItemIdentifier(String(decoding: text, as: UTF8.self))!
        }

        static func < (lhs: Key, rhs: Key) -> Bool { (lhs.high, lhs.low) < (rhs.high, rhs.low) }
    }

    private struct Entry: Comparable {
        var instant: Int64
        var key: Key
        static func < (lhs: Entry, rhs: Entry) -> Bool { (lhs.instant, lhs.key) < (rhs.instant, rhs.key) }
    }

    private var heap = MinHeap<Entry>()
    private var current: [Key: Int64] = [:]

    /// The items planned.
    var count: Int { current.count }

    /// Plans `item` for `instant`, replacing what it had; nil: nothing to come.
    mutating func set(_ item: ItemIdentifier, next instant: Int64?) {
        let key = Key(item)
        guard let instant else {
            current[key] = nil
            return
        }
        guard current[key] != instant else { return }
        current[key] = instant
        heap.push(Entry(instant: instant, key: key))
        // Stale entries pile up when the same items change again and again:
        // rebuild the heap from the live ones before it doubles.
        if heap.count > 2 * current.count + 1024 { compact() }
    }

    mutating func remove(_ item: ItemIdentifier) {
        current[Key(item)] = nil
    }

    /// The earliest planned instant.
    mutating func earliest() -> Int64? {
        dropStale()
        return heap.first?.instant
    }

    /// Takes out the items due by `instant`; the caller plans them again.
    mutating func takeDue(through instant: Int64) -> [ItemIdentifier] {
        var due: [ItemIdentifier] = []
        while let top = heap.first, top.instant <= instant {
            _ = heap.pop()
            guard current[top.key] == top.instant else { continue }
            current[top.key] = nil
            due.append(top.key.identifier)
        }
        return due
    }

    private mutating func dropStale() {
        while let top = heap.first, current[top.key] != top.instant { _ = heap.pop() }
    }

    private mutating func compact() {
        heap.removeAll()
        for (key, instant) in current { heap.push(Entry(instant: instant, key: key)) }
    }
}
