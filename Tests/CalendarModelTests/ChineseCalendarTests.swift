import CalendarModel
import Foundation
import Testing
import TestSupport

@Suite("The Chinese calendar's table")
struct ChineseCalendarTests {
    @Test("every day of the table has the month, leap month and day Foundation's Chinese calendar gives it, and reads back")
    func everyDayAgreesWithFoundation() throws {
        var chinese = Calendar(identifier: .chinese)
        chinese.timeZone = try #require(TimeZone(identifier: "Asia/Shanghai"))
        let first = try #require(ChineseCalendar.months(ofYear: ChineseCalendar.firstYear)?.first).firstDay
        let last = try #require(ChineseCalendar.months(ofYear: ChineseCalendar.lastYear)?.last).lastDay
        #expect(CivilDate(dayNumber: first) == CivilDate(year: 1900, month: 1, day: 31))
        var differences: [String] = []
        var zeroBasedMonth = false
        for day in first...last {
            let civil = CivilDate(dayNumber: day)
            // Noon in China: the day, whatever the zone's offset that year.
            let parts = chinese.dateComponents([.month, .day, .isLeapMonth], from: Date(timeIntervalSince1970: Double(day * 86_400 + 4 * 3600)))
            let date = try #require(ChineseCalendar.date(of: civil))
            // In a month whose new moon falls just before midnight (from 2057-09-28 and 2097-08-07),
            // ICU numbers the days from 0: its month begins where the table's does, its days lag by one.
            if parts.day == 0 { zeroBasedMonth = true } else if parts.day == 1 && zeroBasedMonth && date.day == 1 { zeroBasedMonth = false }
            let day = zeroBasedMonth ? parts.day! + 1 : parts.day
            if date.month != parts.month || date.day != day || date.isLeapMonth != parts.isLeapMonth {
                differences.append("\(civil): \(date) but Foundation \(parts.month!)\(parts.isLeapMonth! ? "L" : "")/\(parts.day!)")
            }
            if ChineseCalendar.civilDate(of: date) != civil { differences.append("\(civil) → \(date) → \(String(describing: ChineseCalendar.civilDate(of: date)))") }
            if differences.count > 10 { break }
        }
        #expect(differences.isEmpty, "\(differences)")
        #expect(ChineseCalendar.date(of: CivilDate(dayNumber: first - 1)) == nil)
        #expect(ChineseCalendar.date(of: CivilDate(dayNumber: last + 1)) == nil)
    }

    /// The months whose first day ICU (Chime's table) and the Hong Kong
    /// Observatory (lunardate's) put a day apart: new moons within minutes
    /// of midnight, and before 1929 the day reckoned in Beijing's local mean
    /// time rather than UTC+8. Each: the year, the month, Chime's first day,
    /// lunardate's.
    static let knownDifferences = [
        "1914 10 1914-11-18 1914-11-17", "1916 1 1916-02-04 1916-02-03", "1920 10 1920-11-11 1920-11-10",
        "1933 6 1933-07-23 1933-07-22", "1954 11 1954-11-25 1954-11-26", "1978 8 1978-09-03 1978-09-02",
    ]

    @Test("every month of 1900 to 2099 begins on the day the lunardate package (a table of its own) has, but for six known ones")
    func monthsAgreeWithLunardate() throws {
        let lines = try Oracles.lunardateYears()
        #expect(lines.count == 200)
        var differences: [String] = []
        for line in lines {
            let words = line.split(separator: " ").map(String.init)
            let year = try #require(Int(words[0]))
            let months = try #require(ChineseCalendar.months(ofYear: year), "year \(year)")
            #expect(months.map { "\($0.number)\($0.isLeap ? "L" : "")" } == words.dropFirst(2).map { String($0.split(separator: ":")[0]) }, "year \(year)")
            var first = try #require(CivilDate(parsing: words[1])).dayNumber
            for (month, word) in zip(months, words.dropFirst(2)) {
                if month.firstDay != first {
                    differences.append("\(year) \(word.split(separator: ":")[0]) \(CivilDate(dayNumber: month.firstDay)) \(CivilDate(dayNumber: first))")
                }
                first += try #require(Int(word.split(separator: ":")[1]))
            }
        }
        #expect(differences == Self.knownDifferences)
    }

    @Test("known dates: new years, mid-autumn days and leap months")
    func knownDates() throws {
        // 春节 (正月初一).
        for (year, month, day) in [(2024, 2, 10), (2025, 1, 29), (2026, 2, 17), (2027, 2, 6)] {
            #expect(ChineseCalendar.civilDate(of: ChineseDate(year: year, month: 1, day: 1)) == CivilDate(year: year, month: month, day: day))
        }
        // 中秋节 (八月十五): 2025-10-06, 2026-09-25.
        #expect(ChineseCalendar.civilDate(of: ChineseDate(year: 2025, month: 8, day: 15)) == CivilDate(year: 2025, month: 10, day: 6))
        #expect(ChineseCalendar.date(of: CivilDate(year: 2026, month: 9, day: 25)!) == ChineseDate(year: 2026, month: 8, day: 15))
        // 2023 has 闰二月 from 2023-03-22; 2025 闰六月 from 2025-07-25; 2026 none.
        #expect(ChineseCalendar.date(of: CivilDate(year: 2023, month: 3, day: 22)!) == ChineseDate(year: 2023, month: 2, isLeapMonth: true, day: 1))
        #expect(ChineseCalendar.date(of: CivilDate(year: 2025, month: 7, day: 25)!) == ChineseDate(year: 2025, month: 6, isLeapMonth: true, day: 1))
        #expect(ChineseCalendar.months(ofYear: 2026)?.count == 12)
        #expect(ChineseCalendar.months(ofYear: 2025)?.count == 13)
        // The twelfth month of the year that began in 2025 runs into 2026 (除夕 2026-02-16).
        #expect(ChineseCalendar.date(of: CivilDate(year: 2026, month: 2, day: 16)!) == ChineseDate(year: 2025, month: 12, day: 29))
        // No 30th in a 29-day month, no leap month the year lacks, nothing outside the table.
        #expect(ChineseCalendar.civilDate(of: ChineseDate(year: 2025, month: 12, day: 30)) == nil)
        #expect(ChineseCalendar.civilDate(of: ChineseDate(year: 2026, month: 4, isLeapMonth: true, day: 8)) == nil)
        #expect(ChineseCalendar.civilDate(of: ChineseDate(year: 2101, month: 1, day: 1)) == nil)
        #expect(ChineseCalendar.months(ofYear: 1899) == nil)
    }

    @Test("months and days are named as people say them")
    func names() {
        #expect(ChineseDate(year: 2025, month: 8, day: 15).monthAndDay == "八月十五")
        #expect(ChineseDate(year: 2026, month: 1, day: 1).monthAndDay == "正月初一")
        #expect(ChineseDate(year: 2020, month: 4, isLeapMonth: true, day: 8).monthAndDay == "闰四月初八")
        #expect(ChineseDate(year: 2025, month: 12, day: 30).monthAndDay == "腊月三十")
        #expect(ChineseDate(year: 2025, month: 11, day: 20).monthAndDay == "冬月二十")
        #expect((1...30).map(ChineseDate.dayName).joined(separator: " ") ==
            "初一 初二 初三 初四 初五 初六 初七 初八 初九 初十 十一 十二 十三 十四 十五 十六 十七 十八 十九 二十 廿一 廿二 廿三 廿四 廿五 廿六 廿七 廿八 廿九 三十")
    }
}
