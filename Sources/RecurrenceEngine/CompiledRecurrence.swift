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

    let plan: ExpansionPlan
    let startLocal: Int64
    let startResolution: TimeZoneRules.Resolution
    var startInstant: Int64 { startResolution.instant }
    let untilInstant: Int64
    let extraItems: [OccurrenceCursor.Item]
    let exclusions: [Int64]
    private let countEnd = Mutex<Int64?>(nil)

    init(rule: RecurrenceRule?, start: LocalDateTime, isAllDay: Bool, timeZone: TimeZoneRules,
         exceptionDates: [LocalDateTime], extraDates: [LocalDateTime]) {
        self.rule = rule
        self.start = start
        self.isAllDay = isAllDay
        self.timeZone = timeZone
        self.exceptionDates = exceptionDates
        self.extraDates = extraDates
        plan = ExpansionPlan(rule: rule ?? Self.placeholderRule, start: start)
        startLocal = start.localSeconds
        startResolution = timeZone.resolve(local: startLocal)
        untilInstant = Self.instant(of: rule?.until, in: timeZone, allDay: isAllDay)
        exclusions = exceptionDates.map { timeZone.resolve($0).instant }.sorted()
        var extras = extraDates.map { local -> OccurrenceCursor.Item in
            let resolution = timeZone.resolve(local)
            return OccurrenceCursor.Item(instant: resolution.instant, offset: resolution.offset, scheduled: local.localSeconds)
        }
        extras.sort { $0.instant < $1.instant }
        extraItems = extras
    }

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

    func isExcluded(_ instant: Int64) -> Bool {
        guard !exclusions.isEmpty else { return false }
        var low = 0, high = exclusions.count
        while low < high {
            let mid = (low + high) / 2
            if exclusions[mid] < instant { low = mid + 1 } else { high = mid }
        }
        return low < exclusions.count && exclusions[low] == instant
    }

    /// The instant of the COUNTth rule occurrence, found once by walking and
    /// then kept, so that every later seek honours COUNT exactly. The walk is
    /// bounded by COUNT and by the end of year 9999.
    func countEndInstant() -> Int64? {
        guard let count = rule?.count else { return nil }
        return countEnd.withLock { cached in
            if let cached { return cached }
            let cursor = OccurrenceCursor(self, after: nil, countEnd: nil)
            var last = Int64.min
            var seen = 0
            while seen < count, let instant = cursor.nextRuleInstant() {
                last = instant
                seen += 1
            }
            cached = last
            return last
        }
    }
}
