import CalendarModel

/// Walks a recurrence's occurrences in instant order, one period at a time.
///
/// Periods are expanded in wall-clock order, but a wall-clock time moved
/// forward out of a gap can land after times of the following period, and a
/// workday rule moves occurrences to other days. So candidates wait in
/// `pending`, sorted by instant, until the *frontier* (the lowest instant any
/// period not yet expanded can produce) has passed them. Equal instants are
/// kept once: RFC 5545's recurrence set is a set.
struct OccurrenceCursor {
    private let recurrence: CompiledRecurrence
    private var expander: PeriodExpander
    private var unit: Int
    private var pending: [Item] = []
    private var head = 0
    private var frontier = Int64.min
    private var exhausted: Bool
    /// The period after the last one that produced (for a workday rule:
    /// an occurrence that survived it), or where the walk began.
    private var lastProductiveUnit: Int
    private var lastRuleInstant = Int64.min
    private var startPending: Bool

    /// Rule occurrences scheduled after this instant are cut (UNTIL).
    private let untilLimit: Int64
    /// Rule occurrences after this instant are cut (where COUNT ends, for a seek).
    private let countEndLimit: Int64
    private let countLimit: Int?
    private var ruleCount = 0
    private var lookahead: Item?
    private var extraIndex = 0
    /// Only occurrences strictly after this instant are returned.
    private let after: Int64
    private var lastReturned = Int64.min

    private let workdayRule: WorkdayRule?
    /// Present for a workday rule only: the days worked whole, which bound
    /// how far an occurrence moves (with no half days, simply the workdays).
    private var workdays: WorkdayScanner?
    /// Present for a workday rule on a schedule with half days only
    /// (`judgesHalves`): an occurrence is judged by the half of the day its
    /// wall time is in.
    private var mornings: WorkdayScanner?
    private var afternoons: WorkdayScanner?
    /// Asked for every day instead of `mornings == nil`, which costs a call
    /// to the scanner's value witness (it holds an existential).
    private let judgesHalves: Bool
    /// With `judgesHalves`: the first second of the afternoon, as the schedule divides days.
    private let afternoonStart: Int

    // The clean window of the zone last used: wall times in it read as `local - windowOffset`.
    private var windowLow = Int64.max
    private var windowHigh = Int64.min
    private var windowOffset: Int32 = 0

    struct Item {
        var instant: Int64
        /// The wall-clock time the rule asked for, before any gap or workday move.
        var scheduled: Int64
        var offset: Int32
        /// Days a workday rule moved it by.
        var shift: Int32 = 0
        /// Whether an EXDATE names its scheduled time (or that of another
        /// occurrence that landed on the same instant).
        var excluded = false
    }

    /// A cursor from DTSTART (`after == nil`), or one that seeks straight to
    /// the period holding `after`. Seeking a COUNT rule needs `countEnd`, the
    /// instant of its last occurrence, in place of the count.
    /// `countLimit` replaces the COUNT a cursor from the start honours (the
    /// rule's, capped at the expansion bound).
    init(_ recurrence: CompiledRecurrence, after: Int64?, countEnd: Int64?, countLimit: Int? = nil) {
        self.recurrence = recurrence
        let plan = recurrence.plan
        expander = PeriodExpander(plan: plan, base: recurrence.base)
        self.after = after ?? Int64.min
        untilLimit = recurrence.untilInstant
        countEndLimit = countEnd ?? Int64.max
        self.countLimit = countEnd == nil ? countLimit ?? recurrence.boundedCount : nil
        workdayRule = recurrence.workdayRule
        // An all-day occurrence is judged by its day, worked at all. (No
        // local copy of the schedule: each is an existential to copy and
        // destroy, a tenth of a next-workday query's instructions.)
        judgesHalves = recurrence.workdayRule != nil && recurrence.schedule.hasHalfDays && !recurrence.isAllDay
        afternoonStart = judgesHalves ? DayHalf.afternoonStart(morningEnd: recurrence.schedule.morningEnd) : 0
        if judgesHalves {
            workdays = WorkdayScanner(schedule: recurrence.schedule, view: .wholeDay)
            mornings = WorkdayScanner(schedule: recurrence.schedule, view: .half(.morning))
            afternoons = WorkdayScanner(schedule: recurrence.schedule, view: .half(.afternoon))
        } else if recurrence.workdayRule != nil {
            workdays = WorkdayScanner(schedule: recurrence.schedule)
        }
        exhausted = recurrence.rule == nil || plan.isEmpty
        unit = recurrence.base
        lastProductiveUnit = recurrence.base
        startPending = true
        if let after, after >= ExpansionPlan.endOfTime + 86_400 * 2 {
            // Nothing is scheduled past year 9999.
            exhausted = true
            startPending = false
        } else if let after, after >= recurrence.startInstant, !exhausted, let wall = seekWall(after) {
            // Seek to the period holding `wall`; the periods before it cannot
            // produce anything after `after`.
            startPending = false
            lastRuleInstant = recurrence.startInstant
            var target = plan.unit(containing: wall)
            // A week-numbered year can begin in the previous December.
            if plan.frequency == .yearly && !plan.weekNumbers.isEmpty { target -= 1 }
            unit = plan.alignedUnit(atOrBefore: target, base: recurrence.base)
        }
        lastProductiveUnit = unit
        if startPending && workdayRule != nil {
            // A workday rule judges the start like any other occurrence, and
            // a moved start can land among (or on) later ones.
            startPending = false
            let start = recurrence.startResolution
            let item = Item(instant: start.instant, scheduled: recurrence.startLocal, offset: start.offset,
                            excluded: recurrence.isExcluded(start.instant))
            if let adjusted = adjusted(item) { pending.append(adjusted) }
        }
    }

    /// The earliest wall-clock time whose period can hold an occurrence after
    /// `after`, or nil when the walk must begin at DTSTART.
    private mutating func seekWall(_ after: Int64) -> Int64? {
        // A wall time earlier than `after + lowest nearby offset` reads as an
        // instant at or before `after`.
        let earliestWall = after + Int64(recurrence.timeZone.lowestOffset(near: after))
        guard case .forward = workdayRule else { return earliestWall }
        // FORWARD moves an occurrence across the days off that follow it, so
        // the walk begins after the last workday before `after`'s day: every
        // occurrence scheduled on or before that workday lands on or before
        // it. (Two days back leave room for a gap the moved time falls in.)
        // With half days, a day worked whole: one worked in a single half
        // can be crossed by an occurrence in the other.
        let day = Int(ExpansionPlan.floorDivide64(earliestWall, 86_400)) - 2
        let reach = WorkdayRule.longestReach
        let firstDay = workdays!.previous(onOrBefore: day, reach: reach).map { $0 + 1 } ?? day - reach
        let wall = Int64(firstDay) * 86_400
        return wall > recurrence.startLocal ? wall : nil
    }

    /// The next occurrence, or nil when there are no more.
    mutating func next() -> Occurrence? {
        let extras = recurrence.extraItems
        while true {
            if lookahead == nil { lookahead = nextRuleItem() }
            let extra = extraIndex < extras.count ? extras[extraIndex] : nil
            var item: Item
            switch (lookahead, extra) {
            case (nil, nil):
                return nil
            case (let rule?, let extra?) where extra.instant <= rule.instant:
                extraIndex += 1
                item = extra
                if extra.instant == rule.instant {
                    // One occurrence: an RDATE is never moved, so it names it.
                    lookahead = nil
                    item.excluded = item.excluded || rule.excluded
                }
            case (let rule?, _):
                lookahead = nil
                item = rule
            case (nil, let extra?):
                extraIndex += 1
                item = extra
            }
            guard item.instant > after, item.instant > lastReturned, !item.excluded else { continue }
            lastReturned = item.instant
            return Occurrence(instant: item.instant, utcOffset: item.offset, scheduledTime: LocalDateTime(localSeconds: item.scheduled),
                              isAllDay: recurrence.isAllDay, daysMoved: Int(item.shift))
        }
    }

    /// The instant of the next rule occurrence, for walking out COUNT.
    mutating func nextRuleInstant() -> Int64? { nextRuleItem()?.instant }

    /// The next occurrence of the rule itself (DTSTART first), within UNTIL
    /// and COUNT. Excluded dates still count: EXDATE never extends COUNT.
    private mutating func nextRuleItem() -> Item? {
        if let countLimit, ruleCount >= countLimit { return nil }
        if startPending {
            // The start is the item itself: it occurs even when UNTIL lies before it.
            startPending = false
            let start = recurrence.startResolution
            lastRuleInstant = start.instant
            ruleCount += 1
            return Item(instant: start.instant, scheduled: recurrence.startLocal, offset: start.offset,
                        excluded: recurrence.isExcluded(start.instant))
        }
        guard let item = nextGeneratedItem() else { return nil }
        guard item.instant <= countEndLimit else {
            exhausted = true
            pending.removeAll()
            head = 0
            return nil
        }
        ruleCount += 1
        return item
    }

    private mutating func nextGeneratedItem() -> Item? {
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

    private mutating func expandNextPeriod() {
        let plan = expander.plan
        if unit > plan.lastUnit || unit - lastProductiveUnit > plan.emptyUnitBound {
            exhausted = true
            return
        }
        if let workdayRule, plan.frequency <= .daily {
            // A day the workday rule keeps nothing of is passed in one step,
            // unexpanded (a sub-daily rule's periods on it too).
            let day = Int(ExpansionPlan.floorDivide64(plan.periodStart(unit), 86_400))
            if keepsNothing(onDay: day, for: workdayRule) {
                let nextDay = plan.frequency == .daily ? unit + 1 : plan.unit(containing: Int64(day + 1) * 86_400)
                moveTo(plan.alignedUnit(atOrAfter: nextDay, base: recurrence.base))
                return
            }
        }
        let following = expander.expand(unit)
        if head == pending.count {
            pending.removeAll(keepingCapacity: true)
            head = 0
        }
        let startLocal = recurrence.startLocal
        if workdayRule == nil {
            for local in expander.candidates where local > startLocal {
                let item = resolve(local)
                // (A time moved out of a gap can read later than the next one: no break.)
                guard item.instant <= untilLimit else { continue }
                insert(item)
            }
            if !expander.candidates.isEmpty { lastProductiveUnit = following }
        } else {
            var survived = false
            for local in expander.candidates where local > startLocal {
                let scheduled = resolve(local)
                // UNTIL bounds the time an occurrence was scheduled at, not where it moved.
                guard scheduled.instant <= untilLimit else { continue }
                if let item = adjusted(scheduled) {
                    insert(item)
                    survived = true
                }
            }
            // The rule's pattern repeats within the bound, and so does any
            // workday calendar that is the ordinary week outside a span of
            // years: nothing surviving for that long means nothing ever will.
            if survived { lastProductiveUnit = following }
        }
        moveTo(following)
    }

    /// Makes `next` the next period to expand, and works out the frontier.
    private mutating func moveTo(_ next: Int) {
        let plan = expander.plan
        unit = next
        if unit > plan.lastUnit {
            frontier = Int64.max
            return
        }
        let wall = plan.periodStart(unit)
        let scheduledFrontier = earliestInstant(fromWall: wall)
        frontier = scheduledFrontier
        if case .backward = workdayRule {
            // An occurrence on a day off lands on the last workday before
            // it, at any time of day. So the periods from here on land no
            // earlier than that day for this day, if it is off, or else for
            // the next day (which is this day itself when the next is off).
            // With half days, the days worked whole bound the landing from
            // below, whichever half an occurrence is in.
            let day = Int(ExpansionPlan.floorDivide64(wall, 86_400))
            let from = workdays!.isWorkday(day) ? day + 1 : day
            if let landing = workdays!.previous(onOrBefore: from, reach: WorkdayRule.longestReach) {
                frontier = min(frontier, earliestInstant(fromWall: Int64(landing) * 86_400))
            }
        }
        if scheduledFrontier > untilLimit || frontier > countEndLimit { exhausted = true }
    }

    /// The occurrence a scheduled one becomes under the workday rule, or nil
    /// when the rule drops it.
    private mutating func adjusted(_ scheduled: Item) -> Item? {
        guard let workdayRule else { return scheduled }
        let day = Int(ExpansionPlan.floorDivide64(scheduled.scheduled, 86_400))
        let shift: Int?
        if !judgesHalves {
            shift = workdays!.shift(day, for: workdayRule)
        } else if Int(scheduled.scheduled - Int64(day) * 86_400) < afternoonStart {
            shift = mornings!.shift(day, for: workdayRule)
        } else {
            shift = afternoons!.shift(day, for: workdayRule)
        }
        guard let shift else { return nil }
        var item = scheduled
        if shift != 0 {
            let moved = resolve(scheduled.scheduled + Int64(shift) * 86_400)
            item.instant = moved.instant
            item.offset = moved.offset
            item.shift = Int32(shift)
        }
        return item
    }

    /// Whether `rule` drops every occurrence scheduled on `day`, in either half.
    private mutating func keepsNothing(onDay day: Int, for rule: WorkdayRule) -> Bool {
        if !judgesHalves { return workdays!.shift(day, for: rule) == nil }
        return mornings!.shift(day, for: rule) == nil && afternoons!.shift(day, for: rule) == nil
    }

    private mutating func insert(_ item: Item) {
        guard item.instant > lastRuleInstant else { return }
        if head == pending.count || pending[pending.count - 1].instant < item.instant {
            pending.append(item)
            return
        }
        // A workday rule can move thousands of sub-daily times onto one day:
        // find the place by bisection.
        var low = head, high = pending.count
        while low < high {
            let mid = (low + high) / 2
            if pending[mid].instant < item.instant { low = mid + 1 } else { high = mid }
        }
        if pending[low].instant == item.instant {
            // One occurrence stands for all that land on its instant. It goes
            // by the one that was not moved, if any, else by the first; an
            // EXDATE naming any of them removes it.
            let excluded = pending[low].excluded || item.excluded
            if pending[low].shift != 0 && item.shift == 0 { pending[low] = item }
            pending[low].excluded = excluded
            return
        }
        pending.insert(item, at: low)
    }

    /// A wall-clock time as an instant, with the EXDATE check of an
    /// occurrence scheduled at it.
    @inline(__always)
    private mutating func resolve(_ local: Int64) -> Item {
        var item: Item
        if local >= windowLow && local < windowHigh {
            item = Item(instant: local - Int64(windowOffset), scheduled: local, offset: windowOffset)
        } else {
            let resolution = resolveOutsideWindow(local)
            item = Item(instant: resolution.instant, scheduled: local, offset: resolution.offset)
        }
        item.excluded = recurrence.isExcluded(item.instant)
        return item
    }

    private mutating func earliestInstant(fromWall local: Int64) -> Int64 {
        if local >= windowLow && local < windowHigh { return local - Int64(windowOffset) }
        return resolveOutsideWindow(local).earliestFromHere
    }

    /// The zone's reading of a wall time outside the window, its clean
    /// window kept as the new one. Both readers keep it: days a workday rule
    /// passes unexpanded resolve nothing but their earliest instant.
    @inline(__always)
    private mutating func resolveOutsideWindow(_ local: Int64) -> TimeZoneRules.Resolution {
        let resolution = recurrence.timeZone.resolve(local: local)
        if !resolution.cleanWindow.isEmpty {
            windowLow = resolution.cleanWindow.lowerBound
            windowHigh = resolution.cleanWindow.upperBound
            windowOffset = resolution.offset
        }
        return resolution
    }
}
