import CalendarModel
import CommandLineInterface
import Foundation
import Testing

/// `chime work` (now = Tuesday 2026-12-01T08:00:00+08:00, machine in Asia/Shanghai).
@Suite("chime work")
struct WorkCommandTests {
    @Test("a Saturday worked: the clock-in rings on it, chime workday says why, chime next explains it; taken back as leave, it is off again")
    func clockInRingsOnADayWorked() throws {
        let scratch = Scratch()
        let clockIn = scratch.add("reminder", "打卡", "--due", "2026-12-04 08:50", "--repeat", "每个工作日")
        #expect(scratch.ok("work", "add", "2026-12-05", "--name", "加班").output == ["work 2026-12-05: 1 day added (1 day off worked)"])
        #expect(scratch.ok("next", "--count", "3").output == [
            "Fri 12-04 08:50        打卡  [\(clockIn)]  at the time — workday",
            "Sat 12-05 08:50        打卡  [\(clockIn)]  at the time — extra workday: 加班",
            "Mon 12-07 08:50        打卡  [\(clockIn)]  at the time — workday; skipped 12-06 (weekend)",
        ])
        let workday = scratch.run("workday", "2026-12-05")
        #expect(workday.status == 0)
        #expect(workday.output == ["2026-12-05 Sat: workday (extra workday: 加班)"])
        let json = try scratch.run("workday", "2026-12-05", "--json").json()
        #expect(json["reason"] as? String == "work" && json["work"] as? String == "加班")
        #expect(json["workday"] as? Bool == true && json["makeup"] as? Bool == true)
        #expect(scratch.ok("workdays", "--from", "2026-12-04", "--to", "2026-12-07").output == ["2026-12-04", "2026-12-05", "2026-12-07"])
        // A day added already, in Chinese; the list.
        #expect(scratch.ok("work", "add", "12月5日").output == ["work 2026-12-05: 0 days added, 1 day added already (1 day off worked)"])
        #expect(scratch.ok("work", "list").output == ["2026-12-05 Sat  加班", "in all: 1 day, 1 day off worked"])
        // Leave over the same day takes it: a date is one or the other.
        #expect(scratch.ok("leave", "add", "2026-12-05").output == ["leave 2026-12-05: 1 day taken (no workday of leave)"])
        #expect(scratch.ok("work", "list").output == ["No days of work added."])
        #expect(scratch.run("workday", "2026-12-05").output == ["2026-12-05 Sat: day off (leave)"])
        #expect(scratch.ok("work", "remove", "2026-12-05").output == ["work 2026-12-05: 0 days removed"])
        #expect(scratch.ok("leave", "list").output == ["2026-12-05 Sat", "in all: 1 day, no workday of leave"])
    }

    @Test("a Saturday morning worked: the clock-in at 08:50 rings on it, the clock-out at 18:00 does not, and a makeup-day rule rings in the morning")
    func saturdayMorning() throws {
        let scratch = Scratch()
        let clockIn = scratch.add("reminder", "打卡", "--due", "2026-12-04 08:50", "--repeat", "每个工作日")
        let clockOut = scratch.add("reminder", "下班", "--due", "2026-12-04 18:00", "--repeat", "每个工作日")
        #expect(scratch.ok("work", "add", "2026-12-05", "--half", "上午", "--name", "加班").output == ["work 2026-12-05 (morning): 1 day added (half a day off worked)"])
        #expect(scratch.ok("next", "--count", "4").output == [
            "Fri 12-04 08:50        打卡  [\(clockIn)]  at the time — workday",
            "Fri 12-04 18:00        下班  [\(clockOut)]  at the time — workday",
            "Sat 12-05 08:50        打卡  [\(clockIn)]  at the time — extra workday in the morning: 加班",
            "Mon 12-07 08:50        打卡  [\(clockIn)]  at the time — workday; skipped 12-06 (weekend)",
        ])
        #expect(scratch.run("workday", "2026-12-05").output == ["2026-12-05 Sat: workday (extra workday in the morning: 加班)"])
        #expect(scratch.ok("work", "list").output == ["2026-12-05 Sat (morning)  加班", "in all: 1 day, half a day off worked"])
        let makeup = scratch.add("reminder", "补班", "--due", "2026-12-04 09:00", "--repeat", "FREQ=DAILY;X-WORKDAY=MAKEUP")
        #expect(scratch.ok("next", "--count", "8").output.contains { $0.hasPrefix("Sat 12-05 09:00        补班  [\(makeup)]") })
    }

    @Test("a weekday holiday worked (国庆节, Thursday 2026-10-01) is named as the day worked, not as an ordinary workday, and the holiday's other days are still passed over")
    func weekdayHolidayWorked() throws {
        let scratch = Scratch()
        let duty = scratch.add("event", "值班", "--start", "2026-09-30 08:50", "--duration", "1h", "--repeat", "每个工作日", "--alarm", "0m")
        scratch.ok("work", "add", "2026-10-01", "--name", "值班")
        #expect(scratch.ok("next", "--after", "2026-09-30 12:00", "--count", "2").output == [
            "Thu 10-01 08:50        值班  [\(duty)]  at the time — extra workday: 值班",
            "Thu 10-08 08:50        值班  [\(duty)]  at the time — workday; skipped 10-02…10-07 (国庆节)",
        ])
        let json = try scratch.run("workday", "2026-10-01", "--json").json()
        #expect(json["reason"] as? String == "work" && json["makeup"] as? Bool == false)
    }

    @Test("wrong days of work are refused with what was wrong and nothing written")
    func refusals() throws {
        let scratch = Scratch()
        scratch.ok("work", "add", "2026-12-26")
        try scratch.refuses(["work", "add", "2026-12-10", "--to", "2026-12-09"], status: 65, mentioning: ["--to 2026-12-09 is before 2026-12-10"])
        try scratch.refuses(["work", "add", "2026-01-01", "--to", "2027-06-01"], status: 65, mentioning: ["517 days", "at most 366"])
        try scratch.refuses(["work", "add", "1969-12-31"], status: 65, mentioning: ["outside the years 1970–2199"])
        try scratch.refuses(["work", "remove", "2026-12-26", "--name", "x"], status: 64, mentioning: ["--name is for 'chime work add'"])
        try scratch.refuses(["work", "list", "2026-12-26"], status: 64, mentioning: ["2026-12-26"])
        let days = try #require(try scratch.ok("work", "list", "--json").json()["days"] as? [[String: Any]])
        #expect(days.map { $0["date"] as? String } == ["2026-12-26"])
    }
}
