import CalendarModel
import Synchronization

/// Compiled rules kept for reuse between recurrences. Compiling a rule for
/// a start (its masks, sorted lists and defaults) costs as much as
/// expanding a week of it; a store's series mostly share a few rules and
/// times of day (every weekday stand-up at 09:30), so a range query over
/// thousands of series compiles each (rule, time) once through this.
///
/// Rules are told apart by identity, not by value: copies of one parsed
/// rule share their storage, hashing a rule's parts would cost as much as
/// compiling it, and a kept entry holds its rule so that no other rule can
/// take its identity. Safe to share between threads. It holds at most
/// `capacity` plans and starts afresh when full.
public final class RecurrencePlanCache: Sendable {
    private struct Key: Hashable {
        var rule: ObjectIdentifier
        /// The defaults packed into one word: hashing seven optionals cost
        /// as much as the rest of a lookup.
        var defaults: UInt64

        init(rule: RecurrenceRule, defaults: ExpansionPlan.StartDefaults) {
            self.rule = rule.identity
            func field(_ value: Int?) -> UInt64 { value.map { UInt64($0) + 1 } ?? 0 }
            self.defaults = field(defaults.month) | field(defaults.day) << 8 | field(defaults.weekday) << 16
                | UInt64(defaults.hour * 3600 + defaults.minute * 60 + defaults.second) << 24
                | (defaults.monthIsLeap ? 1 << 48 : 0)
        }
    }

    private struct Entry {
        var rule: RecurrenceRule
        var plan: ExpansionPlan
    }

    private let entries = Mutex<[Key: Entry]>([:])
    public let capacity: Int

    public init(capacity: Int = 4096) {
        self.capacity = max(1, capacity)
    }

    /// How many plans are kept.
    public var count: Int { entries.withLock { $0.count } }

    func plan(for rule: RecurrenceRule, start: LocalDateTime) -> ExpansionPlan {
        let defaults = ExpansionPlan.StartDefaults(rule: rule, start: start)
        let key = Key(rule: rule, defaults: defaults)
        if let kept = entries.withLock({ $0[key] }) { return kept.plan }
        let plan = ExpansionPlan(rule: rule, defaults: defaults)
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = Entry(rule: rule, plan: plan)
        }
        return plan
    }
}
