import CalendarModel
import Foundation

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
///   the end of that day. An UNTIL before the start leaves the start alone.
/// - A wall time inside a gap moves forward by the gap's length; one inside
///   a fold takes the first of its two instants. HOURLY, MINUTELY and
///   SECONDLY step in wall-clock time.
/// - Exception dates match occurrences by the instant of their scheduled
///   time; an all-day recurrence's occurrences are the local midnights of
///   its days.
///
/// A rule with a workday part (`X-WORKDAY`, see `WorkdayRule`) consults a
/// `WorkdaySchedule`, the one given or else the ordinary week (Monday to
/// Friday; the caller picks the schedule, by the rule's `workdayRegion` or
/// its own default):
///
/// - The rule applies to every rule occurrence, the start included (a
///   clock-in rule started on a Sunday does not ring that Sunday), judged by
///   the date it is scheduled on. RDATEs are never adjusted.
/// - A moved occurrence keeps its wall-clock time on its new day (a time in
///   a gap there moves forward as usual). FORWARD and BACKWARD look at most
///   366 days away; an occurrence with no workday within reach is dropped.
///   BACKWARD can move an occurrence (the start too) before the start's
///   instant, up to 366 days. Occurrences that land on the same instant are one occurrence, named by
///   the one that was not moved if any (else the earliest scheduled), and
///   the output stays in instant order.
/// - `scheduledTime` is the unmoved time, the occurrence's identity: EXDATE
///   matches it (an occurrence that stands for several is removed when any
///   of them is excluded), and `localTime`/`instant` are where it moved.
/// - UNTIL bounds scheduled times; COUNT counts the occurrences that survive
///   the adjustment (COUNT=10 with SKIP is ten workdays; occurrences that
///   merge count once), excluded ones included as before.
/// - Every search is bounded: a rule none of whose occurrences survives for
///   as long as its pattern takes to repeat (400 years at INTERVAL=1, as for
///   a rule that stops producing) is finished; with a calendar that is the
///   ordinary week outside a span of years, that means it never would
///   again. With no workday at all, or past the years a calendar has data
///   for, an every-makeup-workday rule answers "none" after that walk (about
///   15 ms in a release build; a sub-daily rule with an INTERVAL that does
///   not divide the cycle walks to year 9999, longer).
///
/// The expansion bound: a seek into a COUNT rule first walks from the start
/// to where COUNT ends, and that walk stops after `expansionBound` rule
/// occurrences. A rule whose COUNT goes further than that before year 10000
/// (`FREQ=SECONDLY;COUNT=999999999999`) is cut after its `expansionBound`th
/// occurrence, from the start as in a seek, and says so in `boundError`;
/// the store refuses to save an event with such a rule. So a seek costs at
/// most that walk, however far from the start it lands; a rule without
/// COUNT seeks without walking.
public struct Recurrence: Sendable {
    /// The most rule occurrences a COUNT rule is expanded to (see above).
    public static let expansionBound = 100_000

    /// Everything worked out once at construction, shared by every cursor;
    /// a class so that copying a recurrence costs one retain.
    let compiled: CompiledRecurrence

    public var rule: RecurrenceRule? { compiled.rule }
    public var start: LocalDateTime { compiled.start }
    public var isAllDay: Bool { compiled.isAllDay }
    public var timeZone: TimeZoneRules { compiled.timeZone }
    public var exceptionDates: [LocalDateTime] { compiled.exceptionDates }
    public var extraDates: [LocalDateTime] { compiled.extraDates }
    /// The workday calendar given for the rule's workday part, if any.
    public var workdays: (any WorkdaySchedule)? { compiled.workdays }

    /// A timed recurrence: `start` is a wall-clock time in `timeZone`.
    /// `workdays` serves a rule with a workday part (default: the ordinary week).
    /// `plans` shares the work of compiling a rule between recurrences
    /// (see `RecurrencePlanCache`). `startFold` says which instant a start
    /// inside a fold names (an item given as `01:30-05:00` in New York);
    /// every other occurrence in a fold takes the first, as above.
    public init(rule: RecurrenceRule?, start: LocalDateTime, timeZone: TimeZoneRules,
                exceptionDates: [LocalDateTime] = [], extraDates: [LocalDateTime] = [],
                workdays: (any WorkdaySchedule)? = nil, plans: RecurrencePlanCache? = nil,
                startFold: TimeZoneRules.Fold = .earlier) {
        compiled = CompiledRecurrence(rule: rule, start: start, isAllDay: false, timeZone: timeZone,
                                      exceptionDates: exceptionDates, extraDates: extraDates, workdays: workdays, plans: plans,
                                      startFold: startFold)
    }

    /// An all-day recurrence: occurrences are dates. The zone places their
    /// local midnights in time. Rules that need a time of day (HOURLY and
    /// finer, BYHOUR, BYMINUTE, BYSECOND) are refused.
    public init(rule: RecurrenceRule?, startDate: CivilDate, timeZone: TimeZoneRules,
                exceptionDates: [CivilDate] = [], extraDates: [CivilDate] = [],
                workdays: (any WorkdaySchedule)? = nil, plans: RecurrencePlanCache? = nil) throws(RecurrenceError) {
        if let part = rule?.timeOfDayPart {
            throw RecurrenceError("\(part) needs a start with a time of day, not the all-day date \(startDate)")
        }
        func midnight(_ date: CivilDate) -> LocalDateTime { LocalDateTime(date: date)! }
        compiled = CompiledRecurrence(rule: rule, start: midnight(startDate), isAllDay: true, timeZone: timeZone,
                                      exceptionDates: exceptionDates.map(midnight), extraDates: extraDates.map(midnight),
                                      workdays: workdays, plans: plans)
    }

    /// Why the occurrences stop short of what the rule says, or nil: a COUNT
    /// that reaches past the expansion bound. Walks to where COUNT ends once
    /// (as the first seek would), at most `expansionBound` occurrences.
    public var boundError: RecurrenceError? {
        guard let rule, let end = compiled.countEndResult(), end.isBeyondBound else { return nil }
        let last = LocalDateTime(localSeconds: end.instant).description + "Z"
        return RecurrenceError("\(rule.rfc5545) has more than \(Self.expansionBound) occurrences before year 10000, more than Chime "
            + "expands; only the first \(Self.expansionBound) are kept (the last at \(last)): give it a smaller COUNT, an UNTIL, or no end")
    }

    // MARK: Queries

    /// Every occurrence from the start, lazily and in order.
    public func occurrences() -> Occurrences { Occurrences(recurrence: compiled, after: nil) }

    /// The occurrences strictly after a Unix time, found without walking from
    /// the start: expansion begins at the period that holds the instant.
    public func occurrences(after instant: Int64) -> Occurrences { Occurrences(recurrence: compiled, after: instant) }

    public func occurrences(after date: Date) -> Occurrences { occurrences(after: Self.seconds(flooring: date)) }

    /// The first occurrence strictly after an instant.
    public func nextOccurrence(after date: Date) -> Occurrence? {
        var iterator = occurrences(after: date).makeIterator()
        return iterator.next()
    }

    /// The last occurrence of a recurrence that ends (a rule with COUNT or
    /// UNTIL, or no rule: the start and the RDATEs), or nil when it has no
    /// end or no occurrence at all. Found from the end rather than from the
    /// start: seeks after where the rule ends (UNTIL, or the COUNTth
    /// occurrence, which COUNT's one walk finds and keeps) less a window
    /// that doubles, from one step of the rule, until a seek finds an
    /// occurrence (whose last is then the last of all) or begins before the
    /// start. A finite series costs a seek or two, not a walk of all its
    /// occurrences; at most 64 seeks, each bounded by the rule's end.
    public func lastOccurrence() -> Occurrence? {
        var end = max(compiled.startInstant, compiled.extraItems.last?.instant ?? Int64.min)
        if let rule {
            if rule.count != nil, let countEnd = compiled.countEndInstant() {
                end = max(end, countEnd)
            } else if rule.until != nil {
                end = max(end, compiled.untilInstant)
            } else {
                return nil
            }
        }
        var window = Self.step(of: rule)
        for _ in 0..<64 {
            let (after, overflow) = end.subtractingReportingOverflow(window)
            if overflow || after < compiled.startInstant { break }
            var last: Occurrence?
            for occurrence in occurrences(after: after) { last = occurrence }
            if let last { return last }
            window = window.multipliedReportingOverflow(by: 2).overflow ? Int64.max : window * 2
        }
        var last: Occurrence?
        for occurrence in occurrences() { last = occurrence }
        return last
    }

    /// A rule's period in seconds at its shortest (a month of 28 days, a
    /// year of 365), times its INTERVAL: the first window `lastOccurrence` looks back over.
    static func step(of rule: RecurrenceRule?) -> Int64 {
        guard let rule else { return 1 }
        let seconds: Int64 = switch rule.frequency {
        case .secondly: 1
        case .minutely: 60
        case .hourly: 3600
        case .daily: 86_400
        case .weekly: 7 * 86_400
        case .monthly: 28 * 86_400
        case .yearly: 365 * 86_400
        }
        return seconds * Int64(min(rule.interval, 1 << 20))
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
}

/// A lazy sequence of occurrences in instant order.
public struct Occurrences: Sequence, Sendable {
    let recurrence: CompiledRecurrence
    let after: Int64?

    public struct Iterator: IteratorProtocol {
        var cursor: OccurrenceCursor
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
