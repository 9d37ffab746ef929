import CalendarModel

/// Walks a recurrence's occurrences in instant order, one period at a time.
///
/// Periods are expanded in wall-clock order, but a wall-clock time moved
/// forward out of a gap can land after times of the following period. So
/// candidates wait in `pending`, sorted by instant, until the *frontier* (the
/// lowest instant any period not yet expanded can produce) has passed them.
/// Equal instants are kept once: RFC 5545's recurrence set is a set.
final class OccurrenceCursor {
    private let recurrence: CompiledRecurrence
    private var expander: PeriodExpander
    private var unit: Int
    private var pending: [Item] = []
    private var head = 0
    private var frontier = Int64.min
    private var exhausted: Bool
    private var lastProductiveUnit: Int
    private var lastRuleInstant = Int64.min
    private var startPending: Bool

    /// Rule occurrences after this instant are cut: UNTIL, or where COUNT ends.
    private let lastAllowed: Int64
    private let countLimit: Int?
    private var ruleCount = 0
    private var lookahead: Item?
    private var extraIndex = 0
    /// Only occurrences strictly after this instant are returned.
    private let after: Int64
    private var lastReturned = Int64.min

    // The clean window of the zone last used: wall times in it read as `local - windowOffset`.
    private var windowLow = Int64.max
    private var windowHigh = Int64.min
    private var windowOffset: Int32 = 0

    struct Item {
        var instant: Int64
        var offset: Int32
        var scheduled: Int64
    }

    /// A cursor from DTSTART (`after == nil`), or one that seeks straight to
    /// the period holding `after`. Seeking a COUNT rule needs `countEnd`, the
    /// instant of its last occurrence, in place of the count.
    init(_ recurrence: CompiledRecurrence, after: Int64?, countEnd: Int64?) {
        self.recurrence = recurrence
        let plan = recurrence.plan
        expander = PeriodExpander(plan: plan)
        self.after = after ?? Int64.min
        var limit = recurrence.untilInstant
        if let countEnd { limit = min(limit, countEnd) }
        lastAllowed = limit
        countLimit = countEnd == nil ? recurrence.rule?.count : nil
        exhausted = recurrence.rule == nil || plan.isEmpty
        unit = plan.base
        startPending = true
        if let after, after >= ExpansionPlan.endOfTime + 86_400 * 2 {
            // Nothing is scheduled past year 9999.
            exhausted = true
            startPending = false
        } else if let after, after >= recurrence.startInstant, !exhausted {
            // Seek. A wall time earlier than `after + lowest nearby offset`
            // reads as an instant at or before `after`, so periods wholly
            // before it can be skipped.
            startPending = false
            lastRuleInstant = recurrence.startInstant
            let zone = recurrence.timeZone
            let earliestWall = after + Int64(zone.lowestOffset(near: after))
            var target = plan.unit(containing: earliestWall)
            // A week-numbered year can begin in the previous December.
            if plan.frequency == .yearly && !plan.weekNumbers.isEmpty { target -= 1 }
            unit = plan.alignedUnit(atOrBefore: target)
        }
        lastProductiveUnit = unit
    }

    /// The next occurrence, or nil when there are no more.
    func next() -> Occurrence? {
        let extras = recurrence.extraItems
        while true {
            if lookahead == nil { lookahead = nextRuleItem() }
            let extra = extraIndex < extras.count ? extras[extraIndex] : nil
            let item: Item
            switch (lookahead, extra) {
            case (nil, nil):
                return nil
            case (let rule?, let extra?) where extra.instant <= rule.instant:
                extraIndex += 1
                if extra.instant == rule.instant { lookahead = nil }
                item = extra
            case (let rule?, _):
                lookahead = nil
                item = rule
            case (nil, let extra?):
                extraIndex += 1
                item = extra
            }
            guard item.instant > after, item.instant > lastReturned, !recurrence.isExcluded(item.instant) else { continue }
            lastReturned = item.instant
            return Occurrence(instant: item.instant, utcOffset: item.offset,
                              scheduledTime: LocalDateTime(localSeconds: item.scheduled), isAllDay: recurrence.isAllDay)
        }
    }

    /// The instant of the next rule occurrence, for walking out COUNT.
    func nextRuleInstant() -> Int64? { nextRuleItem()?.instant }

    /// The next occurrence of the rule itself (DTSTART first), within UNTIL
    /// and COUNT. Excluded dates still count: EXDATE never extends COUNT.
    private func nextRuleItem() -> Item? {
        if let countLimit, ruleCount >= countLimit { return nil }
        if startPending {
            // The start is the item itself: it occurs even when UNTIL lies before it.
            startPending = false
            let start = recurrence.startResolution
            lastRuleInstant = start.instant
            ruleCount += 1
            return Item(instant: start.instant, offset: start.offset, scheduled: recurrence.startLocal)
        }
        guard let item = nextGeneratedItem() else { return nil }
        guard item.instant <= lastAllowed else {
            exhausted = true
            pending.removeAll()
            head = 0
            return nil
        }
        ruleCount += 1
        return item
    }

    private func nextGeneratedItem() -> Item? {
        while true {
            if head < pending.count && (pending[head].instant < frontier || exhausted) {
                let item = pending[head]
                head += 1
                lastRuleInstant = item.instant
                return item
            }
            if exhausted { return nil }
            expandNextPeriod()
        }
    }

    private func expandNextPeriod() {
        let plan = expander.plan
        if unit > plan.lastUnit || unit - lastProductiveUnit > plan.emptyUnitBound {
            exhausted = true
            return
        }
        let following = expander.expand(unit)
        if head == pending.count {
            pending.removeAll(keepingCapacity: true)
            head = 0
        }
        let startLocal = recurrence.startLocal
        for local in expander.candidates where local > startLocal {
            insert(resolve(local))
        }
        if !expander.candidates.isEmpty { lastProductiveUnit = following }
        unit = following
        if unit > plan.lastUnit {
            frontier = Int64.max
        } else {
            frontier = earliestInstant(fromWall: plan.periodStart(unit))
        }
        if frontier > lastAllowed { exhausted = true }
    }

    private func insert(_ item: Item) {
        guard item.instant > lastRuleInstant else { return }
        if head == pending.count || pending[pending.count - 1].instant < item.instant {
            pending.append(item)
            return
        }
        var index = pending.count
        while index > head && pending[index - 1].instant > item.instant { index -= 1 }
        if index > head && pending[index - 1].instant == item.instant { return }
        pending.insert(item, at: index)
    }

    @inline(__always)
    private func resolve(_ local: Int64) -> Item {
        if local >= windowLow && local < windowHigh {
            return Item(instant: local - Int64(windowOffset), offset: windowOffset, scheduled: local)
        }
        let resolution = recurrence.timeZone.resolve(local: local)
        if !resolution.cleanWindow.isEmpty {
            windowLow = resolution.cleanWindow.lowerBound
            windowHigh = resolution.cleanWindow.upperBound
            windowOffset = resolution.offset
        }
        return Item(instant: resolution.instant, offset: resolution.offset, scheduled: local)
    }

    private func earliestInstant(fromWall local: Int64) -> Int64 {
        if local >= windowLow && local < windowHigh { return local - Int64(windowOffset) }
        return recurrence.timeZone.resolve(local: local).earliestFromHere
    }
}
