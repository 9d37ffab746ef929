import CalendarModel

/// The months an RFC 7529 rule (`RecurrenceRule.isScaled`) counts in, and
/// its SKIP: how `PeriodExpander` finds the days of a year or month of the
/// Chinese calendar, or of a Gregorian one whose missing dates move.
///
/// Periods are numbered as for other rules: a YEARLY unit is a year (for
/// the Chinese calendar, the Gregorian year its new year falls in), a
/// MONTHLY unit a month since an origin (for the Chinese calendar, the
/// table's months in order, leap months included, 0 the first of 1900).
/// Outside the Chinese table's years the units go on, one per Gregorian
/// year or 30 days, and hold no days: a Chinese rule has no occurrences
/// before 1900 or after 2100.
///
/// Expansion within a period, in this order (RFC 7529 §4.2):
/// 1. the months: YEARLY expands BYMONTH (or DTSTART's month, a leap month
///    if it was one; every month of the year when only BYMONTHDAY is
///    given), MONTHLY is limited by it (`4` matches the ordinary fourth
///    month only, `4L` the leap one). A leap month the year has not is
///    left out, or with SKIP=BACKWARD the ordinary month of its number
///    stands for it, with FORWARD the month after that one;
/// 2. the days: BYMONTHDAY (or DTSTART's day), counted from the end when
///    negative. A day the month has not is left out, or moves to the
///    month's last day (BACKWARD; the day before its first for a negative
///    one) or to the day after the month (FORWARD; its first for a negative one);
/// 3. the times of day, then BYSETPOS, as for any rule.
/// Days that two of these name are one.
struct MonthScale: Sendable {
    let scale: RecurrenceRule.Scale
    let skip: RecurrenceRule.Skip

    /// One month of the scale: what `ChineseCalendar.Month` is for a Chinese one.
    struct Month {
        var number: Int
        var isLeap: Bool
        var firstDay: Int
        var length: Int
        var lastDay: Int { firstDay + length - 1 }
    }

    // MARK: Periods

    /// The months of a YEARLY unit, in order (none outside the Chinese table).
    func months(ofYear year: Int) -> [Month] {
        switch scale {
        case .gregorian:
            return (1...12).map { Self.gregorianMonth(year: year, month: $0) }
        case .chinese:
            return ChineseCalendar.months(ofYear: year)?.map(Self.month) ?? []
        }
    }

    /// The month of a MONTHLY unit, or nil outside the Chinese table.
    func month(ofUnit unit: Int) -> Month? {
        switch scale {
        case .gregorian:
            let year = ExpansionPlan.floorDivide(unit, 12)
            return Self.gregorianMonth(year: year, month: unit - year * 12 + 1)
        case .chinese:
            return ChineseCalendar.month(atIndex: unit).map(Self.month)
        }
    }

    /// The month after the ordinary month `number` of `year`: where FORWARD
    /// puts a leap month the year has not.
    func month(after number: Int, ofYear year: Int) -> Month? {
        switch scale {
        case .gregorian:
            return number == 12 ? Self.gregorianMonth(year: year + 1, month: 1) : Self.gregorianMonth(year: year, month: number + 1)
        case .chinese:
            guard let ordinary = ChineseCalendar.months(ofYear: year)?.first(where: { $0.number == number && !$0.isLeap }) else {
                return nil
            }
            return ChineseCalendar.month(atIndex: ordinary.index + 1).map(Self.month)
        }
    }

    /// The Chinese unit holding a day, going on past the table at a year
    /// (YEARLY) or 30 days (MONTHLY) a unit, so that units keep their order.
    static func chineseUnit(containingDay day: Int, yearly: Bool) -> Int {
        if let month = ChineseCalendar.month(containing: day) {
            return yearly ? ChineseCalendar.year(ofMonthAt: month.index) : month.index
        }
        let (first, last) = chineseSpan
        if day < first {
            return yearly ? min(ChineseCalendar.firstYear - 1, CivilDate(dayNumber: day).year - 1) : -1 - (first - 1 - day) / 30
        }
        return yearly ? max(ChineseCalendar.lastYear + 1, CivilDate(dayNumber: day).year)
                      : ChineseCalendar.monthCount + (day - last - 1) / 30
    }

    /// The first day of a Chinese unit; before the table, a day no later
    /// than the first of the units after it (past the table nothing is asked).
    static func chineseFirstDay(ofUnit unit: Int, yearly: Bool) -> Int {
        if yearly {
            if let months = ChineseCalendar.months(ofYear: unit) { return months.first!.firstDay }
            return unit < ChineseCalendar.firstYear ? CivilDate.dayNumber(year: unit + 1, month: 1, day: 1) : chineseSpan.last + 1
        }
        if let month = ChineseCalendar.month(atIndex: unit) { return month.firstDay }
        return unit < 0 ? chineseSpan.first + unit * 30 : chineseSpan.last + 1
    }

    /// The last unit that can hold a Chinese day.
    static func chineseLastUnit(yearly: Bool) -> Int { yearly ? ChineseCalendar.lastYear : ChineseCalendar.monthCount - 1 }

    /// The table's first and last day.
    private static let chineseSpan: (first: Int, last: Int) = {
        let first = ChineseCalendar.month(atIndex: 0)!.firstDay
        return (first, ChineseCalendar.month(atIndex: ChineseCalendar.monthCount - 1)!.lastDay)
    }()

    // MARK: Resolving

    /// The day `value` (BYMONTHDAY: 1…31 or -31…-1) of `month`, moved by
    /// SKIP when the month has no such day; nil when it is left out.
    func day(_ value: Int, of month: Month) -> Int? {
        let position = value > 0 ? value : month.length + 1 + value
        if position >= 1 && position <= month.length { return month.firstDay + position - 1 }
        switch skip {
        case .omit: return nil
        case .backward: return position > month.length ? month.lastDay : month.firstDay - 1
        case .forward: return position > month.length ? month.lastDay + 1 : month.firstDay
        }
    }

    /// The month `number` (a leap one if `leap`) of a year's months, or what
    /// SKIP puts in its place; nil when it is left out.
    func month(_ number: Int, leap: Bool, in months: [Month], year: Int) -> Month? {
        if let month = months.first(where: { $0.number == number && $0.isLeap == leap }) { return month }
        guard leap else { return nil }
        switch skip {
        case .omit: return nil
        case .backward: return months.first { $0.number == number && !$0.isLeap }
        case .forward: return month(after: number, ofYear: year)
        }
    }

    private static func month(_ month: ChineseCalendar.Month) -> Month {
        Month(number: month.number, isLeap: month.isLeap, firstDay: month.firstDay, length: month.length)
    }

    private static func gregorianMonth(year: Int, month: Int) -> Month {
        Month(number: month, isLeap: false, firstDay: CivilDate.dayNumber(year: year, month: month, day: 1),
              length: CivilDate.daysInMonth(year: year, month: month))
    }
}
