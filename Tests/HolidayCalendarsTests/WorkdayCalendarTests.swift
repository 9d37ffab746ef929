import CalendarModel
import HolidayCalendars
import Testing

@Suite("Workday calendars")
struct WorkdayCalendarTests {
    static let mondayToSaturday = OrdinaryWeek(workingDays: [.monday, .tuesday, .wednesday, .thursday, .friday, .saturday])
    static let sundayToThursday = OrdinaryWeek(workingDays: [.sunday, .monday, .tuesday, .wednesday, .thursday])

    static func bundled(_ week: OrdinaryWeek = OrdinaryWeek()) throws -> WorkdayCalendar {
        try #require(try WorkdayCalendar.bundled(region: "cn", ordinaryWeek: week))
    }

    static func answer(_ iso: String, _ isWorkday: Bool, _ reason: WorkdayAnswer.Reason, missing: Int? = nil) -> WorkdayAnswer {
        WorkdayAnswer(date: day(iso), isWorkday: isWorkday, reason: reason, missingYear: missing)
    }

    @Test("2021 Mid-Autumn and National Day: makeup workdays 09-18, 09-26, 10-09; days off 09-19..09-21 and 10-01..10-07, with reasons")
    func midAutumnAndNationalDay2021() throws {
        let calendar = try Self.bundled()
        let expected: [WorkdayAnswer] = [
            Self.answer("2021-09-17", true, .ordinaryWorkday),           // Friday
            Self.answer("2021-09-18", true, .makeupWorkday(for: "中秋节")), // Saturday
            Self.answer("2021-09-19", false, .holiday("中秋节")),          // Sunday
            Self.answer("2021-09-20", false, .holiday("中秋节")),          // Monday
            Self.answer("2021-09-21", false, .holiday("中秋节")),          // Tuesday
            Self.answer("2021-09-22", true, .ordinaryWorkday),           // Wednesday
            Self.answer("2021-09-25", false, .weekend),                  // Saturday
            Self.answer("2021-09-26", true, .makeupWorkday(for: "国庆节")), // Sunday
            Self.answer("2021-10-01", false, .holiday("国庆节")),          // Friday
            Self.answer("2021-10-02", false, .holiday("国庆节")),
            Self.answer("2021-10-03", false, .holiday("国庆节")),
            Self.answer("2021-10-04", false, .holiday("国庆节")),          // Monday
            Self.answer("2021-10-05", false, .holiday("国庆节")),
            Self.answer("2021-10-06", false, .holiday("国庆节")),
            Self.answer("2021-10-07", false, .holiday("国庆节")),          // Thursday
            Self.answer("2021-10-08", true, .ordinaryWorkday),           // Friday
            Self.answer("2021-10-09", true, .makeupWorkday(for: "国庆节")), // Saturday
            Self.answer("2021-10-10", false, .weekend),                  // Sunday
        ]
        for answer in expected {
            #expect(calendar.answer(on: answer.date) == answer)
            #expect(calendar.isWorkday(answer.date) == answer.isWorkday, "\(answer.date)")
            #expect(calendar.isMakeupWorkday(answer.date) == answer.isMakeupWorkday, "\(answer.date)")
        }
        let september = calendar.exceptions(inYear: 2021).filter { $0.date >= day("2021-09-01") && $0.date <= day("2021-10-31") }
        #expect(september.map(\.description) == [
            "2021-09-18 work 中秋节", "2021-09-19 off 中秋节", "2021-09-20 off 中秋节", "2021-09-21 off 中秋节",
            "2021-09-26 work 国庆节", "2021-10-01 off 国庆节", "2021-10-02 off 国庆节", "2021-10-03 off 国庆节",
            "2021-10-04 off 国庆节", "2021-10-05 off 国庆节", "2021-10-06 off 国庆节", "2021-10-07 off 国庆节",
            "2021-10-09 work 国庆节",
        ])
        #expect(calendar.answer(on: day("2021-09-18")).description == "workday (makeup workday for 中秋节)")
        #expect(calendar.answer(on: day("2021-10-01")).description == "day off (国庆节)")
    }

    @Test("the next year's notice overrides December: 2007-12-29..31 change when the 2008 notice is added")
    func decemberOverrideFromTheReference() throws {
        let years = try #require(try HolidayData.bundled(region: "cn"))
        let only2007 = WorkdayCalendar(region: "cn", years: years.filter { $0.year == 2007 })
        #expect(only2007.answer(on: day("2007-12-29")) == Self.answer("2007-12-29", false, .weekend))        // Saturday
        #expect(only2007.answer(on: day("2007-12-31")) == Self.answer("2007-12-31", true, .ordinaryWorkday)) // Monday

        let both = WorkdayCalendar(region: "cn", years: years.filter { $0.year == 2007 || $0.year == 2008 })
        #expect(both.answer(on: day("2007-12-29")) == Self.answer("2007-12-29", true, .makeupWorkday(for: "元旦")))
        #expect(both.answer(on: day("2007-12-30")) == Self.answer("2007-12-30", false, .holiday("元旦")))
        #expect(both.answer(on: day("2007-12-31")) == Self.answer("2007-12-31", false, .holiday("元旦")))
        // Listed under the calendar year they fall in.
        #expect(both.exceptions(inYear: 2007).suffix(3).map(\.description)
            == ["2007-12-29 work 元旦", "2007-12-30 off 元旦", "2007-12-31 off 元旦"])
        #expect(both.exceptions(inYear: 2008).first?.description == "2008-01-01 off 元旦")
    }

    @Test("when two notice years disagree about a December date, the later notice wins whatever the order given")
    func decemberConflict() throws {
        #expect(day("2030-12-28").weekday == .saturday)
        #expect(day("2030-12-31").weekday == .tuesday)
        let years = try CompactHolidayFormat.parse(compact("""
            year 2030
            甲 work 12-28
            乙 off 12-31
            year 2031
            元旦 off 2030-12-28..01-01
            """), file: "conflict.txt")
        for order in [years, years.reversed()] {
            let calendar = WorkdayCalendar(region: "cn", years: order)
            #expect(calendar.answer(on: day("2030-12-28")) == Self.answer("2030-12-28", false, .holiday("元旦")))
            #expect(calendar.answer(on: day("2030-12-31")) == Self.answer("2030-12-31", false, .holiday("元旦")))
            #expect(!calendar.isMakeupWorkday(day("2030-12-28")))
            #expect(calendar.exceptions(inYear: 2030).map(\.description)
                == ["2030-12-28 off 元旦", "2030-12-29 off 元旦", "2030-12-30 off 元旦", "2030-12-31 off 元旦"])
        }
    }

    @Test("a year given twice is replaced whole by the later one: imported data over bundled data")
    func laterYearReplacesEarlier() throws {
        let bundled = try #require(try HolidayData.bundled(region: "cn"))
        let imported = try CompactHolidayFormat.parse(compact("year 2021\n元旦 off 01-01\n"), file: "imported.txt")
        let calendar = WorkdayCalendar(region: "cn", years: bundled + imported)
        #expect(calendar.holidayYear(2021)?.source.location == "imported.txt")
        #expect(calendar.answer(on: day("2021-01-01")).reason == .holiday("元旦"))
        #expect(calendar.answer(on: day("2021-01-02")) == Self.answer("2021-01-02", false, .weekend))
        #expect(calendar.answer(on: day("2021-10-01")) == Self.answer("2021-10-01", true, .ordinaryWorkday))
        #expect(calendar.answer(on: day("2021-09-18")) == Self.answer("2021-09-18", false, .weekend))
        #expect(calendar.exceptions(inYear: 2021).count == 1)
        #expect(calendar.coveredYears == Array(2007...2026))
    }

    @Test("Monday to Saturday: a Saturday makeup workday is an ordinary workday, a Sunday one still a makeup")
    func mondayToSaturday() throws {
        let calendar = try Self.bundled(Self.mondayToSaturday)
        #expect(calendar.answer(on: day("2021-09-18")) == Self.answer("2021-09-18", true, .ordinaryWorkday))  // Saturday, 中秋节 makeup
        #expect(calendar.answer(on: day("2021-09-25")) == Self.answer("2021-09-25", true, .ordinaryWorkday))  // Saturday
        #expect(calendar.answer(on: day("2021-09-26")) == Self.answer("2021-09-26", true, .makeupWorkday(for: "国庆节"))) // Sunday
        #expect(calendar.answer(on: day("2021-10-02")) == Self.answer("2021-10-02", false, .holiday("国庆节")))  // Saturday
        #expect(calendar.answer(on: day("2021-10-10")) == Self.answer("2021-10-10", false, .weekend))          // Sunday
        #expect(!calendar.isMakeupWorkday(day("2021-09-18")))
        #expect(calendar.isMakeupWorkday(day("2021-09-26")))
        // Past the data: Saturdays are worked.
        #expect(calendar.answer(on: day("2027-03-06")) == Self.answer("2027-03-06", true, .ordinaryWorkday, missing: 2027))
    }

    @Test("Sunday to Thursday: Friday and Saturday are the weekend, a Sunday makeup workday is ordinary")
    func sundayToThursday() throws {
        let calendar = try Self.bundled(Self.sundayToThursday)
        #expect(calendar.answer(on: day("2021-09-17")) == Self.answer("2021-09-17", false, .weekend))          // Friday
        #expect(calendar.answer(on: day("2021-09-18")) == Self.answer("2021-09-18", true, .makeupWorkday(for: "中秋节"))) // Saturday
        #expect(calendar.answer(on: day("2021-09-19")) == Self.answer("2021-09-19", false, .holiday("中秋节")))  // Sunday
        #expect(calendar.answer(on: day("2021-09-26")) == Self.answer("2021-09-26", true, .ordinaryWorkday))  // Sunday, 国庆节 makeup
        #expect(calendar.answer(on: day("2021-10-01")) == Self.answer("2021-10-01", false, .holiday("国庆节")))  // Friday
        #expect(calendar.answer(on: day("2021-10-10")) == Self.answer("2021-10-10", true, .ordinaryWorkday))  // Sunday
        #expect(calendar.answer(on: day("2027-03-05")) == Self.answer("2027-03-05", false, .weekend, missing: 2027)) // Friday
        #expect(calendar.answer(on: day("2027-03-07")) == Self.answer("2027-03-07", true, .ordinaryWorkday, missing: 2027)) // Sunday
    }

    @Test("2027 has no data: answers fall back to the ordinary week and carry the missing year")
    func missingYearFallsBack() throws {
        let calendar = try Self.bundled()
        #expect(!calendar.hasData(forYear: 2027))
        #expect(calendar.hasData(forYear: 2026))
        #expect(calendar.missingYears(in: 2025...2028) == [2027, 2028])
        #expect(calendar.missingYears(in: 2005...2008) == [2005, 2006])
        let monday = calendar.answer(on: day("2027-03-01"))
        #expect(monday == Self.answer("2027-03-01", true, .ordinaryWorkday, missing: 2027))
        #expect(monday.description == "workday (ordinary workday; no holiday data for 2027: the ordinary week applies)")
        // 2027-01-01 is a Friday: without a notice it is a plain workday, and says so.
        #expect(calendar.answer(on: day("2027-01-01")) == Self.answer("2027-01-01", true, .ordinaryWorkday, missing: 2027))
        #expect(calendar.answer(on: day("2027-01-02")) == Self.answer("2027-01-02", false, .weekend, missing: 2027))
        #expect(calendar.isWorkday(day("2027-01-01")))
        #expect(calendar.exceptions(inYear: 2027).isEmpty)
        // The last covered day has data; so has a December day that a later
        // notice moved, although its own year (2006) has none.
        #expect(calendar.answer(on: day("2026-12-31")).missingYear == nil)
        #expect(calendar.answer(on: day("2006-12-30")) == Self.answer("2006-12-30", true, .makeupWorkday(for: "元旦")))
        #expect(calendar.answer(on: day("2006-12-29")) == Self.answer("2006-12-29", true, .ordinaryWorkday, missing: 2006))
        #expect(calendar.answer(on: day("1999-10-01")).missingYear == 1999)
    }

    @Test("a calendar with no years answers with the ordinary week everywhere and names each missing year")
    func emptyCalendar() {
        let calendar = WorkdayCalendar(region: "cn", years: [])
        #expect(calendar.coveredYears.isEmpty)
        #expect(calendar.answer(on: day("2021-10-01")) == Self.answer("2021-10-01", true, .ordinaryWorkday, missing: 2021))
        #expect(!calendar.isWorkday(day("2021-10-02")))
        #expect(!calendar.isMakeupWorkday(day("2021-09-18")))
        #expect(calendar.exceptions(inYear: 2021).isEmpty)
    }

    @Test("isWorkday and isMakeupWorkday agree with the answer on every day from 2006 to 2028, for each ordinary week")
    func fastPathAgreesWithAnswers() throws {
        for week in [OrdinaryWeek(), Self.mondayToSaturday, Self.sundayToThursday] {
            let calendar = try Self.bundled(week)
            var mismatches: [String] = []
            for number in day("2006-01-01").dayNumber...day("2028-12-31").dayNumber {
                let date = CivilDate(dayNumber: number)
                let answer = calendar.answer(on: date)
                if calendar.isWorkday(date) != answer.isWorkday || calendar.isMakeupWorkday(date) != answer.isMakeupWorkday {
                    mismatches.append("\(date): \(answer)")
                }
                // A makeup workday is never a day of the ordinary week.
                if answer.isMakeupWorkday, week.workingDays.contains(date.weekday) { mismatches.append("\(date): makeup on a working day") }
            }
            #expect(mismatches.isEmpty, "\(week.workingDays.sorted()): \(mismatches.prefix(5))")
        }
    }

    @Test("the bundled calendar's exceptions of a year are that year's entries, after December moves")
    func exceptionsOfAYear() throws {
        let calendar = try Self.bundled()
        let bundled2021 = try #require(calendar.holidayYear(2021))
        #expect(calendar.exceptions(inYear: 2021) == bundled2021.entries)
        // 2019's notice starts in 2018-12-29; those days are listed under 2018.
        let in2018 = calendar.exceptions(inYear: 2018).map(\.description)
        #expect(in2018.suffix(3) == ["2018-12-29 work 元旦", "2018-12-30 off 元旦", "2018-12-31 off 元旦"])
        #expect(calendar.exceptions(inYear: 2019).first?.description == "2019-01-01 off 元旦")
    }
}
