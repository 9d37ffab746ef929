import CalendarModel
import HolidayCalendars
import Testing

/// The person's own days on a workday calendar: days of leave are off and
/// days worked are workdays, whatever the notices say.
@Suite("Days of leave and days worked")
struct PersonalDayTests {
    static func calendar(_ days: [PersonalDay], week: OrdinaryWeek = OrdinaryWeek()) throws -> WorkdayCalendar {
        WorkdayCalendar(region: "cn", years: try #require(try HolidayData.bundled(region: "cn")), ordinaryWeek: week, personalDays: days)
    }

    @Test("a day of leave is a day off named by the leave; a makeup workday taken as leave is neither a workday nor a makeup one")
    func leaveIsADayOff() throws {
        // 2021-09-18 (Saturday) is the makeup workday for 中秋节; 2021-09-17 a Friday; 2021-10-01 国庆节.
        let calendar = try Self.calendar([PersonalDay(date: day("2021-09-17"), kind: .leave, name: "年假"), PersonalDay(date: day("2021-09-18"), kind: .leave, name: "年假"),
                                                 PersonalDay(date: day("2021-10-01"), kind: .leave, name: "")])
        #expect(calendar.answer(on: day("2021-09-17")) == WorkdayAnswer(date: day("2021-09-17"), isWorkday: false, reason: .leave("年假"), missingYear: nil))
        #expect(calendar.answer(on: day("2021-09-17")).description == "day off (leave: 年假)")
        #expect(!calendar.isWorkday(day("2021-09-18")) && !calendar.isMakeupWorkday(day("2021-09-18")))
        #expect(calendar.answer(on: day("2021-10-01")).description == "day off (leave)")
        // The days around are what the notice says.
        #expect(calendar.answer(on: day("2021-09-16")).reason == .ordinaryWorkday)
        #expect(calendar.answer(on: day("2021-09-26")).reason == .makeupWorkday(for: "国庆节"))
        // The year's notice data is unchanged: leave is no holiday.
        #expect(calendar.exceptions(inYear: 2021) == (try #require(calendar.holidayYear(2021))).entries)
        #expect(calendar.personalDays.map(\.date) == [day("2021-09-17"), day("2021-09-18"), day("2021-10-01")])
    }

    @Test("leave outside the years with data, and on a calendar with none, still counts; the ordinary week answers around it")
    func leaveBeyondTheData() throws {
        let far = day("2150-03-02")   // a Monday, far past any notice
        let withData = try Self.calendar([PersonalDay(date: far, kind: .leave, name: "sabbatical")])
        #expect(!withData.isWorkday(far))
        #expect(withData.answer(on: far) == WorkdayAnswer(date: far, isWorkday: false, reason: .leave("sabbatical"), missingYear: 2150))
        #expect(withData.isWorkday(day("2150-03-03")))
        let empty = WorkdayCalendar(region: "cn", years: [], personalDays: [PersonalDay(date: far, kind: .leave, name: "")])
        #expect(!empty.isWorkday(far) && empty.isWorkday(day("2150-03-03")) && !empty.isWorkday(day("2150-03-07")))
        #expect(empty.exceptions(inYear: 2150).isEmpty)
    }

    @Test("a date given twice keeps the later name; the list is in date order")
    func givenTwice() throws {
        let calendar = WorkdayCalendar(region: "cn", years: [], personalDays: [
            PersonalDay(date: day("2026-12-10"), kind: .leave, name: "first"), PersonalDay(date: day("2026-12-09"), kind: .leave, name: ""),
            PersonalDay(date: day("2026-12-10"), kind: .leave, name: "second"),
        ])
        #expect(calendar.personalDays == [PersonalDay(date: day("2026-12-09"), kind: .leave, name: ""), PersonalDay(date: day("2026-12-10"), kind: .leave, name: "second")])
        #expect(calendar.answer(on: day("2026-12-10")).reason == .leave("second"))
    }

    @Test("a day worked is a workday named by its name, whatever the notice says; a makeup workday where the ordinary week has the day off, and only there")
    func workIsAWorkday() throws {
        // 2021-10-01 (Friday) and 2021-10-02 (Saturday) are 国庆节; 2021-09-18 (Saturday) the makeup workday
        // for 中秋节; 2021-11-06 an ordinary Saturday.
        let days = [PersonalDay(date: day("2021-10-01"), kind: .work, name: ""), PersonalDay(date: day("2021-10-02"), kind: .work, name: "加班"),
                    PersonalDay(date: day("2021-09-18"), kind: .work, name: "加班"), PersonalDay(date: day("2021-11-06"), kind: .work, name: "盘点")]
        let calendar = try Self.calendar(days)
        #expect(calendar.answer(on: day("2021-10-02")) == WorkdayAnswer(date: day("2021-10-02"), isWorkday: true, reason: .work("加班"),
                                                                         missingYear: nil, isMakeupWorkday: true))
        #expect(calendar.answer(on: day("2021-10-02")).description == "workday (extra workday: 加班)")
        #expect(calendar.answer(on: day("2021-10-01")) == WorkdayAnswer(date: day("2021-10-01"), isWorkday: true, reason: .work(""),
                                                                         missingYear: nil, isMakeupWorkday: false))
        #expect(calendar.answer(on: day("2021-10-01")).description == "workday (extra workday)")
        for saturday in ["2021-09-18", "2021-10-02", "2021-11-06"] {
            #expect(calendar.isWorkday(day(saturday)) && calendar.isMakeupWorkday(day(saturday)), "\(saturday)")
        }
        #expect(calendar.isWorkday(day("2021-10-01")) && !calendar.isMakeupWorkday(day("2021-10-01")))
        // The days around are what the notice says; the notice's own data is unchanged.
        #expect(calendar.answer(on: day("2021-10-03")).reason == .holiday("国庆节"))
        #expect(calendar.answer(on: day("2021-11-07")).reason == .weekend)
        #expect(calendar.exceptions(inYear: 2021) == (try #require(calendar.holidayYear(2021))).entries)
        // A week that works Saturdays has no makeup in a Saturday worked.
        let sixDays = try Self.calendar(days, week: OrdinaryWeek(workingDays: [.monday, .tuesday, .wednesday, .thursday, .friday, .saturday]))
        #expect(sixDays.isWorkday(day("2021-11-06")) && !sixDays.isMakeupWorkday(day("2021-11-06")))
        #expect(sixDays.answer(on: day("2021-11-06")).description == "workday (extra workday: 盘点)")
        // Far past the data, with the ordinary week around it.
        let empty = WorkdayCalendar(region: "cn", years: [], personalDays: [PersonalDay(date: day("2150-03-07"), kind: .work, name: "")])
        #expect(empty.isWorkday(day("2150-03-07")) && empty.isMakeupWorkday(day("2150-03-07")) && !empty.isWorkday(day("2150-03-08")))
        #expect(empty.answer(on: day("2150-03-07")).missingYear == 2150)
    }

    @Test("a date given as leave and then as work is work, and the other way round: the later wins")
    func oneKindADay() throws {
        let calendar = WorkdayCalendar(region: "cn", years: [], personalDays: [
            PersonalDay(date: day("2026-12-12"), kind: .leave, name: "年假"), PersonalDay(date: day("2026-12-12"), kind: .work, name: "加班"),
            PersonalDay(date: day("2026-12-14"), kind: .work, name: ""), PersonalDay(date: day("2026-12-14"), kind: .leave, name: ""),
        ])
        #expect(calendar.personalDays.map(\.kind) == [.work, .leave])
        #expect(calendar.isWorkday(day("2026-12-12")) && calendar.answer(on: day("2026-12-12")).reason == .work("加班"))
        #expect(!calendar.isWorkday(day("2026-12-14")) && calendar.answer(on: day("2026-12-14")).reason == .leave(""))
    }

    @Test("isWorkday and isMakeupWorkday agree with the answer on every day from 2020 to 2022 with a leave every fifth day and a day worked every seventh")
    func fastPathAgreesWithPersonalDays() throws {
        let first = day("2020-01-03").dayNumber, last = day("2022-12-31").dayNumber
        let leave = stride(from: first, through: last, by: 5).map { PersonalDay(date: CivilDate(dayNumber: $0), kind: .leave, name: "") }
        // Every seventh day from a Saturday is a Saturday; the later list wins where both fall.
        let work = stride(from: day("2020-01-04").dayNumber, through: last, by: 7).map { PersonalDay(date: CivilDate(dayNumber: $0), kind: .work, name: "") }
        let calendar = try Self.calendar(leave + work)
        for number in day("2020-01-01").dayNumber...last {
            let date = CivilDate(dayNumber: number)
            let answer = calendar.answer(on: date)
            #expect(calendar.isWorkday(date) == answer.isWorkday && calendar.isMakeupWorkday(date) == answer.isMakeupWorkday, "\(date)")
            let worked = (number - day("2020-01-04").dayNumber) % 7 == 0
            #expect((answer.reason == .work("")) == worked, "\(date)")
            #expect((answer.reason == .leave("")) == (!worked && (number - first) % 5 == 0), "\(date)")
            if worked { #expect(answer.isWorkday && answer.isMakeupWorkday, "\(date)") }
        }
    }

    @Test("half a day of leave leaves the other half worked, half a day worked leaves the other half off; either way the day is a workday, named with its half")
    func halfDays() throws {
        // 2021-09-16 a Thursday; 2021-09-18 (Saturday) the makeup workday for 中秋节; 2021-11-06 an ordinary Saturday;
        // 2021-10-01 国庆节; 2021-11-07 a Sunday.
        let calendar = try Self.calendar([
            PersonalDay(date: day("2021-09-16"), kind: .leave, name: "看牙", half: .morning),
            PersonalDay(date: day("2021-09-18"), kind: .leave, name: "", half: .afternoon),
            PersonalDay(date: day("2021-11-06"), kind: .work, name: "盘点", half: .morning),
            PersonalDay(date: day("2021-10-01"), kind: .leave, name: "", half: .morning),
            PersonalDay(date: day("2021-11-07"), kind: .work, name: "", half: .afternoon),
        ])
        #expect(calendar.hasHalfDays)
        #expect(calendar.answer(on: day("2021-09-16")) == WorkdayAnswer(date: day("2021-09-16"), isWorkday: true, reason: .leave("看牙", half: .morning),
                                                                         missingYear: nil))
        #expect(calendar.answer(on: day("2021-09-16")).description == "workday (leave in the morning: 看牙)")
        #expect(calendar.isWorkday(day("2021-09-16")) && !calendar.isWorkday(day("2021-09-16"), in: .morning) && calendar.isWorkday(day("2021-09-16"), in: .afternoon))
        // The makeup Saturday's morning is still a makeup workday's.
        #expect(calendar.isMakeupWorkday(day("2021-09-18")) && calendar.isMakeupWorkday(day("2021-09-18"), in: .morning)
                && !calendar.isMakeupWorkday(day("2021-09-18"), in: .afternoon) && !calendar.isWorkday(day("2021-09-18"), in: .afternoon))
        // A Saturday morning worked: a makeup workday in the morning only.
        #expect(calendar.answer(on: day("2021-11-06")).description == "workday (extra workday in the morning: 盘点)")
        #expect(calendar.isWorkday(day("2021-11-06"), in: .morning) && calendar.isMakeupWorkday(day("2021-11-06"), in: .morning)
                && !calendar.isWorkday(day("2021-11-06"), in: .afternoon) && !calendar.isMakeupWorkday(day("2021-11-06"), in: .afternoon))
        #expect(calendar.isWorkday(day("2021-11-07"), in: .afternoon) && !calendar.isWorkday(day("2021-11-07"), in: .morning))
        // Half a day of leave on a holiday changes nothing but the name.
        #expect(calendar.answer(on: day("2021-10-01")).description == "day off (leave in the morning)")
        #expect(!calendar.isWorkday(day("2021-10-01"), in: .morning) && !calendar.isWorkday(day("2021-10-01"), in: .afternoon))
        // Other days: both halves as the day.
        for date in [day("2021-09-17"), day("2021-10-02"), day("2021-11-08"), day("2150-03-07")] {
            #expect(calendar.isWorkday(date, in: .morning) == calendar.isWorkday(date) && calendar.isWorkday(date, in: .afternoon) == calendar.isWorkday(date), "\(date)")
        }
        // Whole days alone: no half days.
        #expect(!(try Self.calendar([PersonalDay(date: day("2021-09-16"), kind: .leave, name: "")])).hasHalfDays)
        #expect(!(try Self.calendar([])).hasHalfDays)
    }
}
