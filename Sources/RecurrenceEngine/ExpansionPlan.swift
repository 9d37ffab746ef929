import CalendarModel

/// A recurrence rule made ready for expansion from one start: the defaults
/// RFC 5545 takes from DTSTART filled in, the parts turned into masks and
/// sorted lists, and the impossible rules recognised up front.
///
/// How each BYxxx part acts at each frequency (RFC 5545 §3.3.10, page 44):
///
/// ```
///            |SECONDLY|MINUTELY|HOURLY |DAILY  |WEEKLY|MONTHLY|YEARLY|
/// |----------|--------|--------|-------|-------|------|-------|------|
/// |BYMONTH   |Limit   |Limit   |Limit  |Limit  |Limit |Limit  |Expand|
/// |BYWEEKNO  |N/A     |N/A     |N/A    |N/A    |N/A   |N/A    |Expand|
/// |BYYEARDAY |Limit   |Limit   |Limit  |N/A    |N/A   |N/A    |Expand|
/// |BYMONTHDAY|Limit   |Limit   |Limit  |Limit  |N/A   |Expand |Expand|
/// |BYDAY     |Limit   |Limit   |Limit  |Limit  |Expand|Note 1 |Note 2|
/// |BYHOUR    |Limit   |Limit   |Limit  |Expand |Expand|Expand |Expand|
/// |BYMINUTE  |Limit   |Limit   |Expand |Expand |Expand|Expand |Expand|
/// |BYSECOND  |Limit   |Expand  |Expand |Expand |Expand|Expand |Expand|
/// |BYSETPOS  |Limit   |Limit   |Limit  |Limit  |Limit |Limit  |Limit |
/// ```
///
/// Note 1: limit if BYMONTHDAY is present, otherwise a special expand for
/// MONTHLY (every such weekday of the month, or the numbered one).
/// Note 2: limit if BYYEARDAY or BYMONTHDAY is present; otherwise a special
/// expand for WEEKLY within BYWEEKNO's weeks, for MONTHLY within BYMONTH's
/// months, or for YEARLY within the year.
///
/// Expansion runs one *period* at a time (a year, month, week, day, hour,
/// minute or second of wall-clock time, stepping by INTERVAL), always in the
/// same order: days of the period, then times of day, then BYSETPOS. Periods
/// are numbered by *units* since a fixed origin (years since year 0, months,
/// WKST-aligned weeks, days, hours, minutes, seconds since 1970-01-01 on the
/// wall clock), so any period can be reached in O(1) without walking.
final class ExpansionPlan: Sendable {
    let frequency: RecurrenceRule.Frequency
    let interval: Int

    let months: [Int]
    let monthMask: UInt16
    let monthDays: [Int]
    let yearDays: [Int]
    let weekNumbers: [Int]
    let weekdayMask: UInt8
    let numberedWeekdays: [(position: Int, weekday: Int)]
    let weekStart: Int
    /// The day number of the first day of week unit 0 (a day whose weekday is WKST).
    let weekOrigin: Int

    /// Seconds of the day, sorted, for DAILY and longer periods.
    let timesOfDay: [Int]
    /// For sub-daily periods: the limits, and the values of the finer fields.
    let hourMask: UInt32
    let minuteMask: UInt64
    let secondMask: UInt64
    let minutes: [Int]
    let seconds: [Int]

    let setPositions: [Int]
    /// For RFC 7529 rules (`RecurrenceRule.isScaled`), the months they count
    /// in and their SKIP; nil for every other rule. Such a rule's months
    /// to expand are `months` and `leapMonths` (see `MonthScale`).
    let scale: MonthScale?
    /// `scale` counts in the Chinese calendar: its units are the table's (see `MonthScale`).
    let countsInChinese: Bool
    let leapMonths: [Int]
    /// True when no period can ever hold a candidate.
    let isEmpty: Bool
    /// Units to advance with nothing produced before the rule is known to be
    /// empty: one whole repetition of the Gregorian calendar (400 years,
    /// 146,097 days, a whole number of weeks) at this interval, capped.
    let emptyUnitBound: Int
    /// The last period expanded: the one holding 9999-12-31T23:59:59, the end
    /// of RFC 5545's four-digit years. Beyond it, wall-clock seconds would
    /// soon overflow for rules with huge intervals.
    let lastUnit: Int

    /// Wall-clock seconds of 10000-01-01T00:00:00.
    static let endOfTime = Int64(CivilDate.dayNumber(year: 10_000, month: 1, day: 1)) * 86_400

    var hasWeekdays: Bool { weekdayMask != 0 || !numberedWeekdays.isEmpty }

    /// What a plan takes from DTSTART: the parts RFC 5545 defaults from it
    /// (a month, a day of the month, a weekday; nil where the rule's own
    /// parts decide) and its time of day. A plan depends on nothing else of
    /// the start, so series of one rule that start at the same time of day
    /// (every Monday stand-up) share one plan; each keeps its own base unit.
    struct StartDefaults: Hashable {
        var month: Int?
        /// Whether `month` is a leap month (a Chinese start in one).
        var monthIsLeap = false
        var day: Int?
        var weekday: Int?
        var hour: Int
        var minute: Int
        var second: Int

        init(rule: RecurrenceRule, start: LocalDateTime) {
            let noDayParts = rule.daysOfTheYear.isEmpty && rule.daysOfTheMonth.isEmpty && rule.daysOfTheWeek.isEmpty
                && rule.weeksOfTheYear.isEmpty
            // A Chinese rule takes the start's Chinese month and day (a start
            // outside the table's years, its Gregorian ones: it has no occurrences).
            var startMonth = start.date.month, startDay = start.date.day, startIsLeap = false
            if rule.scale == .chinese, let date = ChineseCalendar.date(of: start.date) {
                (startMonth, startDay, startIsLeap) = (date.month, date.day, date.isLeapMonth)
            }
            switch rule.frequency {
            case .yearly where noDayParts:
                if rule.monthsOfTheYear.isEmpty && rule.leapMonthsOfTheYear.isEmpty {
                    month = startMonth
                    monthIsLeap = startIsLeap
                }
                day = startDay
            case .monthly where rule.daysOfTheMonth.isEmpty && rule.daysOfTheWeek.isEmpty:
                day = startDay
            case .weekly where rule.daysOfTheWeek.isEmpty:
                weekday = start.date.weekday.rawValue
            default:
                break
            }
            hour = start.hour
            minute = start.minute
            second = start.second
        }
    }

    convenience init(rule: RecurrenceRule, start: LocalDateTime) {
        self.init(rule: rule, defaults: StartDefaults(rule: rule, start: start))
    }

    init(rule: RecurrenceRule, defaults: StartDefaults) {
        frequency = rule.frequency
        interval = rule.interval
        weekStart = rule.firstDayOfTheWeek.rawValue
        // Day number d has weekday (d + 4) mod 7.
        weekOrigin = ((weekStart - 4) % 7 + 7) % 7

        // The defaults written straight into the plan, without temporary arrays.
        var months = rule.monthsOfTheYear
        var leapMonths = rule.leapMonthsOfTheYear
        if let month = defaults.month { (months, leapMonths) = defaults.monthIsLeap ? ([], [month]) : ([month], []) }
        self.leapMonths = Self.sortedUnique(leapMonths)
        scale = rule.isScaled ? MonthScale(scale: rule.scale, skip: rule.skip) : nil
        countsInChinese = rule.scale == .chinese
        let monthDays = defaults.day.map { [$0] } ?? rule.daysOfTheMonth
        self.months = Self.sortedUnique(months)
        monthMask = months.reduce(0) { $0 | UInt16(1) << $1 }
        self.monthDays = monthDays
        yearDays = rule.daysOfTheYear
        weekNumbers = rule.weeksOfTheYear
        var mask: UInt8 = defaults.weekday.map { 1 << $0 } ?? 0
        var numbered: [(position: Int, weekday: Int)] = []
        for day in rule.daysOfTheWeek {
            if day.position == 0 { mask |= 1 << day.weekday.rawValue } else { numbered.append((day.position, day.weekday.rawValue)) }
        }
        weekdayMask = mask
        numberedWeekdays = numbered

        if rule.hours.isEmpty && rule.minutes.isEmpty && rule.seconds.isEmpty {
            // One time of day, DTSTART's (BYSECOND=60 aside, the common case).
            timesOfDay = [defaults.hour * 3600 + defaults.minute * 60 + defaults.second]
            // Only sub-daily periods expand minutes and seconds; a kept plan
            // of a daily or longer rule need not carry them.
            let subDaily = rule.frequency < .daily
            minutes = subDaily ? [defaults.minute] : []
            seconds = subDaily ? [defaults.second] : []
        } else {
            let hours = rule.hours.isEmpty ? [defaults.hour] : Self.sortedUnique(rule.hours)
            let minutes = rule.minutes.isEmpty ? [defaults.minute] : Self.sortedUnique(rule.minutes)
            // BYSECOND=60 names a leap second, which no wall clock here shows.
            let seconds = rule.seconds.isEmpty ? [defaults.second] : Self.sortedUnique(rule.seconds.filter { $0 < 60 })
            var times: [Int] = []
            times.reserveCapacity(hours.count * minutes.count * seconds.count)
            for h in hours { for m in minutes { for s in seconds { times.append(h * 3600 + m * 60 + s) } } }
            timesOfDay = times
            self.minutes = minutes
            self.seconds = seconds
        }
        hourMask = rule.hours.isEmpty ? UInt32.max : rule.hours.reduce(0) { $0 | UInt32(1) << $1 }
        minuteMask = rule.minutes.isEmpty ? UInt64.max : rule.minutes.reduce(0) { $0 | UInt64(1) << $1 }
        secondMask = rule.seconds.isEmpty ? UInt64.max : rule.seconds.reduce(0) { $0 | UInt64(1) << $1 }
        setPositions = rule.setPositions

        let cycle: Int
        switch rule.frequency {
        case .yearly: cycle = 400
        case .monthly: cycle = 4800
        case .weekly: cycle = 20_871
        case .daily: cycle = 146_097
        case .hourly: cycle = 146_097 * 24
        case .minutely: cycle = 146_097 * 1440
        case .secondly: cycle = 146_097 * 86_400
        }
        let (lcm, overflow) = (cycle / Self.gcd(cycle, rule.interval)).multipliedReportingOverflow(by: rule.interval)
        if rule.scale == .chinese {
            // The table's last year ends the walk, long before any bound.
            emptyUnitBound = Int.max
            lastUnit = MonthScale.chineseLastUnit(yearly: rule.frequency == .yearly)
        } else {
            emptyUnitBound = overflow ? Int.max : lcm
            lastUnit = Self.unit(containing: Self.endOfTime - 1, frequency: rule.frequency, weekOrigin: weekOrigin)
        }

        // A scaled rule's days are checked as they are made: which exist
        // depends on the year, and SKIP can move the missing ones.
        isEmpty = timesOfDay.isEmpty
            || (rule.isScaled ? false : !Self.someDayMatches(months: rule.monthsOfTheYear, monthDays: rule.daysOfTheMonth, yearDays: rule.daysOfTheYear))
            || !Self.wallClockStepReaches(rule: rule, startSecondOfDay: defaults.hour * 3600 + defaults.minute * 60 + defaults.second)
            || !Self.setPositionsReachable(rule: rule, timesOfDay: timesOfDay.count, minutes: minutes.count, seconds: seconds.count)
    }

    /// BYMONTH=2;BYMONTHDAY=30, BYMONTH=1;BYYEARDAY=366 and the like can
    /// never produce. Each of these parts alone always can, and weekdays
    /// always meet a possible date somewhere in a 400-year cycle, so only
    /// their combinations are checked, over one common and one leap year.
    static func someDayMatches(months: [Int], monthDays: [Int], yearDays: [Int]) -> Bool {
        let parts = (months.isEmpty ? 0 : 1) + (monthDays.isEmpty ? 0 : 1) + (yearDays.isEmpty ? 0 : 1)
        guard parts >= 2 else { return true }
        for year in [2001, 2004] {
            let length = CivilDate.daysInYear(year)
            var ordinal = 0
            for month in 1...12 {
                let monthLength = CivilDate.daysInMonth(year: year, month: month)
                for day in 1...monthLength {
                    ordinal += 1
                    if !months.isEmpty && !months.contains(month) { continue }
                    if !monthDays.isEmpty && !monthDays.contains(where: { ordinalPosition($0, among: monthLength) == day }) { continue }
                    if !yearDays.isEmpty && !yearDays.contains(where: { ordinalPosition($0, among: length) == ordinal }) { continue }
                    return true
                }
            }
        }
        return false
    }

    /// Sub-daily rules step through wall-clock time by INTERVAL units from the
    /// start, so only some times of day are ever visited
    /// (`FREQ=HOURLY;INTERVAL=2;BYHOUR=3` from midnight never is). A time of
    /// day is visited when its distance from the start's, in units, is a
    /// multiple of gcd(units per day, INTERVAL).
    static func wallClockStepReaches(rule: RecurrenceRule, startSecondOfDay: Int) -> Bool {
        let unitSeconds: Int
        switch rule.frequency {
        case .hourly: unitSeconds = 3600
        case .minutely: unitSeconds = 60
        case .secondly: unitSeconds = 1
        default: return true
        }
        let step = gcd(86_400 / unitSeconds, rule.interval)
        let startUnit = startSecondOfDay / unitSeconds
        // Only the fields a period's own unit limits matter; finer ones expand.
        let hours = rule.hours.isEmpty ? Array(0..<24) : rule.hours
        let minutes = unitSeconds == 3600 ? [0] : rule.minutes.isEmpty ? Array(0..<60) : rule.minutes
        let seconds = unitSeconds > 1 ? [0] : rule.seconds.isEmpty ? Array(0..<60) : rule.seconds.filter { $0 < 60 }
        for hour in hours {
            for minute in minutes {
                for second in seconds where ((hour * 3600 + minute * 60 + second) / unitSeconds - startUnit) % step == 0 {
                    return true
                }
            }
        }
        return false
    }

    /// BYSETPOS positions beyond the most candidates any period can hold
    /// (`FREQ=HOURLY;BYMINUTE=5;BYSETPOS=2`) never select anything.
    static func setPositionsReachable(rule: RecurrenceRule, timesOfDay: Int, minutes: Int, seconds: Int) -> Bool {
        guard !rule.setPositions.isEmpty else { return true }
        let most: Int
        switch rule.frequency {
        case .secondly: most = 1
        case .minutely: most = seconds
        case .hourly: most = minutes * seconds
        case .daily: most = timesOfDay
        case .weekly: most = 7 * timesOfDay
        case .monthly: most = 31 * timesOfDay
        case .yearly: most = 53 * 7 * timesOfDay
        }
        return rule.setPositions.contains { abs($0) <= most }
    }

    static func sortedUnique(_ values: [Int]) -> [Int] {
        guard values.count > 1 else { return values }
        var result: [Int] = []
        for value in values.sorted() where result.last != value { result.append(value) }
        return result
    }

    static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }

    @inline(__always)
    static func floorDivide(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }

    // MARK: Units and periods

    /// The unit of the period a wall-clock time falls in.
    func unit(containing local: Int64) -> Int {
        if countsInChinese {
            return MonthScale.chineseUnit(containingDay: Int(Self.floorDivide64(local, 86_400)), yearly: frequency == .yearly)
        }
        return Self.unit(containing: local, frequency: frequency, weekOrigin: weekOrigin)
    }

    static func unit(containing local: Int64, frequency: RecurrenceRule.Frequency, weekOrigin: Int) -> Int {
        let day = Int(Self.floorDivide64(local, 86_400))
        let secondOfDay = Int(local - Int64(day) * 86_400)
        switch frequency {
        case .yearly: return CivilDate(dayNumber: day).year
        case .monthly:
            let date = CivilDate(dayNumber: day)
            return date.year * 12 + date.month - 1
        case .weekly: return Self.floorDivide(day - weekOrigin, 7)
        case .daily: return day
        case .hourly: return day * 24 + secondOfDay / 3600
        case .minutely: return day * 1440 + secondOfDay / 60
        case .secondly: return Int(local)
        }
    }

    /// The first period at or after `unit` on the grid of a series whose
    /// first period is `base` (the unit containing its DTSTART).
    func alignedUnit(atOrAfter unit: Int, base: Int) -> Int {
        guard unit > base else { return base }
        let steps = (unit - base + interval - 1) / interval
        let (offset, overflow) = steps.multipliedReportingOverflow(by: interval)
        return overflow ? Int.max : base + offset
    }

    /// The last period at or before `unit` (not before `base`, DTSTART's).
    func alignedUnit(atOrBefore unit: Int, base: Int) -> Int {
        guard unit > base else { return base }
        return base + (unit - base) / interval * interval
    }

    /// The earliest wall-clock time any candidate of the period can have.
    func periodStart(_ unit: Int) -> Int64 {
        if scale != nil { return scaledPeriodStart(unit) }
        return gregorianPeriodStart(unit)
    }

    /// An RFC 7529 plan's.
    private func scaledPeriodStart(_ unit: Int) -> Int64 {
        let first = countsInChinese ? MonthScale.chineseFirstDay(ofUnit: unit, yearly: frequency == .yearly)
            : Int(Self.floorDivide64(gregorianPeriodStart(unit), 86_400))
        // SKIP=BACKWARD can move a negative day to the day before the period's first.
        return Int64(scale?.skip == .backward ? first - 1 : first) * 86_400
    }

    private func gregorianPeriodStart(_ unit: Int) -> Int64 {
        switch frequency {
        case .yearly:
            let january1 = CivilDate.dayNumber(year: unit, month: 1, day: 1)
            let first = weekNumbers.isEmpty ? january1 : min(january1, weekYearStart(unit))
            return Int64(first) * 86_400
        case .monthly:
            let year = Self.floorDivide(unit, 12)
            return Int64(CivilDate.dayNumber(year: year, month: unit - year * 12 + 1, day: 1)) * 86_400
        case .weekly: return Int64(unit * 7 + weekOrigin) * 86_400
        case .daily: return Int64(unit) * 86_400
        case .hourly: return Int64(unit) * 3600
        case .minutely: return Int64(unit) * 60
        case .secondly: return Int64(unit)
        }
    }

    /// The first day of week 1 of a year: the WKST-started week that holds
    /// at least four days of the year (RFC 5545, after ISO 8601).
    func weekYearStart(_ year: Int) -> Int {
        let january4 = CivilDate.dayNumber(year: year, month: 1, day: 4)
        let weekday = CivilDate.weekday(ofDayNumber: january4).rawValue
        return january4 - (weekday - weekStart + 7) % 7
    }

    static func floorDivide64(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }
}
