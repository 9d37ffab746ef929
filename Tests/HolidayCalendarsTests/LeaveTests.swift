import CalendarModel
import HolidayCalendars
import Testing

/// Days of leave on a workday calendar: days off, whatever the notices say.
@Suite("Days of leave")
struct LeaveTests {
    static func calendar(leave: [LeaveDay], week: OrdinaryWeek = OrdinaryWeek()) throws -> WorkdayCalendar {
        WorkdayCalendar(region: "cn", years: try #require(try HolidayData.bundled(region: "cn")), ordinaryWeek: week, leave: leave)
    }

    @Test("a day of leave is a day off named by the leave; a makeup workday taken as leave is neither a workday nor a makeup one")
    func leaveIsADayOff() throws {
        // 2021-09-18 (Saturday) is the makeup workday for 中秋节; 2021-09-17 a Friday; 2021-10-01 国庆节.
        let calendar = try Self.calendar(leave: [LeaveDay(date: day("2021-09-17"), name: "年假"), LeaveDay(date: day("2021-09-18"), name: "年假"),
                                                 LeaveDay(date: day("2021-10-01"), name: "")])
        #expect(calendar.answer(on: day("2021-09-17")) == WorkdayAnswer(date: day("2021-09-17"), isWorkday: false, reason: .leave("年假"), missingYear: nil))
        #expect(calendar.answer(on: day("2021-09-17")).description == "day off (leave: 年假)")
        #expect(!calendar.isWorkday(day("2021-09-18")) && !calendar.isMakeupWorkday(day("2021-09-18")))
        #expect(calendar.answer(on: day("2021-10-01")).description == "day off (leave)")
        // The days around are what the notice says.
        #expect(calendar.answer(on: day("2021-09-16")).reason == .ordinaryWorkday)
        #expect(calendar.answer(on: day("2021-09-26")).reason == .makeupWorkday(for: "国庆节"))
        // The year's notice data is unchanged: leave is no holiday.
        #expect(calendar.exceptions(inYear: 2021) == (try #require(calendar.holidayYear(2021))).entries)
        #expect(calendar.leave.map(\.date) == [day("2021-09-17"), day("2021-09-18"), day("2021-10-01")])
    }

    @Test("leave outside the years with data, and on a calendar with none, still counts; the ordinary week answers around it")
    func leaveBeyondTheData() throws {
        let far = day("2150-03-02")   // a Monday, far past any notice
        let withData = try Self.calendar(leave: [LeaveDay(date: far, name: "sabbatical")])
        #expect(!withData.isWorkday(far))
        #expect(withData.answer(on: far) == WorkdayAnswer(date: far, isWorkday: false, reason: .leave("sabbatical"), missingYear: 2150))
        #expect(withData.isWorkday(day("2150-03-03")))
        let empty = WorkdayCalendar(region: "cn", years: [], leave: [LeaveDay(date: far, name: "")])
        #expect(!empty.isWorkday(far) && empty.isWorkday(day("2150-03-03")) && !empty.isWorkday(day("2150-03-07")))
        #expect(empty.exceptions(inYear: 2150).isEmpty)
    }

    @Test("a date given twice keeps the later name; the list is in date order")
    func givenTwice() throws {
        let calendar = WorkdayCalendar(region: "cn", years: [], leave: [
            LeaveDay(date: day("2026-12-10"), name: "first"), LeaveDay(date: day("2026-12-09"), name: ""),
            LeaveDay(date: day("2026-12-10"), name: "second"),
        ])
        #expect(calendar.leave == [LeaveDay(date: day("2026-12-09"), name: ""), LeaveDay(date: day("2026-12-10"), name: "second")])
        #expect(calendar.answer(on: day("2026-12-10")).reason == .leave("second"))
    }

    @Test("isWorkday and isMakeupWorkday agree with the answer on every day from 2020 to 2022 with a leave every fifth day")
    func fastPathAgreesWithLeave() throws {
        let leave = stride(from: day("2020-01-03").dayNumber, through: day("2022-12-31").dayNumber, by: 5)
            .map { LeaveDay(date: CivilDate(dayNumber: $0), name: "") }
        let calendar = try Self.calendar(leave: leave)
        for number in day("2020-01-01").dayNumber...day("2022-12-31").dayNumber {
            let date = CivilDate(dayNumber: number)
            let answer = calendar.answer(on: date)
            #expect(calendar.isWorkday(date) == answer.isWorkday && calendar.isMakeupWorkday(date) == answer.isMakeupWorkday, "\(date)")
            #expect((answer.reason == .leave("")) == ((number - day("2020-01-03").dayNumber) % 5 == 0), "\(date)")
        }
    }
}
