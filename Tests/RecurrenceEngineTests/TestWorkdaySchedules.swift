import CalendarModel
import SeededRandom

/// A workday calendar from literal dates: the ordinary week, less the days
/// off, plus the makeup workdays; and days worked in one half only.
struct TableSchedule: WorkdaySchedule {
    let week: OrdinaryWeek
    let daysOff: Set<CivilDate>
    let makeupWorkdays: Set<CivilDate>
    /// The half worked, on a day worked in one half only.
    let workedHalves: [CivilDate: DayHalf]
    private(set) var morningEnd = DayHalf.defaultMorningEnd

    /// Dates as `2024-02-10`, or ranges as `2024-02-10...2024-02-17`.
    init(week: OrdinaryWeek = OrdinaryWeek(), daysOff: [String], makeupWorkdays: [String]) {
        self.init(week: week, daysOff: Set(daysOff.flatMap(Self.dates)), makeupWorkdays: Set(makeupWorkdays.flatMap(Self.dates)), workedHalves: [:])
    }

    private init(week: OrdinaryWeek, daysOff: Set<CivilDate>, makeupWorkdays: Set<CivilDate>, workedHalves: [CivilDate: DayHalf]) {
        (self.week, self.daysOff, self.makeupWorkdays, self.workedHalves) = (week, daysOff, makeupWorkdays, workedHalves)
    }

    /// This schedule with days worked in one half only (`2024-02-06`: the half worked) too.
    func working(_ halves: [String: DayHalf]) -> TableSchedule {
        TableSchedule(week: week, daysOff: daysOff, makeupWorkdays: makeupWorkdays,
                      workedHalves: Dictionary(uniqueKeysWithValues: halves.map { (CivilDate(parsing: $0.key)!, $0.value) }))
    }

    /// This schedule with mornings that end at `minutes` after midnight (their last minute).
    func endingMornings(at minutes: Int) -> TableSchedule {
        var schedule = self
        schedule.morningEnd = minutes
        return schedule
    }

    func isWorkday(_ date: CivilDate) -> Bool {
        workedHalves[date] != nil || makeupWorkdays.contains(date) || (!daysOff.contains(date) && week.isWorkday(date))
    }

    func isMakeupWorkday(_ date: CivilDate) -> Bool { makeupWorkdays.contains(date) }

    func isWorkday(_ date: CivilDate, in half: DayHalf) -> Bool {
        workedHalves[date].map { $0 == half } ?? isWorkday(date)
    }

    var hasHalfDays: Bool { !workedHalves.isEmpty }

    private static func dates(_ text: String) -> [CivilDate] {
        let ends = text.components(separatedBy: "...").map { CivilDate(parsing: $0)! }
        return (ends[0].dayNumber...ends[ends.count - 1].dayNumber).map(CivilDate.init(dayNumber:))
    }

    /// China's 2021 and 2024 schedules, from the State Council's notices
    /// (other years follow the ordinary week here).
    ///
    /// 2021: New Year 01-01…03; Spring Festival 02-11…17 (makeup Sun 02-07,
    /// Sat 02-20); Qingming 04-03…05; Labour Day 05-01…05 (makeup Sun 04-25,
    /// Sat 05-08); Dragon Boat 06-12…14; Mid-Autumn 09-19…21 (makeup Sat
    /// 09-18); National Day 10-01…07 (makeup Sun 09-26, Sat 10-09).
    /// 2024: New Year 01-01; Spring Festival 02-10…17 (makeup Sun 02-04, Sun
    /// 02-18); Qingming 04-04…06 (makeup Sun 04-07); Labour Day 05-01…05
    /// (makeup Sun 04-28, Sat 05-11); Dragon Boat 06-10; Mid-Autumn 09-15…17
    /// (makeup Sat 09-14); National Day 10-01…07 (makeup Sun 09-29, Sat 10-12).
    static let china = TableSchedule(
        daysOff: [
            "2021-01-01...2021-01-03", "2021-02-11...2021-02-17", "2021-04-03...2021-04-05", "2021-05-01...2021-05-05",
            "2021-06-12...2021-06-14", "2021-09-19...2021-09-21", "2021-10-01...2021-10-07",
            "2024-01-01", "2024-02-10...2024-02-17", "2024-04-04...2024-04-06", "2024-05-01...2024-05-05",
            "2024-06-10", "2024-09-15...2024-09-17", "2024-10-01...2024-10-07",
        ],
        makeupWorkdays: [
            "2021-02-07", "2021-02-20", "2021-04-25", "2021-05-08", "2021-09-18", "2021-09-26", "2021-10-09",
            "2024-02-04", "2024-02-18", "2024-04-07", "2024-04-28", "2024-05-11", "2024-09-14", "2024-09-29", "2024-10-12",
        ])
}

/// A random workday calendar that repeats with a period of 773 or 2,319
/// days, so that it answers for every date at the cost of one array lookup:
/// a random ordinary week (now and then none, or all seven days), random
/// breaks of days off (now and then one longer than a year), and random
/// makeup workdays on the ordinary weekend.
///
/// The periods divide 400 Gregorian years (146,097 = 3³ × 7 × 773 days), as
/// the ordinary week does: the engine ends a workday rule that keeps nothing
/// for as long as its pattern takes to repeat, which is a proof only for
/// calendars that repeat within that time. (Real ones are the ordinary week
/// outside a span of years.)
struct RandomSchedule: WorkdaySchedule, CustomStringConvertible {
    private static let workday: UInt8 = 1, makeup: UInt8 = 2
    let firstDay: Int
    let days: [UInt8]
    private(set) var summary: String
    let makeupCount: Int
    private(set) var morningEnd = DayHalf.defaultMorningEnd
    /// The most consecutive days off anywhere (the table repeats).
    let longestBreak: Int

    init(_ random: inout SplitMix64, around center: CivilDate) {
        let week: Set<Int>
        switch random.int(0...19) {
        case 0: week = []
        case 1: week = Set(0...6)
        case 2...5: week = Set(random.distinct(random.int(1...6), from: 0...6))
        default: week = [1, 2, 3, 4, 5]
        }
        let length = random.chance(0.5) ? 773 : 2319
        let first = center.dayNumber - random.int(0...length)
        firstDay = first
        var days = (0..<length).map { index -> UInt8 in
            week.contains(CivilDate.weekday(ofDayNumber: first + index).rawValue) ? Self.workday : 0
        }
        var breaks = 0, longBreak = 0, makeups = 0
        for _ in 0..<random.int(0...(length / 40)) {
            let first = random.int(0...(length - 1))
            for index in first..<min(length, first + random.int(1...10)) { days[index] = 0 }
            breaks += 1
        }
        if random.chance(0.12) {
            // A break longer than FORWARD and BACKWARD look.
            let span = random.int(300...420)
            let first = random.int(0...max(0, length - span))
            for index in first..<min(length, first + span) { days[index] = 0 }
            longBreak = span
        }
        // A calendar with no workday at all is tested on its own; here it
        // would only walk to the 400-year bound.
        for _ in 0..<random.int((week.isEmpty ? 1 : 0)...(length / 20)) {
            let index = random.int(0...(length - 1))
            if days[index] != Self.workday {
                days[index] = Self.workday | Self.makeup
                makeups += 1
            }
        }
        self.days = days
        makeupCount = makeups
        var longest = 0, run = 0
        for index in 0..<(2 * length) {
            run = days[index % length] & Self.workday == 0 ? run + 1 : 0
            longest = max(longest, min(run, length))
        }
        longestBreak = longest
        summary = "week \(week.sorted()), \(length)-day period from \(CivilDate(dayNumber: first)), "
            + "\(breaks) breaks, \(makeups) makeup days" + (longBreak > 0 ? ", a \(longBreak)-day break" : "")
    }

    /// Per day of the period: 0, or the half worked (`morningOnly`,
    /// `afternoonOnly`) of a day worked in one half only; empty: none.
    private var halves: [UInt8] = []
    private static let morningOnly: UInt8 = 1, afternoonOnly: UInt8 = 2

    /// This calendar with days worked in one half only, repeating with it:
    /// a workday's morning or afternoon off (half a day of leave) on about
    /// one day in ten, and a day off's half worked now and then.
    func withHalfDays(_ random: inout SplitMix64) -> RandomSchedule {
        var schedule = self
        schedule.halves = days.map { bits in
            let chance = bits & Self.workday != 0 ? 0.1 : 0.03
            return random.chance(chance) ? (random.chance(0.5) ? Self.morningOnly : Self.afternoonOnly) : 0
        }
        let count = schedule.halves.count { $0 != 0 }
        // Mostly a lunch break's minutes, sometimes any minute at all.
        schedule.morningEnd = random.element([DayHalf.defaultMorningEnd, 690, 750, 779, random.int(0...DayHalf.latestMorningEnd)])
        schedule.summary += ", \(count) half days, mornings to minute \(schedule.morningEnd)"
        return schedule
    }

    private func slot(_ date: CivilDate) -> Int {
        let offset = (date.dayNumber - firstDay) % days.count
        return offset < 0 ? offset + days.count : offset
    }

    private func bits(_ date: CivilDate) -> UInt8 { days[slot(date)] }
    private func half(_ date: CivilDate) -> UInt8 { halves.isEmpty ? 0 : halves[slot(date)] }

    func isWorkday(_ date: CivilDate) -> Bool { bits(date) & Self.workday != 0 || half(date) != 0 }
    func isMakeupWorkday(_ date: CivilDate) -> Bool { bits(date) & Self.makeup != 0 }

    func isWorkday(_ date: CivilDate, in half: DayHalf) -> Bool {
        switch self.half(date) {
        case Self.morningOnly: half == .morning
        case Self.afternoonOnly: half == .afternoon
        default: bits(date) & Self.workday != 0
        }
    }

    var hasHalfDays: Bool { !halves.isEmpty }
    var description: String { summary }
}
