import CalendarModel
import Synchronization

/// A recurrence worked out for expansion: the plan, the start and UNTIL as
/// instants, the exception and extra dates resolved and sorted.
final class CompiledRecurrence: Sendable {
    let rule: RecurrenceRule?
    let start: LocalDateTime
    let isAllDay: Bool
    let timeZone: TimeZoneRules
    let exceptionDates: [LocalDateTime]
    let extraDates: [LocalDateTime]
    /// The schedule the caller gave, if any.
    let workdays: (any WorkdaySchedule)?
    let workdayRule: WorkdayRule?
    /// The schedule workday rules consult: the one given, else the ordinary week.
    let schedule: any WorkdaySchedule

    let plan: ExpansionPlan
    /// The unit of the period that holds DTSTART; periods are `base + k * interval`.
    let base: Int
    let startLocal: Int64
    let startResolution: TimeZoneRules.Resolution
    var startInstant: Int64 { startResolution.instant }
    let untilInstant: Int64
    let extraItems: [OccurrenceCursor.Item]
    let exclusions: [Int64]
    private let countEnd = Mutex<CountEnd?>(nil)

    /// Where a COUNT rule's expansion ends: the instant of its COUNTth rule
    /// occurrence, or, when COUNT lies past the expansion bound, of the last
    /// occurrence within it.
    struct CountEnd {
        var instant: Int64
        /// Whether the rule has occurrences after `instant` that COUNT would allow.
        var isBeyondBound: Bool
    }

    /// The COUNT a cursor from the start honours: the rule's, capped at the expansion bound.
    var boundedCount: Int? { rule?.count.map { min($0, Recurrence.expansionBound) } }

    init(rule: RecurrenceRule?, start: LocalDateTime, isAllDay: Bool, timeZone: TimeZoneRules,
         exceptionDates: [LocalDateTime], extraDates: [LocalDateTime], workdays: (any WorkdaySchedule)?,
         plans: RecurrencePlanCache?, startFold: TimeZoneRules.Fold = .earlier) {
        self.rule = rule
        self.start = start
        self.isAllDay = isAllDay
        self.timeZone = timeZone
        self.exceptionDates = exceptionDates
        self.extraDates = extraDates
        self.workdays = workdays
        workdayRule = rule?.workdayRule
        schedule = workdays ?? Self.ordinaryWeek
        let planned = rule ?? Self.placeholderRule
        plan = plans?.plan(for: planned, start: start) ?? ExpansionPlan(rule: planned, start: start)
        base = plan.unit(containing: start.localSeconds)
        startLocal = start.localSeconds
        let startResolution = timeZone.resolve(start, fold: startFold)
        self.startResolution = startResolution
        untilInstant = Self.instant(of: rule?.until, in: timeZone, allDay: isAllDay)
        // An EXDATE of the start's wall time names the start, whichever instant it is.
        let exclusions = exceptionDates.map { $0 == start ? startResolution.instant : timeZone.resolve($0).instant }.sorted()
        self.exclusions = exclusions
        var extras = extraDates.map { local -> OccurrenceCursor.Item in
            let resolution = timeZone.resolve(local)
            return OccurrenceCursor.Item(instant: resolution.instant, scheduled: local.localSeconds, offset: resolution.offset,
                                         excluded: Self.contains(exclusions, resolution.instant))
        }
        extras.sort { $0.instant < $1.instant }
        extraItems = extras
    }

    /// The schedule of workday rules given none, made once (its weekdays are a set).
    private static let ordinaryWeek: any WorkdaySchedule = OrdinaryWeek()

    /// Stands in for a missing rule; the cursor then yields the start and the extra dates only.
    private static let placeholderRule = try! RecurrenceRule(frequency: .daily)

    static func instant(of until: RecurrenceRule.Until?, in zone: TimeZoneRules, allDay: Bool) -> Int64 {
        switch until {
        case nil: return Int64.max
        case .utc(let time): return time.localSeconds
        case .local(let time): return zone.resolve(time).instant
        case .date(let date):
            if allDay { return zone.resolve(LocalDateTime(date: date)!).instant }
            return zone.resolve(LocalDateTime(date: date.adding(days: 1))!).instant - 1
        }
    }

    /// Whether an EXDATE names the occurrence scheduled at `instant` (its
    /// unmoved time, for one a workday rule moved).
    @inline(__always)
    func isExcluded(_ instant: Int64) -> Bool {
        !exclusions.isEmpty && Self.contains(exclusions, instant)
    }

    private static func contains(_ sorted: [Int64], _ instant: Int64) -> Bool {
        var low = 0, high = sorted.count
        while low < high {
            let mid = (low + high) / 2
            if sorted[mid] < instant { low = mid + 1 } else { high = mid }
        }
        return low < sorted.count && sorted[low] == instant
    }

    /// The instant of the COUNTth rule occurrence (after any workday
    /// adjustment), or of the last within the expansion bound.
    func countEndInstant() -> Int64? { countEndResult()?.instant }

    /// Where COUNT ends, found once by walking and then kept, so that every
    /// later seek honours COUNT exactly. The walk is bounded by COUNT, by
    /// `Recurrence.expansionBound` occurrences and by the end of year 9999:
    /// a rule that still has occurrences past the bound's last one is cut
    /// there and says so (`isBeyondBound`).
    func countEndResult() -> CountEnd? {
        guard let count = rule?.count else { return nil }
        return countEnd.withLock { cached in
            if let cached { return cached }
            let result = countEndByArithmetic(count).map { CountEnd(instant: $0, isBeyondBound: false) } ?? countEndByWalking(count)
            cached = result
            return result
        }
    }

    /// Where COUNT ends, found by walking the rule's occurrences.
    func countEndByWalking(_ count: Int) -> CountEnd {
        let bound = Recurrence.expansionBound
        // One more than the bound, to tell a rule that ends there from one that goes on.
        var cursor = OccurrenceCursor(self, after: nil, countEnd: nil, countLimit: min(count, bound + 1))
        var last = Int64.min
        var seen = 0
        while seen < min(count, bound), let instant = cursor.nextRuleInstant() {
            last = instant
            seen += 1
        }
        let beyond = count > bound && seen == bound && cursor.nextRuleInstant() != nil
        return CountEnd(instant: last, isBeyondBound: beyond)
    }

    /// The instant of the COUNTth occurrence worked out rather than walked,
    /// for the rules whose days repeat in a fixed pattern, at DTSTART's
    /// time of day: DAILY with BYDAY weekdays or none, WEEKLY with BYDAY
    /// weekdays, MONTHLY with one numbered weekday (`2TU`, `-1FR`), and
    /// no other part. Nil for any other rule, which is walked.
    ///
    /// The walk took a tenth of the reading of a 10,000-event import
    /// (1,278 COUNT rules, about 1,100 instructions an occurrence). Each
    /// occurrence after DTSTART lies on a later day than the one before, at
    /// the same wall time; in a zone whose offset never changes by more than
    /// `arithmeticOffsetLimit`, no two of them read as one instant or out of
    /// order, so the COUNTth is the COUNTth by the calendar alone (a zone
    /// that skipped a day, Pacific/Apia, is walked). EXDATE never changes
    /// COUNT, and RDATEs are not the rule's.
    func countEndByArithmetic(_ count: Int) -> Int64? {
        guard workdayRule == nil, plan.scale == nil, count >= 1, count <= Recurrence.expansionBound, untilInstant == Int64.max,
              plan.setPositions.isEmpty, plan.monthMask == 0, plan.monthDays.isEmpty, plan.yearDays.isEmpty, plan.weekNumbers.isEmpty,
              plan.timesOfDay.count == 1 else { return nil }
        let startDay = Int(ExpansionPlan.floorDivide64(startLocal, 86_400))
        let timeOfDay = startLocal - Int64(startDay) * 86_400
        guard Int64(plan.timesOfDay[0]) == timeOfDay, timeZone.largestOffsetChange <= Self.arithmeticOffsetLimit else { return nil }
        // DTSTART is the first occurrence; `after` more follow it.
        let after = count - 1
        guard after > 0 else { return startInstant }
        let day: Int
        let mask = plan.weekdayMask
        switch plan.frequency {
        case .daily where plan.numberedWeekdays.isEmpty:
            // With BYDAY, the weekdays of the days on the grid repeat every seven steps.
            let hits = mask == 0 ? [1] : (1...7).filter { mask & (1 << PeriodExpander.weekday(startDay + $0 * plan.interval)) != 0 }
            guard !hits.isEmpty else { return nil }
            let steps = ((after - 1) / hits.count).multipliedReportingOverflow(by: mask == 0 ? 1 : 7)
            let (offset, overflow) = (steps.partialValue + hits[(after - 1) % hits.count]).multipliedReportingOverflow(by: plan.interval)
            guard !steps.overflow, !overflow, offset < 4_000_000 else { return nil }
            day = startDay + offset
        case .monthly where mask == 0 && plan.numberedWeekdays.count == 1 && (1...4).contains(abs(plan.numberedWeekdays[0].position)):
            // One numbered weekday, which every month has (the fifth would not be).
            let (position, wanted) = plan.numberedWeekdays[0]
            func numbered(inMonth unit: Int) -> Int {
                let year = ExpansionPlan.floorDivide(unit, 12), month = unit - year * 12 + 1
                let first = CivilDate.dayNumber(year: year, month: month, day: 1)
                return PeriodExpander.day(position, wanted, in: first, first + CivilDate.daysInMonth(year: year, month: month) - 1)
            }
            let inFirstMonth = numbered(inMonth: base) > startDay ? 1 : 0
            if after <= inFirstMonth {
                day = numbered(inMonth: base)
            } else {
                let (offset, overflow) = (after - inFirstMonth).multipliedReportingOverflow(by: plan.interval)
                guard !overflow, offset < 130_000 else { return nil }
                day = numbered(inMonth: base + offset)
            }
        case .weekly where plan.numberedWeekdays.isEmpty:
            let perWeek = mask.nonzeroBitCount
            guard perWeek > 0 else { return nil }
            func days(ofWeek unit: Int) -> [Int] {
                let first = unit * 7 + plan.weekOrigin
                return (first..<first + 7).filter { mask & (1 << PeriodExpander.weekday($0)) != 0 }
            }
            // DTSTART's week holds those of its days after DTSTART's; every later week of the grid holds all of them.
            let firstWeek = days(ofWeek: base).filter { $0 > startDay }
            if after <= firstWeek.count {
                day = firstWeek[after - 1]
            } else {
                let rest = after - firstWeek.count
                let (offset, overflow) = ((rest - 1) / perWeek + 1).multipliedReportingOverflow(by: plan.interval)
                guard !overflow, offset < 600_000 else { return nil }
                day = days(ofWeek: base + offset)[(rest - 1) % perWeek]
            }
        default:
            return nil
        }
        let wall = Int64(day) * 86_400 + timeOfDay
        guard wall < ExpansionPlan.endOfTime else { return nil }
        return timeZone.resolve(local: wall).instant
    }

    /// The largest change of offset a zone may make for `countEndByArithmetic`:
    /// well short of the day between two occurrences.
    static let arithmeticOffsetLimit: Int32 = 6 * 3600
}
