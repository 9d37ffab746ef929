import CalendarModel
import Foundation
import RecurrenceEngine
import Testing
import TestSupport

/// RFC 7529 rules (RSCALE=CHINESE, SKIP, leap months) against two
/// oracles, each on the part where it follows the RFC; what neither
/// covers is pinned by literals (`knownDays`).
///
/// - Foundation's `Calendar.RecurrenceRule` on its Chinese calendar, the
///   one Chime's table was written from: yearly and monthly rules, leap
///   months and SKIP as its matching policy. It keeps no time of day on a
///   Chinese rule, applies its matching policy to a missing month only,
///   never to a missing BYMONTHDAY, and loses its way where a 60-year cycle
///   begins (甲子, 2044: it skips that year or stops), so it is compared
///   through 2043 on dates.
/// - libical (Debian builds it with ICU): SKIP on BYMONTHDAY, times,
///   BYSETPOS, OMIT and BACKWARD on a 30th. Its Chinese months begin a day early or late in 13 months
///   of 1900–2100 (the last in 2030; its 2027 new year is February 7,
///   the Hong Kong Observatory's and Foundation's February 6), so its
///   rules start in 2031 and are compared through 2100. It also counts a
///   Chinese MONTHLY INTERVAL from the wrong month, takes a YEARLY
///   BYMONTHDAY's month from DTSTART, moves a missing leap month by one
///   month too many in a year with another leap month, and loses or
///   misplaces days that FORWARD moves or that a negative BYMONTHDAY names:
///   none of those shapes is in its corpus (`knownDays` pins them).
@Suite("Chinese-calendar and SKIP rules (RFC 7529)")
struct ChineseRecurrenceTests {
    /// All-day starts (basic form) and rules for Foundation.
    static let foundationCorpus: [(start: String, rule: String)] = [
        ("20130210", "RSCALE=CHINESE;FREQ=YEARLY"),
        ("20251006", "RSCALE=CHINESE;FREQ=YEARLY"),
        ("20251006", "RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=8;BYMONTHDAY=15"),
        ("20261209", "RSCALE=CHINESE;FREQ=MONTHLY;INTERVAL=3"),
        ("20261209", "RSCALE=CHINESE;FREQ=MONTHLY"),
        ("20261209", "RSCALE=CHINESE;FREQ=YEARLY;INTERVAL=2;BYMONTH=3,9;BYMONTHDAY=3"),
        ("20261209", "RSCALE=CHINESE;FREQ=MONTHLY;COUNT=7"),
        ("20261209", "RSCALE=CHINESE;FREQ=YEARLY;UNTIL=20400101"),
        // Born on 闰四月初八 (2020-05-30), and on 闰二月初一 (2023-03-22): the years without them, each way.
        ("20200530", "RSCALE=CHINESE;FREQ=YEARLY;SKIP=BACKWARD"),
        ("20200530", "RSCALE=CHINESE;FREQ=YEARLY;SKIP=FORWARD"),
        ("20230322", "RSCALE=CHINESE;FREQ=YEARLY;SKIP=BACKWARD"),
        ("20230322", "RSCALE=CHINESE;FREQ=YEARLY;SKIP=FORWARD"),
        ("20230405", "RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=2L;BYMONTHDAY=15"),
        ("20230405", "RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=2L;BYMONTHDAY=15;SKIP=BACKWARD"),
        ("20230405", "RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=2L;BYMONTHDAY=15;SKIP=FORWARD"),
        ("20260131", "RSCALE=GREGORIAN;FREQ=MONTHLY;SKIP=BACKWARD"),
        ("20260131", "RSCALE=GREGORIAN;FREQ=MONTHLY;SKIP=FORWARD"),
        ("20240229", "RSCALE=GREGORIAN;FREQ=YEARLY;SKIP=BACKWARD"),
        ("20240229", "RSCALE=GREGORIAN;FREQ=YEARLY;SKIP=FORWARD"),
    ]

    /// Starts (floating, basic form) and rules for libical, from 2031.
    static let libicalCorpus: [(start: String, rule: String)] = [
        ("20310123T200000", "RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=-1"),
        ("20310123T000000", "RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=1;BYMONTHDAY=1,15;BYHOUR=8,20"),
        ("20310123T083000", "RSCALE=CHINESE;FREQ=MONTHLY;BYMONTHDAY=1,15"),
        ("20310123", "RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=1,2,2L,6,6L;BYMONTHDAY=1;BYSETPOS=-1"),
        ("20310123", "RSCALE=CHINESE;FREQ=MONTHLY;BYMONTHDAY=30"),
        ("20310123", "RSCALE=CHINESE;FREQ=MONTHLY;BYMONTHDAY=30;SKIP=BACKWARD"),
        ("20310123", "RSCALE=CHINESE;FREQ=MONTHLY;BYMONTHDAY=-30"),
        ("20310123", "RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=30"),
        ("20310123", "RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=30;SKIP=BACKWARD"),
        ("20310123", "RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=30;SKIP=FORWARD"),
        ("20310123", "RSCALE=CHINESE;FREQ=MONTHLY;BYMONTH=3L,6"),
        ("20310123", "RSCALE=CHINESE;FREQ=MONTHLY;BYMONTH=3,3L;BYMONTHDAY=1"),
        ("20260131T100000", "RSCALE=GREGORIAN;FREQ=MONTHLY;BYMONTHDAY=30,31;SKIP=BACKWARD"),
        ("20260101", "RSCALE=GREGORIAN;FREQ=YEARLY;BYMONTH=2,4;BYMONTHDAY=1,29,30,31;SKIP=FORWARD"),
        ("20260131", "RSCALE=GREGORIAN;FREQ=MONTHLY;INTERVAL=5;BYMONTHDAY=31;SKIP=BACKWARD;COUNT=9"),
    ]

    static let compared = 40

    /// Where two lists of occurrences part, for a failure that can be read.
    static func firstDifference(_ mine: [String], _ expected: [String]) -> String? {
        guard mine != expected else { return nil }
        let index = (0..<min(mine.count, expected.count)).first { mine[$0] != expected[$0] } ?? min(mine.count, expected.count)
        func at(_ list: [String]) -> String { list.indices.contains(index) ? list[index] : "nothing" }
        return "occurrence \(index + 1): Chime \(at(mine)), oracle \(at(expected)) (after \(index > 0 ? mine[index - 1] : "the start"))"
    }

    static func recurrence(_ start: String, _ text: String) throws -> Recurrence {
        let rule = try RecurrenceRule(rfc5545: text)
        if let date = CivilDate(parsing: start) { return try Recurrence(rule: rule, startDate: date, timeZone: .utc) }
        return Recurrence(rule: rule, start: try #require(LocalDateTime(parsing: start)), timeZone: .utc)
    }

    @Test("each rule of the Foundation corpus gives the dates Foundation's Chinese recurrence gives", arguments: foundationCorpus)
    func agreesWithFoundation(start: String, rule text: String) throws {
        let rule = try RecurrenceRule(rfc5545: text)
        let zone = try #require(TimeZone(identifier: "Asia/Shanghai"))
        var calendar = Calendar(identifier: rule.scale == .chinese ? .chinese : .gregorian)
        calendar.timeZone = zone
        var gregorian = Calendar(identifier: .gregorian)
        gregorian.timeZone = zone
        let startDate = try #require(CivilDate(parsing: start))
        func date(_ day: CivilDate) throws -> Date {
            try #require(gregorian.date(from: DateComponents(year: day.year, month: day.month, day: day.day)))
        }
        var end = Calendar.RecurrenceRule.End.never
        switch rule.end {
        case .count(let n): end = .afterOccurrences(n)
        case .until(let until): end = .afterDate(try date(until.date))
        case nil: break
        }
        let policy: Calendar.MatchingPolicy = switch rule.skip {
        case .omit: .strict
        case .backward: .previousTimePreservingSmallerComponents
        case .forward: .nextTimePreservingSmallerComponents
        }
        let foundation = Calendar.RecurrenceRule(
            calendar: calendar, frequency: rule.frequency == .yearly ? .yearly : .monthly, interval: rule.interval, end: end,
            matchingPolicy: policy,
            months: rule.monthsOfTheYear.map { Calendar.RecurrenceRule.Month($0) } + rule.leapMonthsOfTheYear.map { Calendar.RecurrenceRule.Month($0, isLeap: true) },
            daysOfTheMonth: rule.daysOfTheMonth)
        let expected = foundation.recurrences(of: try date(startDate)).prefix(Self.compared).map { found in
            let parts = gregorian.dateComponents([.year, .month, .day], from: found)
            return CivilDate(year: parts.year!, month: parts.month!, day: parts.day!)!.basicFormat
        }
        let mine = try Self.recurrence(start, text).occurrences().prefix(Self.compared).map(\.day.basicFormat)
        // The start is the first occurrence in Chime (RFC 5545); Foundation leaves out a start the rule does not make.
        let compared = { (list: [String]) in list.filter { $0 != start && $0 < "20440101" } }
        #expect(Self.firstDifference(compared(mine), compared(Array(expected))) == nil, "\(text) from \(start)")
        #expect(compared(mine).count >= 1)
        #expect(mine.first == start)
    }

    @Test("each rule of the libical corpus gives libical's occurrences through 2100", arguments: libicalCorpus)
    func agreesWithLibical(start: String, rule text: String) throws {
        let expected = try #require(try Oracles.libicalExpand(start: start, rule: text, count: Self.compared + 1), "libical refused \(text)")
        let recurrence = try Self.recurrence(start, text)
        let mine = recurrence.occurrences().prefix(Self.compared + 1).map { occurrence in
            recurrence.isAllDay ? occurrence.day.basicFormat : occurrence.localTime.basicFormat
        }
        // The start is the first occurrence in Chime (RFC 5545); libical leaves out a start the rule does not make.
        let after = { (list: [String]) in Array(list.filter { $0 != start && $0 < "21010101" }.prefix(Self.compared - 1)) }
        #expect(Self.firstDifference(after(mine), after(expected)) == nil, "\(text) from \(start)")
        #expect(after(mine).count > 4)
        #expect(mine.first == start)
    }

    @Test("a seek into a Chinese rule finds what the walk from its start finds")
    func seeksAgreeWithTheWalk() throws {
        for (start, text) in Self.foundationCorpus + Self.libicalCorpus {
            let recurrence = try Self.recurrence(start, text)
            let walked = Array(recurrence.occurrences().prefix(30))
            for (index, occurrence) in walked.enumerated().dropLast() {
                let next = walked[index + 1].instant
                for probe in [occurrence.instant, (occurrence.instant + next) / 2, next - 1] {
                    #expect(recurrence.occurrences(after: probe).first(where: { _ in true }) == walked[index + 1], "\(text) after \(probe)")
                }
            }
        }
    }

    @Test("mid-autumn, the last day of the year and a 闰四月 birthday fall where people expect")
    func knownDays() throws {
        func days(_ text: String, from start: CivilDate, _ count: Int) throws -> [CivilDate] {
            try Recurrence(rule: try RecurrenceRule(rfc5545: text), startDate: start, timeZone: .utc).occurrences().prefix(count).map(\.day)
        }
        // 中秋节: 2025-10-06, 2026-09-25, 2027-09-15, 2028-10-03.
        #expect(try days("RSCALE=CHINESE;FREQ=YEARLY", from: CivilDate(year: 2025, month: 10, day: 6)!, 4)
            == [CivilDate(year: 2025, month: 10, day: 6)!, CivilDate(year: 2026, month: 9, day: 25)!,
                CivilDate(year: 2027, month: 9, day: 15)!, CivilDate(year: 2028, month: 10, day: 3)!])
        // 除夕, the last day of the twelfth month, 29 or 30 days long: 2026-02-16, 2027-02-05, 2028-01-25.
        #expect(try days("RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=-1", from: CivilDate(year: 2026, month: 2, day: 16)!, 3)
            == [CivilDate(year: 2026, month: 2, day: 16)!, CivilDate(year: 2027, month: 2, day: 5)!, CivilDate(year: 2028, month: 1, day: 25)!])
        // 2031's months: 正月 29 days from 2031-01-23, 二月 30, 三月 30, 闰三月 29 from 2031-04-22,
        // 四月 30 from 2031-05-21, 五月 29 from 2031-06-20.
        let year2031 = CivilDate(year: 2031, month: 1, day: 23)!
        // The 30th, else the next month's first: 正月 has none (2031-02-21, 二月初一), nor 闰三月 (2031-05-21).
        #expect(try days("RSCALE=CHINESE;FREQ=MONTHLY;BYMONTHDAY=30;SKIP=FORWARD", from: year2031, 6).dropFirst()
            == [CivilDate(year: 2031, month: 2, day: 21)!, CivilDate(year: 2031, month: 3, day: 22)!, CivilDate(year: 2031, month: 4, day: 21)!,
                CivilDate(year: 2031, month: 5, day: 21)!, CivilDate(year: 2031, month: 6, day: 19)!])
        // The 30th from the end: a 29-day month has none, so BACKWARD takes the month before's last
        // day (2031-04-21 for 闰三月, 2031-06-19 for 五月), FORWARD the month's first (2031-04-22, 2031-06-20).
        #expect(try days("RSCALE=CHINESE;FREQ=MONTHLY;BYMONTHDAY=-30;SKIP=BACKWARD", from: year2031, 6).dropFirst()
            == [CivilDate(year: 2031, month: 2, day: 21)!, CivilDate(year: 2031, month: 3, day: 23)!, CivilDate(year: 2031, month: 4, day: 21)!,
                CivilDate(year: 2031, month: 5, day: 21)!, CivilDate(year: 2031, month: 6, day: 19)!])
        #expect(try days("RSCALE=CHINESE;FREQ=MONTHLY;BYMONTHDAY=-30;SKIP=FORWARD", from: year2031, 6).dropFirst()
            == [CivilDate(year: 2031, month: 2, day: 21)!, CivilDate(year: 2031, month: 3, day: 23)!, CivilDate(year: 2031, month: 4, day: 22)!,
                CivilDate(year: 2031, month: 5, day: 21)!, CivilDate(year: 2031, month: 6, day: 20)!])
        // Every 3 months from 冬月初一 2026 (2026-12-09) is 二月初一 2027 (2027-03-08), 五月初一 (2027-06-05).
        #expect(try days("RSCALE=CHINESE;FREQ=MONTHLY;INTERVAL=3", from: CivilDate(year: 2026, month: 12, day: 9)!, 3)
            == [CivilDate(year: 2026, month: 12, day: 9)!, CivilDate(year: 2027, month: 3, day: 8)!, CivilDate(year: 2027, month: 6, day: 5)!])
        // BYMONTHDAY at YEARLY without BYMONTH is every month's, the leap one too (RFC 5545's expansion,
        // as Gregorian rules have it): 2031's first days are 13.
        #expect(try days("RSCALE=CHINESE;FREQ=YEARLY;BYMONTHDAY=1", from: year2031, 14).filter { $0 < CivilDate(year: 2032, month: 2, day: 11)! }.count == 13)
        // 闰四月初八 2020 (2020-05-30): 2021 has no leap month; BACKWARD keeps 四月初八 (2021-05-19),
        // FORWARD takes 五月初八 (2021-06-17), OMIT waits for the next 闰四月 (2058-05-29).
        let birth = CivilDate(year: 2020, month: 5, day: 30)!
        #expect(try days("RSCALE=CHINESE;FREQ=YEARLY;SKIP=BACKWARD", from: birth, 2)[1] == CivilDate(year: 2021, month: 5, day: 19)!)
        #expect(try days("RSCALE=CHINESE;FREQ=YEARLY;SKIP=FORWARD", from: birth, 2)[1] == CivilDate(year: 2021, month: 6, day: 17)!)
        #expect(try days("RSCALE=CHINESE;FREQ=YEARLY", from: birth, 2)[1] == CivilDate(year: 2058, month: 5, day: 29)!)
        // The 31st of each month, else its last day: 2026-01-31, 2026-02-28, 2026-03-31, 2026-04-30.
        #expect(try days("RSCALE=GREGORIAN;FREQ=MONTHLY;SKIP=BACKWARD", from: CivilDate(year: 2026, month: 1, day: 31)!, 4)
            == [CivilDate(year: 2026, month: 1, day: 31)!, CivilDate(year: 2026, month: 2, day: 28)!,
                CivilDate(year: 2026, month: 3, day: 31)!, CivilDate(year: 2026, month: 4, day: 30)!])
    }

    @Test("a workday part applies to Chinese days: 初一 of each month moved to the next workday of China's 2024 (正月初一 2024-02-10, a Saturday in the Spring Festival, lands on 02-18, a makeup Sunday)")
    func workdayPartOnChineseDays() throws {
        let rule = try RecurrenceRule(rfc5545: "RSCALE=CHINESE;FREQ=MONTHLY;BYMONTHDAY=1;X-WORKDAY=FORWARD")
        let recurrence = try Recurrence(rule: rule, startDate: CivilDate(year: 2024, month: 1, day: 11)!, timeZone: .utc, workdays: TableSchedule.china)
        // 腊月初一 2024-01-11 (Thu), 正月初一 2024-02-10 (Sat, Spring Festival) → 02-18 (makeup Sunday),
        // 二月初一 2024-03-10 (Sun) → 03-11, 三月初一 2024-04-09 (Tue).
        #expect(recurrence.occurrences().prefix(4).map(\.day) == [
            CivilDate(year: 2024, month: 1, day: 11)!, CivilDate(year: 2024, month: 2, day: 18)!,
            CivilDate(year: 2024, month: 3, day: 11)!, CivilDate(year: 2024, month: 4, day: 9)!,
        ])
    }

    @Test("a timed Chinese rule keeps its wall-clock time across daylight saving: 中秋 at 02:30 in New York")
    func wallClockAcrossDaylightSaving() throws {
        let zone = try TimeZoneRules.named("America/New_York")
        let rule = try RecurrenceRule(rfc5545: "RSCALE=CHINESE;FREQ=MONTHLY;BYMONTHDAY=15")
        // 正月十五 2026-03-03 (EST), 二月十五 2026-04-02 (EDT): 02:30 local either side of the change on 03-08.
        let recurrence = Recurrence(rule: rule, start: LocalDateTime(parsing: "2026-03-03T02:30:00")!, timeZone: zone)
        #expect(recurrence.occurrences().prefix(2).map(\.rfc3339) == ["2026-03-03T02:30:00-05:00", "2026-04-02T02:30:00-04:00"])
    }

    @Test("a Chinese rule ends with the table's years: no occurrence after 2100, and the walk stops")
    func endsWithTheTable() throws {
        let recurrence = try Recurrence(rule: try RecurrenceRule(rfc5545: "RSCALE=CHINESE;FREQ=MONTHLY;BYMONTHDAY=1"),
                                        startDate: CivilDate(year: 2099, month: 1, day: 21)!, timeZone: .utc)
        // 2099 has 13 months (闰二月), 2100 12; the last begins on 2100-12-31.
        let all = Array(recurrence.occurrences())
        #expect(all.count == 25)
        #expect(all.last?.day == CivilDate(year: 2100, month: 12, day: 31))
        #expect(recurrence.occurrences(after: all.last!.instant).first(where: { _ in true }) == nil)
        // Before the table there is only the start.
        let early = try Recurrence(rule: try RecurrenceRule(rfc5545: "RSCALE=CHINESE;FREQ=YEARLY;COUNT=3"),
                                   startDate: CivilDate(year: 1850, month: 6, day: 1)!, timeZone: .utc)
        #expect(early.occurrences().prefix(3).map(\.day.year) == [1850, 1900, 1901])
    }
}
