import CalendarModel
import CalendarStore

/// The daemon's plan between wakes: for every item with alarms, the instant
/// its next firing is due, in a heap ordered by instant.
///
/// Only the instant is kept, not the firing: an item is read again from the
/// store when it comes due, so a hundred thousand alarms cost a few
/// megabytes, and a change to one item re-plans that item alone. Replaced
/// and removed entries stay in the heap until they reach its top, where
/// they are recognised as stale and dropped.
struct StandingPlan {
    private struct Entry: Comparable {
        var instant: Int64
        var item: ItemIdentifier
        static func < (lhs: Entry, rhs: Entry) -> Bool { (lhs.instant, lhs.item) < (rhs.instant, rhs.item) }
    }

    private var heap = MinHeap<Entry>()
    /// Every item's next instant (for tests and for `status` too).
    private(set) var entries: [ItemIdentifier: Int64] = [:]
    /// The store's change counter when the plan last caught up with it.
    private(set) var plannedAtCounter: Int64?
    /// Where the plan stands in the store's item change log.
    private var changeMark: Int64 = 0
    /// The holiday data and ordinary weeks the plan was made with.
    private var workdayToken: String?

    /// The items planned.
    var count: Int { entries.count }

    /// Plans every item of `store` from scratch: each item's first firing after `instant`.
    static func make(from store: CalendarStore, after instant: Int64) throws(StoreError) -> StandingPlan {
        var plan = StandingPlan()
        // Read before the items: a change made during the scan is planned again, not lost.
        plan.plannedAtCounter = try store.changeCounter()
        plan.changeMark = try store.itemChangeMark()
        plan.workdayToken = try store.workdayDataToken()
        let planner = FiringPlanner(store: store)
        try store.forEachAlarmedItem(after: instant, details: false) { item throws(StoreError) in
            plan.set(item.identifier, next: try planner.firstInstant(of: item, after: instant))
        }
        return plan
    }

    /// What an update found changed.
    struct Changes {
        /// The items changed, added or removed; nil when the plan was made
        /// again from scratch (anything may have changed).
        var items: Set<ItemIdentifier>?
        /// Whether an item with alarms on a workday rule is among them (or may be).
        var workdayRules: Bool

        static let none = Changes(items: [], workdayRules: false)
        static let everything = Changes(items: nil, workdayRules: true)

        /// What either found.
        func merged(with other: Changes) -> Changes {
            let items = self.items.flatMap { mine in other.items.map { mine.union($0) } }
            return Changes(items: items, workdayRules: workdayRules || other.workdayRules)
        }
    }

    /// Brings the plan up to date with `store`: the items its change log
    /// names since the plan was made are planned again from `instant`.
    /// Everything is, when the log cannot say (it was pruned past the plan)
    /// or the holiday data or ordinary weeks changed.
    @discardableResult
    mutating func update(from store: CalendarStore, after instant: Int64) throws(StoreError) -> Changes {
        let counter = try store.changeCounter()
        guard counter != plannedAtCounter else { return .none }
        guard try store.workdayDataToken() == workdayToken else {
            self = try Self.make(from: store, after: instant)
            return .everything
        }
        let changes = try store.itemChanges(after: changeMark)
        guard let changed = changes.items else {
            self = try Self.make(from: store, after: instant)
            return .everything
        }
        plannedAtCounter = counter
        changeMark = changes.mark
        for identifier in changed { remove(identifier) }
        let planner = FiringPlanner(store: store)
        var workdayRules = false
        for item in try store.alarmedItems(changed) {
            set(item.identifier, next: try planner.firstInstant(of: item, after: instant))
            workdayRules = workdayRules || item.hasWorkdayRule
        }
        return Changes(items: changed, workdayRules: workdayRules)
    }

    /// Plans `item` for `instant`, replacing what it had; nil: nothing to come.
    mutating func set(_ item: ItemIdentifier, next instant: Int64?) {
        guard let instant else {
            entries[item] = nil
            return
        }
        guard entries[item] != instant else { return }
        entries[item] = instant
        heap.push(Entry(instant: instant, item: item))
        // Stale entries pile up when the same items change again and again:
        // rebuild the heap from the live ones before it doubles.
        if heap.count > 2 * entries.count + 1024 { compact() }
    }

    mutating func remove(_ item: ItemIdentifier) {
        entries[item] = nil
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
            guard entries[top.item] == top.instant else { continue }
            entries[top.item] = nil
            due.append(top.item)
        }
        return due
    }

    private mutating func dropStale() {
        while let top = heap.first, entries[top.item] != top.instant { _ = heap.pop() }
    }

    private mutating func compact() {
        heap.removeAll()
        for (item, instant) in entries { heap.push(Entry(instant: instant, item: item)) }
    }
}

extension CalendarStore.AlarmedItem {
    var hasWorkdayRule: Bool {
        switch self {
        case .event(let event, _): event.recurrenceRule?.workdayRule != nil
        case .reminder(let reminder): reminder.recurrenceRule?.workdayRule != nil
        }
    }
}
