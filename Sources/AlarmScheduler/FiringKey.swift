import CalendarModel

/// What identifies a firing: its alarm and its occurrence, and for a
/// snoozed firing the time it rings again. The same key never rings twice,
/// whatever the clock does.
///
/// Its text is what the delivery log, the snoozes and the control socket
/// hold, so it is fixed: `<alarm>@<scheduled local seconds>`, `<alarm>@once`,
/// `<alarm>@leave@<second of the fix>` (or `enter@`), and a snoozed one
/// `<that key>~<Unix seconds it rings again>`. One writer (`description`)
/// and one parser (`init?(_:)`), which takes exactly the texts the writer
/// makes.
public struct FiringKey: Hashable, Comparable, Sendable, LosslessStringConvertible {
    public enum Occurrence: Hashable, Sendable {
        /// The occurrence's scheduled (unmoved) wall-clock time, in local seconds.
        case scheduled(Int64)
        /// An absolute alarm: it rings once per item.
        case once
        /// A location alarm: the crossing and the Unix second of the fix that showed it.
        case crossing(Alarm.Proximity, Int64)
    }

    public var alarm: ItemIdentifier
    public var occurrence: Occurrence
    /// A snoozed firing: when it rings again, in Unix seconds.
    public var snoozedUntil: Int64?

    /// The firing this one continues: itself, or the one that was snoozed.
    public var root: FiringKey { FiringKey(alarm: alarm, occurrence: occurrence) }

    /// This firing snoozed until `instant`.
    public func snoozed(until instant: Int64) -> FiringKey {
        FiringKey(alarm: alarm, occurrence: occurrence, snoozedUntil: instant)
    }

    /// When the crossing happened (the fix's second), for a location firing.
    public var crossingInstant: Int64? {
        if case .crossing(_, let second) = occurrence { second } else { nil }
    }

    public var isCrossing: Bool { crossingInstant != nil }
}

// The text form, in an extension so that the memberwise initialiser stays.
extension FiringKey {
    public var description: String {
        var text = alarm.rawValue + "@"
        switch occurrence {
        case .scheduled(let seconds): text += String(seconds)
        case .once: text += "once"
        case .crossing(let proximity, let second): text += proximity.rawValue + "@" + String(second)
        }
        if let snoozedUntil { text += "~" + String(snoozedUntil) }
        return text
    }

    public init?(_ text: String) {
        let snooze = text.split(separator: "~", maxSplits: 1, omittingEmptySubsequences: false)
        var until: Int64?
        if snooze.count == 2 {
            guard let value = Self.integer(snooze[1]) else { return nil }
            until = value
        }
        let parts = snooze[0].split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, let alarm = ItemIdentifier(String(parts[0])) else { return nil }
        let occurrence: Occurrence
        if parts.count == 3 {
            guard let proximity = Alarm.Proximity(rawValue: String(parts[1])), let second = Self.integer(parts[2]) else { return nil }
            occurrence = .crossing(proximity, second)
        } else if parts[1] == "once" {
            occurrence = .once
        } else {
            guard let seconds = Self.integer(parts[1]) else { return nil }
            occurrence = .scheduled(seconds)
        }
        self.init(alarm: alarm, occurrence: occurrence, snoozedUntil: until)
    }

    /// A whole number exactly as `String(Int64)` writes it: no sign but a
    /// leading "-", no leading zeros, so that parsing and writing give back
    /// the same text.
    private static func integer(_ text: Substring) -> Int64? {
        guard let value = Int64(text), String(value) == text else { return nil }
        return value
    }

    /// In the order of their texts, as the log sorts them.
    public static func < (lhs: FiringKey, rhs: FiringKey) -> Bool { lhs.description < rhs.description }
}
