import CalendarModel
import Foundation
import Synchronization

/// A recurring item's schedule: a rule (or none), the start it repeats from,
/// the time zone its wall clock runs in, and the exception (EXDATE) and extra
/// (RDATE) dates. This is RFC 5545's recurrence set: DTSTART, the RRULE's
/// occurrences and the RDATEs, less the EXDATEs.
///
/// - The start is always the first occurrence, as RFC 5545 and EventKit
///   count it, even when it does not match the rule.
/// - COUNT counts the rule's occurrences from the start, excluded ones
///   included (an EXDATE never pulls in a later occurrence); RDATEs are not
///   counted, and neither COUNT nor UNTIL limits them.
/// - UNTIL is inclusive. A DATE-only UNTIL on a timed start runs through
///   the end of that day.
/// - A wall time inside a gap moves forward by the gap's length; one inside
///   a fold takes the first of its two instants. HOURLY, MINUTELY and
///   SECONDLY step in wall-clock time.
/// - Exception dates match occurrences by instant; an all-day recurrence's
///   occurrences are the local midnights of its days.
public struct Recurrence: Sendable {
    public let rule: RecurrenceRule?
    public let start: LocalDateTime
    public let isAllDay: Bool
    public let timeZone: TimeZoneRules
    public let exceptionDates: [LocalDateTime]
    public let extraDates: [LocalDateTime]

    let plan: ExpansionPlan
    let startLocal: Int64
    let startResolution: TimeZoneRules.Resolution
    var startInstant: Int64 { startResolution.instant }
    let untilInstant: Int64
    let extraItems: [OccurrenceCursor.Item]
    let exclusions: [Int64]
    private let countEnd = CountEnd()

    /// A timed recurrence: `start` is a wall-clock time in `timeZone`.
    public init(rule: RecurrenceRule?, start: LocalDateTime, timeZone: TimeZoneRules,
                exceptionDates: [LocalDateTime] = [], extraDates: [LocalDateTime] = []) {
        self.init(rule: rule, start: start, isAllDay: false, timeZone: timeZone,
                  exceptionDates: exceptionDates, extraDates: extraDates)
    }

    /// An all-day recurrence: occurrences are dates. The zone places their
    /// local midnights in time. Rules that need a time of day (HOURLY and
    /// finer, BYHOUR, BYMINUTE, BYSECOND) are refused.
    public init(rule: RecurrenceRule?, startDate: CivilDate, timeZone: TimeZoneRules,
                exceptionDates: [CivilDate] = [], extraDates: [CivilDate] = []) throws(RecurrenceError) {
        if let rule {
            if rule.frequency < .daily {
                throw RecurrenceError("FREQ=\(rule.frequency.rawValue) needs a start with a time of day, not the all-day date \(startDate)")
            }
            for (name, values) in [("BYHOUR", rule.hours), ("BYMINUTE", rule.minutes), ("BYSECOND", rule.seconds)] where !values.isEmpty {
                throw RecurrenceError("\(name) needs a start with a time of day, not the all-day date \(startDate)")
            }
        }
        func midnight(_ date: CivilDate) -> LocalDateTime { LocalDateTime(date: date)! }
        self.init(rule: rule, start: midnight(startDate), isAllDay: true, timeZone: timeZone,
                  exceptionDates: exceptionDates.map(midnight), extraDates: extraDates.map(midnight))
    }

    private init(rule: RecurrenceRule?, start: LocalDateTime, isAllDay: Bool, timeZone: TimeZoneRules,
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

    // MARK: Queries

    /// Every occurrence from the start, lazily and in order.
    public func occurrences() -> Occurrences { Occurrences(recurrence: self, after: nil) }

    /// The occurrences strictly after a Unix time, found without walking from
    /// the start: expansion begins at the period that holds the instant.
    public func occurrences(after instant: Int64) -> Occurrences { Occurrences(recurrence: self, after: instant) }

    public func occurrences(after date: Date) -> Occurrences { occurrences(after: Self.seconds(flooring: date)) }

    /// The first occurrence strictly after an instant.
    public func nextOccurrence(after date: Date) -> Occurrence? {
        var iterator = occurrences(after: date).makeIterator()
        return iterator.next()
    }

    /// The occurrences that start in `range` (lower bound included, upper excluded).
    public func occurrences(in range: Range<Date>) -> [Occurrence] {
        let lower = range.lowerBound.timeIntervalSince1970.rounded(.up)
        guard lower < 9.2e18, lower > -9.2e18 else { return [] }
        var result: [Occurrence] = []
        for occurrence in occurrences(after: Int64(lower) - 1) {
            guard occurrence.date < range.upperBound else { break }
            result.append(occurrence)
        }
        return result
    }

    static func seconds(flooring date: Date) -> Int64 {
        let value = date.timeIntervalSince1970.rounded(.down)
        return value >= 9.2e18 ? Int64.max : value <= -9.2e18 ? Int64.min : Int64(value)
    }

    /// The instant of the COUNTth rule occurrence, found once by walking and
    /// then kept, so that every later seek honours COUNT exactly.
    func countEndInstant() -> Int64? {
        guard let count = rule?.count else { return nil }
        return countEnd.value.withLock { cached in
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

    private final class CountEnd: Sendable {
        let value = Mutex<Int64?>(nil)
    }
}

/// A lazy sequence of occurrences in instant order.
public struct Occurrences: Sequence, Sendable {
    let recurrence: Recurrence
    let after: Int64?

    public struct Iterator: IteratorProtocol {
        let cursor: OccurrenceCursor
        public mutating func next() -> Occurrence? { cursor.next() }
    }

    public func makeIterator() -> Iterator {
        let countEnd = after == nil ? nil : recurrence.countEndInstant()
        return Iterator(cursor: OccurrenceCursor(recurrence, after: after, countEnd: countEnd))
    }
}

/// A recurrence that cannot be built, with the reason.
public struct RecurrenceError: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
