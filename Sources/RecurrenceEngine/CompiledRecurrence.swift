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
            let result = CountEnd(instant: last, isBeyondBound: beyond)
            cached = result
            return result
        }
    }
}
