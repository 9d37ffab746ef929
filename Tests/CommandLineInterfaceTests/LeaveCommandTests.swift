import CalendarModel
import CommandLineInterface
import Foundation
import Testing

/// `chime leave` (now = Tuesday 2026-12-01T08:00:00+08:00, machine in Asia/Shanghai).
@Suite("chime leave")
struct LeaveCommandTests {
    @Test("leave taken: the clock-in passes over it, chime workday says why, chime next explains the days skipped; given back, it rings again")
    func clockInPassesOverLeave() throws {
        let scratch = Scratch()
        let clockIn = scratch.add("reminder", "打卡", "--due", "2026-12-01 08:50", "--repeat", "每个工作日")
        #expect(scratch.ok("leave", "add", "2026-12-02", "--to", "2026-12-04", "--name", "年假").output
                == ["leave 2026-12-02 to 2026-12-04: 3 days taken (3 workdays of leave)"])
        #expect(scratch.ok("next", "--count", "2").output == [
            "Tue 12-01 08:50        打卡  [\(clockIn)]  at the time — workday",
            "Mon 12-07 08:50        打卡  [\(clockIn)]  at the time — workday; skipped 12-02…12-06 (leave: 年假)",
        ])
        let workday = scratch.run("workday", "2026-12-03")
        #expect(workday.status == 1)
        #expect(workday.output == ["2026-12-03 Thu: day off (leave: 年假)"])
        let json = try scratch.run("workday", "2026-12-03", "--json").json()
        #expect(json["reason"] as? String == "leave" && json["leave"] as? String == "年假" && json["workday"] as? Bool == false)
        #expect(scratch.ok("workdays", "--from", "2026-12-01", "--to", "2026-12-07").output == ["2026-12-01", "2026-12-07"])
        // Chinese days and a day already taken.
        #expect(scratch.ok("leave", "add", "明天").output == ["leave 2026-12-02: 0 days taken, 1 day taken already (1 workday of leave)"])
        #expect(scratch.ok("leave", "list").output == ["2026-12-02 Wed  年假", "2026-12-03 Thu  年假", "2026-12-04 Fri  年假", "in all: 3 days, 3 workdays of leave"])
        #expect(scratch.ok("leave", "remove", "2026-12-03", "--to", "2026-12-31").output == ["leave 2026-12-03 to 2026-12-31: 2 days given back"])
        #expect(scratch.ok("next", "--count", "2").output.last == "Thu 12-03 08:50        打卡  [\(clockIn)]  at the time — workday; skipped 12-02 (leave: 年假)")
    }

    @Test("half a day of leave: the clock-in at 08:50 passes over the morning off and the clock-out at 18:00 still rings; --half 下午 the other way round; list, workday and --json say the half")
    func halfDay() throws {
        let scratch = Scratch()
        let clockIn = scratch.add("reminder", "打卡", "--due", "2026-12-01 08:50", "--repeat", "每个工作日")
        let clockOut = scratch.add("reminder", "下班", "--due", "2026-12-01 18:00", "--repeat", "每个工作日")
        // Wednesday 2026-12-02: the morning off.
        #expect(scratch.ok("leave", "add", "2026-12-02", "--half", "morning", "--name", "看牙").output == ["leave 2026-12-02 (morning): 1 day taken (half a workday of leave)"])
        #expect(scratch.ok("next", "--count", "4").output == [
            "Tue 12-01 08:50        打卡  [\(clockIn)]  at the time — workday",
            "Tue 12-01 18:00        下班  [\(clockOut)]  at the time — workday",
            "Wed 12-02 18:00        下班  [\(clockOut)]  at the time — workday (leave in the morning: 看牙)",
            "Thu 12-03 08:50        打卡  [\(clockIn)]  at the time — workday; skipped 12-02 (leave in the morning: 看牙)",
        ])
        let workday = scratch.run("workday", "2026-12-02")
        #expect(workday.status == 0 && workday.output == ["2026-12-02 Wed: workday (leave in the morning: 看牙)"])
        let json = try scratch.run("workday", "2026-12-02", "--json").json()
        #expect(json["reason"] as? String == "leave" && json["half"] as? String == "morning" && json["workday"] as? Bool == true)
        #expect(try scratch.run("workday", "2026-12-03", "--json").json()["half"] == nil)
        // The afternoon instead (in Chinese): the clock-in rings, the clock-out does not.
        #expect(scratch.ok("leave", "add", "2026-12-02", "--half", "下午").output == ["leave 2026-12-02 (afternoon): 1 day taken (half a workday of leave)"])
        #expect(scratch.ok("next", "--count", "4").output.suffix(2) == [
            "Wed 12-02 08:50        打卡  [\(clockIn)]  at the time — workday (leave in the afternoon: 看牙)",
            "Thu 12-03 08:50        打卡  [\(clockIn)]  at the time — workday",
        ])
        #expect(scratch.ok("leave", "list").output == ["2026-12-02 Wed (afternoon)  看牙", "in all: 1 day, half a workday of leave"])
        let days = try #require(try scratch.ok("leave", "list", "--json").json()["days"] as? [[String: Any]])
        #expect(days.map { $0["half"] as? String } == ["afternoon"])
        // The whole day again, and a half that is neither is refused with nothing written.
        #expect(scratch.ok("leave", "add", "2026-12-02").output == ["leave 2026-12-02: 1 day taken (1 workday of leave)"])
        try scratch.refuses(["leave", "add", "2026-12-03", "--half", "noon"], status: 65, mentioning: ["--half 'noon'", "morning or afternoon"])
        try scratch.refuses(["leave", "remove", "2026-12-02", "--half", "morning"], status: 64, mentioning: ["--half is for 'chime leave add'"])
        #expect(scratch.ok("leave", "list").output == ["2026-12-02 Wed  看牙", "in all: 1 day, 1 workday of leave"])
    }

    @Test("chime holidays morning: 12:00 until set; a lunch clock-out at 12:30 on an afternoon of leave rings once the morning ends at 12:30; bad times refused")
    func morningEnd() throws {
        let scratch = Scratch()
        let lunch = scratch.add("reminder", "午休打卡", "--due", "2026-12-01 12:30", "--repeat", "workdays")
        // Wednesday 2026-12-02: the afternoon off.
        scratch.ok("leave", "add", "2026-12-02", "--half", "afternoon", "--name", "看牙")
        #expect(scratch.ok("holidays", "morning").output
                == ["the morning ends at 12:00: a reminder at 12:00 or before is the morning's on a half day, a later one the afternoon's"])
        #expect(scratch.ok("next", "--count", "2").output == [
            "Tue 12-01 12:30        午休打卡  [\(lunch)]  at the time — workday",
            "Thu 12-03 12:30        午休打卡  [\(lunch)]  at the time — workday; skipped 12-02 (leave in the afternoon: 看牙)",
        ])
        #expect(scratch.ok("holidays", "morning", "12:30").output.first?.hasPrefix("the morning ends at 12:30:") == true)
        #expect(scratch.ok("next", "--count", "2").output == [
            "Tue 12-01 12:30        午休打卡  [\(lunch)]  at the time — workday",
            "Wed 12-02 12:30        午休打卡  [\(lunch)]  at the time — workday (leave in the afternoon: 看牙)",
        ])
        #expect(try scratch.ok("holidays", "morning", "--json").json()["morningEnd"] as? String == "12:30")
        for bad in ["23:59", "25:00", "noon", "12.30"] {
            try scratch.refuses(["holidays", "morning", bad], status: 65, mentioning: ["'\(bad)' is not a time of day HH:MM from 00:00 to 23:58"])
        }
        try scratch.refuses(["holidays", "morning", "12:00", "13:00"], status: 64, mentioning: ["one TIME at most"])
        try scratch.refuses(["holidays", "morning", "--region", "cn"], status: 64, mentioning: ["--region is not for 'chime holidays morning'"])
        #expect(try scratch.ok("holidays", "morning", "--json").json()["morningEnd"] as? String == "12:30")
    }

    @Test("leave over National Day 2026 counts the workdays it costs, as the notice has them: Wed 09-30, Thu 10-08, Fri 10-09 of ten days, the makeup Saturday 10-10 alone, a Saturday worked as a day off; the list adds up the year")
    func workdaysOfLeave() throws {
        let scratch = Scratch()
        // A Saturday marked worked first: leave counts against the calendar without the person's own days.
        #expect(scratch.ok("work", "add", "2026-10-03", "--to", "2026-10-04").output == ["work 2026-10-03 to 2026-10-04: 2 days added (2 days off worked)"])
        #expect(scratch.ok("leave", "add", "2026-09-30", "--to", "2026-10-09", "--name", "国庆").output
                == ["leave 2026-09-30 to 2026-10-09: 10 days taken (3 workdays of leave)"])
        let json = try scratch.ok("leave", "add", "2026-10-10", "--json").json()
        #expect(json["workdaysOfLeave"] as? Double == 1 && json["daysOffWorked"] == nil)
        #expect(scratch.ok("leave", "add", "2026-10-12", "--to", "2026-10-14", "--half", "morning").output
                == ["leave 2026-10-12 to 2026-10-14 (morning): 3 days taken (1.5 workdays of leave)"])
        #expect(try scratch.ok("work", "add", "2026-10-17", "--half", "afternoon", "--json").json()["daysOffWorked"] as? Double == 0.5)
        // The year's leave in all: 10 + 1 + 3 days, 3 + 1 + 1.5 workdays.
        #expect(scratch.ok("leave", "list", "--from", "2026-01-01").output.last == "in all: 14 days, 5.5 workdays of leave")
        #expect(try scratch.ok("leave", "list", "--from", "2026-01-01", "--json").json()["workdaysOfLeave"] as? Double == 5.5)
        #expect(try scratch.ok("leave", "list", "--from", "2027-01-01", "--json").json()["workdaysOfLeave"] == nil)
    }

    @Test("leave allowance: a year's workdays of leave; add and allowance say what is left of each year the days fall in, or how far over; none unsets it")
    func allowance() throws {
        let scratch = Scratch()   // today: 2026-12-01
        #expect(scratch.ok("leave", "allowance").output
                == ["no annual leave allowance set ('chime leave allowance DAYS' sets one); 2026: 0 workdays of leave taken"])
        #expect(scratch.ok("leave", "allowance", "10").output == ["annual leave: 10 workdays a year; 2026: 10 of 10 left (0 taken)"])
        // National Day 2026: 3 workdays (09-30, 10-08, 10-09).
        #expect(scratch.ok("leave", "add", "2026-09-30", "--to", "2026-10-09").output
                == ["leave 2026-09-30 to 2026-10-09: 10 days taken (3 workdays of leave; 2026: 7 of 10 left)"])
        // Over the new year: Wed 12-30 and Thu 12-31 in 2026, Mon 2027-01-04 in 2027 (2027-01-01 has no data yet: a Friday, a workday).
        #expect(scratch.ok("leave", "add", "2026-12-30", "--to", "2027-01-04").output
                == ["leave 2026-12-30 to 2027-01-04: 6 days taken (4 workdays of leave; 2026: 5 of 10 left, 2027: 8 of 10 left)"])
        let json = try scratch.ok("leave", "add", "2026-12-09", "--half", "morning", "--json").json()
        let balances = try #require(json["balances"] as? [[String: Any]])
        #expect(balances.count == 1 && balances[0]["year"] as? Int == 2026 && balances[0]["taken"] as? Double == 5.5
                && balances[0]["left"] as? Double == 4.5 && balances[0]["allowance"] as? Double == 10, "\(balances)")
        #expect(scratch.ok("leave", "allowance", "5").output == ["annual leave: 5 workdays a year; 2026: 0.5 over the 5 (5.5 taken)"])
        #expect(try scratch.ok("leave", "allowance", "--json").json()["left"] as? Double == -0.5)
        // Without an allowance, add says nothing of one.
        #expect(scratch.ok("leave", "allowance", "none").output == ["no annual leave allowance set ('chime leave allowance DAYS' sets one); 2026: 5.5 workdays of leave taken"])
        #expect(scratch.ok("leave", "add", "2026-12-10").output == ["leave 2026-12-10: 1 day taken (1 workday of leave)"])
        try scratch.refuses(["leave", "allowance", "3.3"], status: 65, mentioning: ["'3.3'", "in halves"])
        try scratch.refuses(["leave", "allowance", "-1"], status: 65, mentioning: ["'-1'"])
        try scratch.refuses(["leave", "allowance", "1", "2"], status: 64, mentioning: ["one DAYS at most"])
        try scratch.refuses(["work", "allowance"], status: 64, mentioning: ["unknown action 'allowance'"])
        try scratch.refuses(["leave", "allowance", "3", "--name", "x"], status: 64, mentioning: ["--name is for 'chime leave add'"])
    }

    @Test("leave list: from today by default, --from and --to, --json; nothing taken says so")
    func listing() throws {
        let scratch = Scratch()
        #expect(scratch.ok("leave", "list").output == ["No leave."])
        scratch.ok("leave", "add", "2026-11-20")
        scratch.ok("leave", "add", "2026-12-24", "--to", "2026-12-25", "--name", "Christmas")
        #expect(scratch.ok("leave", "list").output == ["2026-12-24 Thu  Christmas", "2026-12-25 Fri  Christmas", "in all: 2 days, 2 workdays of leave"])
        #expect(scratch.ok("leave", "list", "--from", "2026-11-01", "--to", "2026-12-24").output
                == ["2026-11-20 Fri", "2026-12-24 Thu  Christmas", "in all: 2 days, 2 workdays of leave"])
        let json = try scratch.ok("leave", "list", "--from", "2026-01-01", "--json").json()
        #expect(json["action"] as? String == "list")
        let days = try #require(json["days"] as? [[String: Any]])
        #expect(days.map { $0["date"] as? String } == ["2026-11-20", "2026-12-24", "2026-12-25"])
        #expect(days.map { $0["name"] as? String } == ["", "Christmas", "Christmas"])
    }

    @Test("wrong leave is refused with what was wrong and nothing written")
    func refusals() throws {
        let scratch = Scratch()
        scratch.ok("leave", "add", "2026-12-24")
        try scratch.refuses(["leave", "add", "2026-12-10", "--to", "2026-12-09"], status: 65, mentioning: ["--to 2026-12-09 is before 2026-12-10"])
        try scratch.refuses(["leave", "add", "2026-01-01", "--to", "2027-06-01"], status: 65, mentioning: ["517 days", "at most 366"])
        try scratch.refuses(["leave", "add", "2300-01-01"], status: 65, mentioning: ["outside the years 1970–2199"])
        try scratch.refuses(["leave", "add", "someday"], status: 65, mentioning: ["'someday'"])
        try scratch.refuses(["leave", "add"], status: 64, mentioning: ["DATE"])
        try scratch.refuses(["leave", "take", "2026-12-10"], status: 64, mentioning: ["'take'"])
        try scratch.refuses(["leave", "remove", "2026-12-24", "--name", "x"], status: 64, mentioning: ["--name is for 'chime leave add'"])
        try scratch.refuses(["leave", "add", "2026-12-24", "--from", "2026-12-20"], status: 64, mentioning: ["--from is for 'chime leave list'"])
        #expect(scratch.ok("leave", "list").output == ["2026-12-24 Thu", "in all: 1 day, 1 workday of leave"])
    }
}
