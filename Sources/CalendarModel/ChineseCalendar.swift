/// The Chinese calendar (农历), as the civil days each of its dates falls on,
/// for the years whose new year falls in 1900 through 2100: what RFC 7529's
/// `RSCALE=CHINESE` rules count in, and what `农历八月十五` names.
///
/// A year has 12 months, or 13 when one is a leap month (闰月), which comes
/// after the ordinary month of its number (闰四月 after 四月); a month has 29
/// or 30 days. The months and their lengths are astronomical and come from
/// a table (`ChineseCalendar+Table.swift`, written from Foundation's Chinese
/// calendar and checked against it day by day and against a second
/// source): a date is a lookup, not a computation, and the same on every
/// machine. A date of another day (its months begin at China's midnight)
/// is the same for any time zone: a civil day has one Chinese date.
///
/// Years are numbered by the Gregorian year their new year (春节) falls in:
/// the year 乙巳 that began on 2025-01-29 is 2025, and its twelfth month
/// runs into 2026.
public enum ChineseCalendar {
    /// One month: its number (1–12), whether it is the leap month of that
    /// number, its first day (a day number, days since 1970-01-01) and length.
    public struct Month: Hashable, Sendable {
        public var number: Int
        public var isLeap: Bool
        public var firstDay: Int
        public var length: Int
        /// Its place in the whole table (0: the first month of 1900): months
        /// counted this way are what `FREQ=MONTHLY` steps through.
        public var index: Int
        public var lastDay: Int { firstDay + length - 1 }
    }

    /// The months of year `year` in order (12 or 13), or nil outside the table.
    public static func months(ofYear year: Int) -> ArraySlice<Month>? {
        guard (firstYear...lastYear).contains(year) else { return nil }
        let table = Table.shared
        return table.months[table.yearStarts[year - firstYear]..<table.yearStarts[year - firstYear + 1]]
    }

    /// The month at `index` (see `Month.index`), or nil outside the table.
    public static func month(atIndex index: Int) -> Month? {
        let months = Table.shared.months
        return months.indices.contains(index) ? months[index] : nil
    }

    /// How many months the table holds.
    public static var monthCount: Int { Table.shared.months.count }

    /// The month holding day number `day`, or nil outside the table.
    public static func month(containing day: Int) -> Month? {
        let months = Table.shared.months
        guard let first = months.first, let last = months.last, day >= first.firstDay, day <= last.lastDay else { return nil }
        var low = 0, high = months.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if months[middle].firstDay <= day { low = middle } else { high = middle - 1 }
        }
        return months[low]
    }

    /// The year the month at `index` belongs to.
    public static func year(ofMonthAt index: Int) -> Int {
        let starts = Table.shared.yearStarts
        var low = 0, high = starts.count - 2
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= index { low = middle } else { high = middle - 1 }
        }
        return firstYear + low
    }

    /// The Chinese date of a civil date, or nil outside the table.
    public static func date(of date: CivilDate) -> ChineseDate? {
        let day = date.dayNumber
        guard let month = month(containing: day) else { return nil }
        return ChineseDate(year: year(ofMonthAt: month.index), month: month.number, isLeapMonth: month.isLeap,
                           day: day - month.firstDay + 1)
    }

    /// The civil date of a Chinese date, or nil when there is none (a 30th
    /// of a 29-day month, a leap month the year does not have, a year
    /// outside the table).
    public static func civilDate(of date: ChineseDate) -> CivilDate? {
        guard let months = months(ofYear: date.year),
              let month = months.first(where: { $0.number == date.month && $0.isLeap == date.isLeapMonth }),
              (1...month.length).contains(date.day) else { return nil }
        return CivilDate(dayNumber: month.firstDay + date.day - 1)
    }

    /// The table unpacked once: every month in order, and where each year's begin.
    private struct Table: Sendable {
        var months: [Month] = []
        /// Index into `months` of each year's first month, and one past the last.
        var yearStarts: [Int] = []

        static let shared = Table()

        private init() {
            months.reserveCapacity(years.count * 13)
            for (offset, packed) in years.enumerated() {
                let year = firstYear + offset
                yearStarts.append(months.count)
                let leap = Int(packed >> 13 & 0xF)
                var day = CivilDate.dayNumber(year: year, month: 1, day: 1) + Int(packed >> 17)
                for position in 0..<(leap == 0 ? 12 : 13) {
                    let length = packed & (1 << UInt32(position)) != 0 ? 30 : 29
                    // Months before the leap month keep their place; the leap one repeats the number before it.
                    let number = leap == 0 || position < leap ? position + 1 : position
                    months.append(Month(number: number, isLeap: leap != 0 && position == leap, firstDay: day, length: length,
                                        index: months.count))
                    day += length
                }
            }
            yearStarts.append(months.count)
        }
    }
}

/// A date of the Chinese calendar: `2025-08-15` is 农历八月十五 of the year
/// that began in 2025 (乙巳), which fell on 2025-10-06.
public struct ChineseDate: Hashable, Sendable, CustomStringConvertible {
    /// The Gregorian year its new year fell in (see `ChineseCalendar`).
    public var year: Int
    /// 1–12.
    public var month: Int
    public var isLeapMonth: Bool
    /// 1–30.
    public var day: Int

    public init(year: Int, month: Int, isLeapMonth: Bool = false, day: Int) {
        self.year = year
        self.month = month
        self.isLeapMonth = isLeapMonth
        self.day = day
    }

    /// `八月十五`, `闰四月初八`, `正月初一`, `腊月三十`: the month and day as
    /// people say them, without the year.
    public var monthAndDay: String { Self.monthName(month, leap: isLeapMonth) + Self.dayName(day) }

    /// `农历三月初八`: the month and day named as a date of the Chinese
    /// calendar, as it is written beside a Gregorian one.
    public var lunarMonthAndDay: String { "农历" + monthAndDay }

    /// `2025 八月十五`.
    public var description: String { "\(year) \(monthAndDay)" }

    /// Reads a month and day of the Chinese calendar from the front of
    /// `text`, and takes it off: `八月十五`, `闰四月初八`, `正月初一`, `冬月`/`十一月`,
    /// `腊月廿九`, `二月二十一`, `8月15日`. Nil, leaving `text` alone, when it
    /// starts with none.
    public static func takeMonthAndDay(_ text: inout Substring) -> (month: Int, isLeapMonth: Bool, day: Int)? {
        var rest = text
        let leap = rest.hasPrefix("闰")
        if leap { rest = rest.dropFirst() }
        guard let (month, monthLength) = monthWords.first(where: { rest.hasPrefix($0.0) }).map({ ($0.1, $0.0.count) }) else { return nil }
        rest = rest.dropFirst(monthLength)
        guard let (word, day) = dayWords.first(where: { rest.hasPrefix($0.0) }) else { return nil }
        rest = rest.dropFirst(word.count)
        // `8月15日`: a day in digits may have 日 or 号 after it.
        if word.first?.isASCII == true, let next = rest.first, next == "日" || next == "号" { rest = rest.dropFirst() }
        text = rest
        return (month, leap, day)
    }

    /// Reads a day of a Chinese month from the front of `text`: `初一`, `十五`, `廿九`, `三十`, `15`.
    public static func takeDay(_ text: inout Substring) -> Int? {
        guard let (day, length) = dayWords.first(where: { text.hasPrefix($0.0) }).map({ ($0.1, $0.0.count) }) else { return nil }
        text = text.dropFirst(length)
        return day
    }

    /// Month words, longest first so that `十一月` is not read as `十月`'s start.
    private static let monthWords: [(String, Int)] = {
        let numerals = ["一", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二"]
        var words: [(String, Int)] = [("正月", 1), ("冬月", 11), ("腊月", 12)]
        for (index, numeral) in numerals.enumerated() { words.append((numeral + "月", index + 1)) }
        for month in 1...12 { words.append(("\(month)月", month)) }
        return words.sorted { $0.0.count > $1.0.count }
    }()

    /// Day words, longest first: the names, `二十一`…`二十九` beside `廿一`…, and digits.
    private static let dayWords: [(String, Int)] = {
        let digits = ["一", "二", "三", "四", "五", "六", "七", "八", "九"]
        var words = (1...30).map { (dayName($0), $0) }
        for (index, digit) in digits.enumerated() { words.append(("二十" + digit, 21 + index)) }
        for day in 1...30 { words.append((String(day), day)) }
        return words.sorted { $0.0.count > $1.0.count }
    }()

    static let monthNames = ["正月", "二月", "三月", "四月", "五月", "六月", "七月", "八月", "九月", "十月", "冬月", "腊月"]

    /// `正月`, `闰四月`, `腊月` (1–12).
    public static func monthName(_ month: Int, leap: Bool) -> String {
        (leap ? "闰" : "") + monthNames[(month - 1) % 12]
    }

    /// `初一` … `初十`, `十一` … `二十`, `廿一` … `三十` (1–30).
    public static func dayName(_ day: Int) -> String {
        let digits = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九"]
        switch day {
        case 1...9: return "初" + digits[day]
        case 10: return "初十"
        case 11...19: return "十" + digits[day - 10]
        case 20: return "二十"
        case 21...29: return "廿" + digits[day - 20]
        default: return "三十"
        }
    }
}
