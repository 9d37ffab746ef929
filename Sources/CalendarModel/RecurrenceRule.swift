/// A recurrence rule with the meaning of EventKit's `EKRecurrenceRule` and the
/// full grammar of RFC 5545 §3.3.10 (RECUR).
///
/// Empty arrays mean "no BYxxx part": the rule takes that field from the
/// start date where RFC 5545 says so. The rule is only the pattern; the
/// start, the time zone and the exception and extra dates travel beside it
/// (see `RecurrenceEngine.Recurrence`).
///
/// Values are validated on construction: every number in range, and the
/// combinations RFC 5545 forbids (BYWEEKNO outside YEARLY, BYYEARDAY with
/// DAILY, WEEKLY or MONTHLY, BYMONTHDAY with WEEKLY, a numbered BYDAY outside
/// MONTHLY and YEARLY or beside BYWEEKNO, BYSETPOS alone) are refused.
///
/// RFC 7529's parts are read too: `RSCALE=CHINESE` counts the rule's years,
/// months and days of the month in the Chinese calendar (`ChineseCalendar`),
/// `BYMONTH=4L` names a leap month, and `SKIP` says what becomes of a date the
/// rule names that a month or year lacks (the 30th of a 29-day month, a
/// leap month the year has not, February 29). Chime expands such rules at
/// FREQ=YEARLY and MONTHLY with BYMONTH, BYMONTHDAY, the time parts and
/// BYSETPOS; BYDAY, BYYEARDAY and BYWEEKNO beside them are refused, and so is
/// RSCALE=CHINESE at other frequencies.
///
/// Beyond RFC 5545, a rule may carry a `WorkdayRule` (the extension parts
/// `X-WORKDAY` and `X-BREAK`) and the workday calendar's region
/// (`X-REGION`); see `WorkdayRule` for what each does.
public struct RecurrenceRule: Hashable, Sendable {
    public enum Frequency: String, CaseIterable, Hashable, Sendable, Comparable {
        case secondly = "SECONDLY", minutely = "MINUTELY", hourly = "HOURLY", daily = "DAILY"
        case weekly = "WEEKLY", monthly = "MONTHLY", yearly = "YEARLY"

        var rank: Int { Frequency.allCases.firstIndex(of: self)! }
        public static func < (lhs: Frequency, rhs: Frequency) -> Bool { lhs.rank < rhs.rank }
    }

    /// A BYDAY entry: a weekday, optionally numbered within the month or year
    /// (`2TU` is the second Tuesday, `-1FR` the last Friday). Position 0 means
    /// every such weekday.
    public struct DayOfWeek: Hashable, Sendable, CustomStringConvertible {
        public var weekday: Weekday
        public var position: Int

        public init(_ weekday: Weekday, position: Int = 0) {
            self.weekday = weekday
            self.position = position
        }

        public static func every(_ weekday: Weekday) -> DayOfWeek { DayOfWeek(weekday) }

        public var description: String { (position == 0 ? "" : String(position)) + weekday.code }
    }

    /// UNTIL, in the three forms RFC 5545 allows. The bound is inclusive.
    public enum Until: Hashable, Sendable, CustomStringConvertible {
        /// `UNTIL=20261231`: through the end of that day (all-day items).
        case date(CivilDate)
        /// `UNTIL=20261231T235959`: a wall-clock time in the item's zone (floating items).
        case local(LocalDateTime)
        /// `UNTIL=20261231T155959Z`: an instant, written in UTC.
        case utc(LocalDateTime)

        /// The day it falls on, as written.
        public var date: CivilDate {
            switch self {
            case .date(let date): date
            case .local(let time), .utc(let time): time.date
            }
        }

        public var description: String {
            switch self {
            case .date(let date): date.basicFormat
            case .local(let time): time.basicFormat
            case .utc(let time): time.basicFormat + "Z"
            }
        }
    }

    public enum End: Hashable, Sendable {
        case count(Int)
        case until(Until)
    }

    /// The calendar a rule counts in (RFC 7529's RSCALE).
    public enum Scale: String, CaseIterable, Hashable, Sendable {
        case gregorian = "GREGORIAN"
        case chinese = "CHINESE"
    }

    /// What becomes of a date the rule names that does not exist (RFC 7529's
    /// SKIP): left out (RFC 5545's way), moved to the last day before it
    /// (the 29th for a 30th, the ordinary month for a leap month the year
    /// has not), or to the first day after it (the next month's first day,
    /// the month after the leap month's).
    public enum Skip: String, CaseIterable, Hashable, Sendable {
        case omit = "OMIT"
        case backward = "BACKWARD"
        case forward = "FORWARD"
    }

    /// The parts, in one shared box (`CopyOnWrite`; a rule never changes once made): a rule
    /// is copied into every event, plan and occurrence source that uses it,
    /// and a copy of a dozen arrays retains each of them (a tenth of a
    /// one-week query's time went to retaining and releasing).
    private struct Parts: Hashable, Sendable {
        var frequency: Frequency
        var interval: Int
        var end: End?
        var daysOfTheWeek: [DayOfWeek]
        var daysOfTheMonth: [Int]
        var daysOfTheYear: [Int]
        var weeksOfTheYear: [Int]
        var monthsOfTheYear: [Int]
        var hours: [Int]
        var minutes: [Int]
        var seconds: [Int]
        var setPositions: [Int]
        var firstDayOfTheWeek: Weekday
        var workdayRule: WorkdayRule?
        var workdayRegion: String?
        var scale: Scale
        var skip: Skip
        var leapMonthsOfTheYear: [Int]
    }

    private let shared: CopyOnWrite<Parts>
    private var parts: Parts { _read { yield shared.value } }

    /// The same for every copy of this rule (copies share their parts), and
    /// for no other rule while this one lives: for caches of work done per rule.
    package var identity: ObjectIdentifier { shared.identity }

    public var frequency: Frequency { parts.frequency }
    public var interval: Int { parts.interval }
    public var end: End? { parts.end }
    public var daysOfTheWeek: [DayOfWeek] { parts.daysOfTheWeek }
    public var daysOfTheMonth: [Int] { parts.daysOfTheMonth }
    public var daysOfTheYear: [Int] { parts.daysOfTheYear }
    public var weeksOfTheYear: [Int] { parts.weeksOfTheYear }
    public var monthsOfTheYear: [Int] { parts.monthsOfTheYear }
    public var hours: [Int] { parts.hours }
    public var minutes: [Int] { parts.minutes }
    public var seconds: [Int] { parts.seconds }
    public var setPositions: [Int] { parts.setPositions }
    public var firstDayOfTheWeek: Weekday { parts.firstDayOfTheWeek }
    /// How occurrences on days off are treated (`X-WORKDAY`), or nil for a
    /// plain RFC 5545 rule.
    public var workdayRule: WorkdayRule? { parts.workdayRule }
    /// The region of the workday calendar (`X-REGION`), lower-case (`cn`),
    /// or nil for the caller's default. Only with a `workdayRule`.
    public var workdayRegion: String? { parts.workdayRegion }
    /// The calendar the rule counts in (RSCALE; Gregorian when absent).
    public var scale: Scale { parts.scale }
    /// What becomes of dates that do not exist (SKIP; OMIT when absent).
    public var skip: Skip { parts.skip }
    /// BYMONTH's leap months (`4L` is 4), with RSCALE=CHINESE only; the
    /// ordinary months are `monthsOfTheYear`.
    public var leapMonthsOfTheYear: [Int] { parts.leapMonthsOfTheYear }
    /// Whether the rule is expanded by month lengths other than the plain
    /// Gregorian ones with dates left out: RSCALE=CHINESE, or a SKIP that
    /// moves dates (which matters at FREQ=YEARLY and MONTHLY only).
    public var isScaled: Bool { scale != .gregorian || (skip != .omit && frequency >= .monthly) }

    public init(
        frequency: Frequency,
        interval: Int = 1,
        end: End? = nil,
        daysOfTheWeek: [DayOfWeek] = [],
        daysOfTheMonth: [Int] = [],
        daysOfTheYear: [Int] = [],
        weeksOfTheYear: [Int] = [],
        monthsOfTheYear: [Int] = [],
        hours: [Int] = [],
        minutes: [Int] = [],
        seconds: [Int] = [],
        setPositions: [Int] = [],
        firstDayOfTheWeek: Weekday = .monday,
        workdayRule: WorkdayRule? = nil,
        workdayRegion: String? = nil,
        scale: Scale = .gregorian,
        skip: Skip = .omit,
        leapMonthsOfTheYear: [Int] = []
    ) throws(RecurrenceRuleError) {
        try self.init(Parts(frequency: frequency, interval: interval, end: end, daysOfTheWeek: daysOfTheWeek, daysOfTheMonth: daysOfTheMonth,
                            daysOfTheYear: daysOfTheYear, weeksOfTheYear: weeksOfTheYear, monthsOfTheYear: monthsOfTheYear, hours: hours,
                            minutes: minutes, seconds: seconds, setPositions: setPositions, firstDayOfTheWeek: firstDayOfTheWeek,
                            workdayRule: workdayRule, workdayRegion: workdayRegion, scale: scale, skip: skip,
                            leapMonthsOfTheYear: leapMonthsOfTheYear))
    }

    private init(_ parts: Parts) throws(RecurrenceRuleError) {
        var parts = parts
        // Region codes are case-insensitive; kept lower-case like the calendars' own names.
        parts.workdayRegion = parts.workdayRegion?.lowercased()
        shared = CopyOnWrite(parts)
        try validate()
    }

    /// The same rule with another end (`nil`: forever).
    public func ending(_ end: End?) throws(RecurrenceRuleError) -> RecurrenceRule {
        try changing(end: .some(end))
    }

    /// The same rule with other workday parts (`nil`: a plain RFC 5545 rule).
    public func withWorkdayRule(_ rule: WorkdayRule?, region: String? = nil) throws(RecurrenceRuleError) -> RecurrenceRule {
        try changing(workdayRule: .some(rule), workdayRegion: .some(region))
    }

    /// A copy with the parts given replaced (`.some(nil)` clears one), validated again.
    private func changing(end: End?? = nil, workdayRule: WorkdayRule?? = nil,
                          workdayRegion: String?? = nil) throws(RecurrenceRuleError) -> RecurrenceRule {
        var changed = parts
        if let end { changed.end = end }
        if let workdayRule { changed.workdayRule = workdayRule }
        if let workdayRegion { changed.workdayRegion = workdayRegion }
        return try RecurrenceRule(changed)
    }

    /// The part that makes this rule need a time of day (sub-daily FREQ,
    /// BYHOUR, BYMINUTE or BYSECOND), or nil when a date alone will do.
    public var timeOfDayPart: String? {
        if frequency < .daily { return "FREQ=\(frequency.rawValue)" }
        for (name, values) in [("BYHOUR", hours), ("BYMINUTE", minutes), ("BYSECOND", seconds)] where !values.isEmpty {
            return name
        }
        return nil
    }

    public var count: Int? {
        if case .count(let n) = end { return n }
        return nil
    }

    public var until: Until? {
        if case .until(let until) = end { return until }
        return nil
    }

    private func validate() throws(RecurrenceRuleError) {
        func check(_ values: [Int], _ part: String, _ range: ClosedRange<Int>, signed: Bool) throws(RecurrenceRuleError) {
            for value in values where !(range.contains(value) || (signed && range.contains(-value))) {
                let bound = signed ? "±\(range.lowerBound)…\(range.upperBound)" : "\(range.lowerBound)…\(range.upperBound)"
                throw RecurrenceRuleError(part: part, reason: "\(value) is outside \(bound)")
            }
        }
        guard interval >= 1 else { throw RecurrenceRuleError(part: "INTERVAL", reason: "must be a positive integer") }
        if case .count(let n) = end, n < 1 {
            throw RecurrenceRuleError(part: "COUNT", reason: "must be a positive integer")
        }
        if let until, !(0...9999).contains(until.date.year) {
            // RFC 5545 writes four-digit years: text made from such a rule would not read back.
            throw RecurrenceRuleError(part: "UNTIL", reason: "\(until.date) is outside years 0000–9999")
        }
        try check(seconds, "BYSECOND", 0...60, signed: false)
        try check(minutes, "BYMINUTE", 0...59, signed: false)
        try check(hours, "BYHOUR", 0...23, signed: false)
        try check(daysOfTheMonth, "BYMONTHDAY", 1...31, signed: true)
        try check(daysOfTheYear, "BYYEARDAY", 1...366, signed: true)
        try check(weeksOfTheYear, "BYWEEKNO", 1...53, signed: true)
        try check(monthsOfTheYear, "BYMONTH", 1...12, signed: false)
        try check(leapMonthsOfTheYear, "BYMONTH", 1...12, signed: false)
        try check(setPositions, "BYSETPOS", 1...366, signed: true)
        try check(daysOfTheWeek.map(\.position).filter { $0 != 0 }, "BYDAY", 1...53, signed: true)

        if !weeksOfTheYear.isEmpty && frequency != .yearly {
            throw RecurrenceRuleError(part: "BYWEEKNO", reason: "is only allowed with FREQ=YEARLY")
        }
        if !daysOfTheYear.isEmpty && [.daily, .weekly, .monthly].contains(frequency) {
            throw RecurrenceRuleError(part: "BYYEARDAY", reason: "is not allowed with FREQ=\(frequency.rawValue)")
        }
        if !daysOfTheMonth.isEmpty && frequency == .weekly {
            throw RecurrenceRuleError(part: "BYMONTHDAY", reason: "is not allowed with FREQ=WEEKLY")
        }
        if daysOfTheWeek.contains(where: { $0.position != 0 }) {
            if frequency != .monthly && frequency != .yearly {
                throw RecurrenceRuleError(part: "BYDAY", reason: "a numbered weekday needs FREQ=MONTHLY or FREQ=YEARLY")
            }
            if frequency == .yearly && !weeksOfTheYear.isEmpty {
                throw RecurrenceRuleError(part: "BYDAY", reason: "a numbered weekday is not allowed beside BYWEEKNO")
            }
            if frequency == .monthly, daysOfTheWeek.contains(where: { abs($0.position) > 5 }) {
                throw RecurrenceRuleError(part: "BYDAY", reason: "a month has at most 5 of each weekday")
            }
        }
        try validateScale()
        if !setPositions.isEmpty && !hasByPart {
            throw RecurrenceRuleError(part: "BYSETPOS", reason: "needs another BYxxx part to select from")
        }
        if case .firstAfterBreak(let days) = workdayRule, !(1...WorkdayRule.longestReach).contains(days) {
            throw RecurrenceRuleError(part: "X-BREAK", reason: "\(days) is outside 1…\(WorkdayRule.longestReach)")
        }
        if let region = workdayRegion {
            guard workdayRule != nil else {
                throw RecurrenceRuleError(part: "X-REGION", reason: "is only allowed with X-WORKDAY")
            }
            guard Self.isRegionCode(region) else {
                throw RecurrenceRuleError(part: "X-REGION", reason: "'\(region.uppercased())' is not a region code such as CN (1 to 16 letters, digits or '-')")
            }
        }
    }

    /// What RFC 7529's parts allow, and what Chime expands of them.
    private func validateScale() throws(RecurrenceRuleError) {
        if !leapMonthsOfTheYear.isEmpty && scale != .chinese {
            throw RecurrenceRuleError(part: "BYMONTH", reason: "\(leapMonthsOfTheYear[0])L names a leap month, which needs RSCALE=CHINESE")
        }
        if scale == .chinese && frequency != .yearly && frequency != .monthly {
            throw RecurrenceRuleError(part: "RSCALE=CHINESE", reason: "repeats by FREQ=YEARLY or FREQ=MONTHLY in Chime, not FREQ=\(frequency.rawValue)")
        }
        guard isScaled else { return }
        let scaleName = scale == .chinese ? "RSCALE=CHINESE" : "SKIP=\(skip.rawValue)"
        for (name, values) in [("BYDAY", daysOfTheWeek.count), ("BYYEARDAY", daysOfTheYear.count), ("BYWEEKNO", weeksOfTheYear.count)]
        where values > 0 {
            throw RecurrenceRuleError(part: name, reason: "is not expanded beside \(scaleName) in Chime (BYMONTH, BYMONTHDAY, the time parts and BYSETPOS are)")
        }
    }

    static func isRegionCode(_ text: some StringProtocol) -> Bool {
        (1...16).contains(text.count) && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
    }

    /// Whether any BYxxx part other than BYSETPOS is present.
    var hasByPart: Bool {
        !(daysOfTheWeek.isEmpty && daysOfTheMonth.isEmpty && daysOfTheYear.isEmpty && weeksOfTheYear.isEmpty
            && monthsOfTheYear.isEmpty && leapMonthsOfTheYear.isEmpty && hours.isEmpty && minutes.isEmpty && seconds.isEmpty)
    }
}

/// A recurrence rule that cannot be parsed or is not allowed, naming the part.
public struct RecurrenceRuleError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The rule part at fault (`BYMONTHDAY`, `FREQ`), or the whole text.
    public var part: String
    public var reason: String

    init(part: String, reason: String) {
        self.part = part
        self.reason = reason
    }

    public var description: String { "invalid recurrence rule: \(part) \(reason)" }
}
