import CalendarModel

extension ICalendarItems {
    /// FNV-1a over 128 bits: deterministic across runs and machines (Swift's
    /// `Hasher` is seeded per process), which is all identity needs here;
    /// the inputs are not adversarial secrets, and a collision would take
    /// two UIDs in one calendar hashing alike.
    struct StableHash {
        private static let prime: UInt128 = (1 << 88) | 0x13B
        private var state: UInt128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d

        mutating func combine(_ text: String) {
            for byte in text.utf8 {
                state ^= UInt128(byte)
                state = state &* Self.prime
            }
            // A separator no UTF-8 text holds keeps ("ab","c") apart from ("a","bc").
            state ^= 0xFF
            state = state &* Self.prime
        }

        var identifier: ItemIdentifier {
            ItemIdentifier(high: UInt64(truncatingIfNeeded: state >> 64), low: UInt64(truncatingIfNeeded: state))
        }
    }

    /// The identifier of the item with `uid` in `calendar`; `occurrence`
    /// names a detached occurrence or a later part (`"future"`) by its
    /// original start.
    static func identifier(calendar: ItemIdentifier, uid: String, kind: String, occurrence: LocalDateTime? = nil) -> ItemIdentifier {
        var hash = StableHash()
        hash.combine("chime-icalendar-item")
        hash.combine(calendar.rawValue)
        hash.combine(kind)
        hash.combine(uid)
        if let occurrence { hash.combine(occurrence.basicFormat) }
        return hash.identifier
    }

    /// The identifier of an item's alarm at `index` among its VALARMs, and
    /// `repetition` among the firings its REPEAT adds (0 for the first).
    static func alarmIdentifier(item: ItemIdentifier, index: Int, repetition: Int) -> ItemIdentifier {
        var hash = StableHash()
        hash.combine("chime-icalendar-alarm")
        hash.combine(item.rawValue)
        hash.combine(String(index))
        hash.combine(String(repetition))
        return hash.identifier
    }

    /// The UID given to a component that has none: from its content, less
    /// DTSTAMP (which a file's producer may rewrite on every export).
    static func derivedUID(of component: ICalendarComponent) -> String {
        var hash = StableHash()
        hash.combine(component.name)
        for property in component.properties where property.name != "DTSTAMP" {
            hash.combine(property.contentLine)
        }
        for child in component.components { hash.combine(child.unfoldedText) }
        return "chime-" + hash.identifier.rawValue + "@derived"
    }
}
