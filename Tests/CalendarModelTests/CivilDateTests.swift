import CalendarModel
import Foundation
import SeededRandom
import Testing

@Suite("Civil dates and wall-clock times")
struct CivilDateTests {
    /// Foundation's Gregorian calendar read in UTC is the oracle: it is proleptic
    /// from 1582 on, so every date in the range below is comparable.
    private static func utcGregorian() -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }

    // MARK: Day numbers

    @Test("day numbers of known dates match the Unix day count")
    func knownDayNumbers() throws {
        // Days since 1970-01-01, counted independently of the code under test.
        let known: [(String, Int)] = [
            ("1970-01-01", 0), ("1969-12-31", -1), ("2000-01-01", 10_957), ("2000-02-29", 11_016),
            ("2026-12-01", 20_788), ("1900-03-01", -25_508), ("1600-01-01", -135_140), ("2400-12-31", 157_419),
        ]
        for (text, number) in known {
            let date = try #require(CivilDate(parsing: text))
            #expect(date.dayNumber == number, "\(text)")
            #expect(CivilDate(dayNumber: number) == date, "\(number)")
        }
    }

    @Test("every day from 1600 to 2400 has Foundation's year, month, day and weekday")
    func everyDayAgainstFoundation() {
        let calendar = Self.utcGregorian()
        var mismatches: [String] = []
        // 1600-01-01 through 2400-12-31.
        for number in -135_140...157_419 {
            let date = CivilDate(dayNumber: number)
            let parts = calendar.dateComponents([.year, .month, .day, .weekday],
                                                from: Date(timeIntervalSince1970: Double(number) * 86_400))
            // Foundation numbers weekdays 1 (Sunday) to 7.
            if date.year != parts.year || date.month != parts.month || date.day != parts.day
                || date.weekday.rawValue + 1 != parts.weekday || date.dayNumber != number {
                mismatches.append("day \(number): ours \(date) \(date.weekday), Foundation \(parts)")
                if mismatches.count > 10 { break }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
    }

    @Test("a date's day number is its own inverse and successive days are one apart")
    func dayNumberIsContinuous() throws {
        // Walking month by month with the validating initializer, rather than
        // from day numbers, catches an error shared by both directions.
        var expected = try #require(CivilDate(year: 1600, month: 1, day: 1)).dayNumber
        for year in 1600...2400 {
            for month in 1...12 {
                for day in 1...CivilDate.daysInMonth(year: year, month: month) {
                    let date = try #require(CivilDate(year: year, month: month, day: day))
                    if date.dayNumber != expected {
                        Issue.record("\(date) has day number \(date.dayNumber), expected \(expected)")
                        return
                    }
                    expected += 1
                }
            }
        }
    }

    @Test("weekdays of known dates", arguments: [
        ("1970-01-01", Weekday.thursday), ("2000-01-01", .saturday), ("2026-12-01", .tuesday),
        ("1600-01-01", .saturday), ("2400-12-31", .sunday), ("1969-12-31", .wednesday), ("2024-02-29", .thursday),
    ])
    func weekdays(text: String, weekday: Weekday) throws {
        let date = try #require(CivilDate(parsing: text))
        #expect(date.weekday == weekday)
    }

    @Test("day of the year counts January 1 as 1 and February 29 only in leap years")
    func dayOfYear() throws {
        #expect(try #require(CivilDate(parsing: "2026-01-01")).dayOfYear == 1)
        #expect(try #require(CivilDate(parsing: "2026-03-01")).dayOfYear == 60)
        #expect(try #require(CivilDate(parsing: "2024-03-01")).dayOfYear == 61)
        #expect(try #require(CivilDate(parsing: "2024-12-31")).dayOfYear == 366)
        #expect(try #require(CivilDate(parsing: "2026-12-31")).dayOfYear == 365)
    }

    @Test("adding days crosses month, year and leap-day boundaries")
    func addingDays() throws {
        let start = try #require(CivilDate(parsing: "2024-02-28"))
        #expect(start.adding(days: 1).description == "2024-02-29")
        #expect(start.adding(days: 2).description == "2024-03-01")
        #expect(start.adding(days: 366).description == "2025-02-28")
        #expect(start.adding(days: -59).description == "2023-12-31")
    }

    // MARK: Leap years and invalid dates

    @Test("leap years follow the Gregorian 4/100/400 rule", arguments: [
        (1900, false), (2000, true), (2100, false), (2400, true), (2024, true), (2026, false), (1600, true), (1700, false),
    ])
    func leapYears(year: Int, isLeap: Bool) {
        #expect(CivilDate.isLeapYear(year) == isLeap)
        #expect(CivilDate.daysInYear(year) == (isLeap ? 366 : 365))
        #expect(CivilDate.daysInMonth(year: year, month: 2) == (isLeap ? 29 : 28))
        #expect((CivilDate(year: year, month: 2, day: 29) != nil) == isLeap)
    }

    @Test("dates that do not exist are refused, not clamped", arguments: [
        (2026, 2, 29), (2026, 4, 31), (2026, 6, 31), (2026, 9, 31), (2026, 11, 31), (2026, 13, 1), (2026, 0, 1),
        (2026, 1, 0), (2026, 1, 32), (2026, 12, -1), (1900, 2, 29), (2100, 2, 29), (2024, 2, 30),
    ])
    func invalidDatesRefused(year: Int, month: Int, day: Int) {
        #expect(CivilDate(year: year, month: month, day: day) == nil)
    }

    @Test("the last day of every month exists")
    func lastDaysExist() {
        for (month, last) in [(1, 31), (2, 28), (3, 31), (4, 30), (5, 31), (6, 30), (7, 31), (8, 31), (9, 30), (10, 31), (11, 30), (12, 31)] {
            #expect(CivilDate(year: 2026, month: month, day: last) != nil, "2026-\(month)-\(last)")
            #expect(CivilDate(year: 2026, month: month, day: last + 1) == nil, "2026-\(month)-\(last + 1)")
        }
    }

    // MARK: Parsing and printing dates

    @Test("a date parses from the ISO 8601 extended and the RFC 5545 basic forms", arguments: ["2026-12-01", "20261201"])
    func parseDate(text: String) throws {
        let date = try #require(CivilDate(parsing: text))
        #expect(date.year == 2026)
        #expect(date.month == 12)
        #expect(date.day == 1)
    }

    @Test("a date prints in both forms with zero padding")
    func printDate() throws {
        let date = try #require(CivilDate(year: 987, month: 3, day: 4))
        #expect(date.description == "0987-03-04")
        #expect(date.basicFormat == "09870304")
    }

    @Test("malformed or impossible date text is refused", arguments: [
        "", "2026", "2026-12", "2026-12-1", "2026-1-01", "2026/12/01", "2026.12.01", "2026-12-01 ", " 2026-12-01",
        "2026-12-01x", "2026-12-01T00:00", "202612011", "2026121", "2026-13-01", "2026-02-30", "20260230", "20261301",
        "abcd-ef-gh", "2026-12-0a", "2026120a", "+2026-12-01", "-026-12-01", "2026-+1-01", "2026−12−01", "２０２６１２０１",
    ])
    func rejectDate(text: String) {
        #expect(CivilDate(parsing: text) == nil)
    }

    // MARK: Wall-clock times

    @Test("a wall-clock time parses from its three accepted forms", arguments: [
        "2026-12-01T08:50:00", "2026-12-01T08:50", "20261201T085000",
    ])
    func parseLocalDateTime(text: String) throws {
        let time = try #require(LocalDateTime(parsing: text))
        #expect(time.date == CivilDate(year: 2026, month: 12, day: 1))
        #expect(time.hour == 8)
        #expect(time.minute == 50)
        #expect(time.second == 0)
    }

    @Test("seconds are kept and both printed forms are padded")
    func printLocalDateTime() throws {
        let time = try #require(LocalDateTime(parsing: "20260305T070809"))
        #expect(time.description == "2026-03-05T07:08:09")
        #expect(time.basicFormat == "20260305T070809")
    }

    @Test("malformed wall-clock text is refused", arguments: [
        "2026-12-01T24:00:00", "2026-12-01T23:60:00", "2026-12-01T23:59:60", "2026-12-01 08:50", "2026-12-01 08:50:00",
        "2026-12-01T08:50:00Z", "20261201T085000Z", "2026-12-01T08:50:00+01:00", "2026-12-01T8:50", "2026-12-01T08",
        "2026-12-01T", "2026-12-01", "T08:50:00", "2026-12-01T08:50:00.5", "2026-02-30T08:50:00", "2026-12-01t08:50:00",
        "2026-12-01T085000", "20261201T0850", "2026-12-01T08-50-00", "2026-12-01T0a:50:00",
    ])
    func rejectLocalDateTime(text: String) {
        #expect(LocalDateTime(parsing: text) == nil)
    }

    /// ISO 8601 requires a combined date and time to be written wholly in the
    /// basic or wholly in the extended format; the parser already refuses an
    /// extended date with a basic time, so it should refuse the mirror image.
    @Test("a basic date with an extended time is refused like the reverse mix")
    func rejectMixedFormats() {
        #expect(LocalDateTime(parsing: "2026-12-01T085000") == nil)
        #expect(LocalDateTime(parsing: "20261201T08:50:00") == nil)
        #expect(LocalDateTime(parsing: "20261201T08:50") == nil)
    }

    @Test("fields out of range are refused by the initializer")
    func rejectFields() throws {
        let date = try #require(CivilDate(year: 2026, month: 12, day: 1))
        #expect(LocalDateTime(date: date, hour: 24) == nil)
        #expect(LocalDateTime(date: date, hour: -1) == nil)
        #expect(LocalDateTime(date: date, minute: 60) == nil)
        #expect(LocalDateTime(date: date, second: 60) == nil)
        #expect(LocalDateTime(date: date, hour: 23, minute: 59, second: 59) != nil)
    }

    @Test("wall-clock times order by their position on the clock")
    func ordering() throws {
        let early = try #require(LocalDateTime(parsing: "2026-12-01T08:50:00"))
        let late = try #require(LocalDateTime(parsing: "2026-12-01T08:50:01"))
        let nextDay = try #require(LocalDateTime(parsing: "2026-12-02T00:00:00"))
        #expect(early < late)
        #expect(late < nextDay)
        #expect(!(late < early))
    }

    // MARK: Local seconds

    @Test("local seconds match the Unix epoch count on both sides of 1970", arguments: [
        (Int64(0), "1970-01-01T00:00:00"), (-1, "1969-12-31T23:59:59"), (-86_400, "1969-12-31T00:00:00"),
        (-86_401, "1969-12-30T23:59:59"), (86_399, "1970-01-01T23:59:59"), (1_000_000_000, "2001-09-09T01:46:40"),
        (-2_208_988_800, "1900-01-01T00:00:00"), (4_102_444_800, "2100-01-01T00:00:00"),
        (-11_676_096_000, "1600-01-01T00:00:00"),
    ])
    func localSecondsKnown(seconds: Int64, text: String) throws {
        let time = try #require(LocalDateTime(parsing: text))
        #expect(time.localSeconds == seconds)
        #expect(LocalDateTime(localSeconds: seconds) == time)
    }

    @Test("local seconds round-trip and agree with Foundation at random values from 1600 to 2400")
    func localSecondsRoundTrip() {
        var random = SplitMix64(seed: 0x5EED_C1A1)
        let calendar = Self.utcGregorian()
        for _ in 0..<20_000 {
            let seconds = Int64.random(in: -11_676_096_000...13_601_088_000, using: &random)
            let time = LocalDateTime(localSeconds: seconds)
            #expect(time.localSeconds == seconds)
            let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second],
                                                from: Date(timeIntervalSince1970: Double(seconds)))
            let same = time.date.year == parts.year && time.date.month == parts.month && time.date.day == parts.day
                && time.hour == parts.hour && time.minute == parts.minute && time.second == parts.second
            #expect(same, "\(seconds): ours \(time), Foundation \(parts)")
            if !same { return }
        }
    }

    // MARK: Weekday codes

    @Test("weekday codes are RFC 5545's and read case-insensitively")
    func weekdayCodes() {
        #expect(Weekday.allCases.map(\.code) == ["SU", "MO", "TU", "WE", "TH", "FR", "SA"])
        #expect(Weekday(code: "fr") == .friday)
        #expect(Weekday(code: "Sa") == .saturday)
        for bad in ["", "M", "MON", "XX", "1MO", " MO"] {
            #expect(Weekday(code: bad) == nil, "\(bad)")
        }
    }
}
