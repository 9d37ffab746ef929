import CalendarModel

/// A workday calendar for the benchmark: China's statutory days off and
/// makeup workdays of 2025 and 2026 (from the State Council's notices), the
/// ordinary Monday-to-Friday week elsewhere. A flat table by day number, as
/// a real calendar should be, so that the lookup costs what it will.
struct BenchmarkWorkdays: WorkdaySchedule {
    private static let workday: UInt8 = 1, makeup: UInt8 = 2, halfDay: UInt8 = 4, morningWorked: UInt8 = 8
    private let firstDay: Int
    private var days: [UInt8]

    /// `daysOff` and `makeupWorkdays` hold dates (`2025-01-01`) and ranges
    /// (`2025-01-28...2025-02-04`) within `years`.
    init(years: ClosedRange<Int>, daysOff: [String], makeupWorkdays: [String]) {
        firstDay = CivilDate.dayNumber(year: years.lowerBound, month: 1, day: 1)
        let end = CivilDate.dayNumber(year: years.upperBound + 1, month: 1, day: 1)
        let first = firstDay
        var days = (first..<end).map { OrdinaryWeek().isWorkday(CivilDate(dayNumber: $0)) ? Self.workday : 0 }
        func dayNumbers(_ text: String) -> ClosedRange<Int> {
            let ends = text.components(separatedBy: "...").map { CivilDate(parsing: $0)!.dayNumber }
            return ends[0]...ends[ends.count - 1]
        }
        for text in daysOff { for day in dayNumbers(text) { days[day - first] = 0 } }
        for text in makeupWorkdays { for day in dayNumbers(text) { days[day - first] = Self.workday | Self.makeup } }
        self.days = days
    }

    @inline(__always)
    private func bits(_ date: CivilDate) -> UInt8? {
        let index = date.dayNumber - firstDay
        return index >= 0 && index < days.count ? days[index] : nil
    }

    func isWorkday(_ date: CivilDate) -> Bool {
        guard let bits = bits(date) else { return date.weekday != .saturday && date.weekday != .sunday }
        return bits & Self.workday != 0
    }

    func isMakeupWorkday(_ date: CivilDate) -> Bool { (bits(date) ?? 0) & Self.makeup != 0 }

    func isWorkday(_ date: CivilDate, in half: DayHalf) -> Bool {
        guard let bits = bits(date), bits & Self.halfDay != 0 else { return isWorkday(date) }
        return (bits & Self.morningWorked != 0) == (half == .morning)
    }

    private(set) var hasHalfDays = false

    /// This calendar with the morning of every `n`th workday off (half a
    /// day of leave), the afternoon worked.
    func withMorningsOff(everyNthWorkday n: Int) -> BenchmarkWorkdays {
        var calendar = self
        var count = 0
        for index in calendar.days.indices where calendar.days[index] & Self.workday != 0 {
            count += 1
            if count % n == 0 { calendar.days[index] |= Self.halfDay }
        }
        calendar.hasHalfDays = true
        return calendar
    }

    static let china2025And2026 = BenchmarkWorkdays(
        years: 2025...2026,
        daysOff: [
            "2025-01-01", "2025-01-28...2025-02-04", "2025-04-04...2025-04-06", "2025-05-01...2025-05-05",
            "2025-05-31...2025-06-02", "2025-10-01...2025-10-08",
            "2026-01-01...2026-01-03", "2026-02-15...2026-02-23", "2026-04-04...2026-04-06", "2026-05-01...2026-05-05",
            "2026-06-19...2026-06-21", "2026-09-25...2026-09-27", "2026-10-01...2026-10-07",
        ],
        makeupWorkdays: [
            "2025-01-26", "2025-02-08", "2025-04-27", "2025-09-28", "2025-10-11",
            "2026-01-04", "2026-02-14", "2026-02-28", "2026-05-09", "2026-09-20", "2026-10-10",
        ])
}
