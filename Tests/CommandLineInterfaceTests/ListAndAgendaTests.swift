import CalendarModel
import CommandLineInterface
import Foundation
import Testing

@Suite("chime list and agenda")
struct ListAndAgendaTests {
    @Test("list events with only --from or --to stretches the week from today to reach it, a week at least; a range of more than 100000 events is refused")
    func oneEndAndTheBound() throws {
        // Today is Tuesday 2026-12-01 in Shanghai.
        let scratch = Scratch()
        let walk = scratch.add("event", "Walk", "--start", "2026-11-01T07:00", "--duration", "30m", "--repeat", "daily")
        func days(_ arguments: String...) -> [String] {
            scratch.run(["list", "events"] + arguments).output.map { String($0.prefix(9)) }
        }
        // From Sunday 2026-12-20 (midnight) to Sunday 12-27 (midnight): seven walks.
        #expect(days("--from", "2026-12-20") == ["Sun 12-20", "Mon 12-21", "Tue 12-22", "Wed 12-23", "Thu 12-24", "Fri 12-25", "Sat 12-26"])
        let json = try scratch.ok("list", "events", "--from", "2026-12-20", "--json").json()
        #expect(json["to"] as? String == "2026-12-27T00:00:00+08:00")
        // Up to the end of Thursday 2026-11-26: from Friday 11-20.
        #expect(days("--to", "2026-11-26") == ["Fri 11-20", "Sat 11-21", "Sun 11-22", "Mon 11-23", "Tue 11-24", "Wed 11-25", "Thu 11-26"])
        #expect(scratch.ok("list", "events").output.first?.hasSuffix("Walk  [\(walk)]") == true)
        // From Sunday 2026-11-29, before today, to the end of the week from today (12-08 at midnight): nine walks.
        #expect(days("--from", "2026-11-29").count == 9)
        #expect(days("--to", "2026-12-10") == ["Tue 12-01", "Wed 12-02", "Thu 12-03", "Fri 12-04", "Sat 12-05", "Sun 12-06", "Mon 12-07",
                                               "Tue 12-08", "Wed 12-09", "Thu 12-10"])

        scratch.add("event", "Tick", "--start", "2026-12-01T00:00", "--repeat", "FREQ=MINUTELY")
        // 70 days of minutes: 100,800; 69 days: 99,360, with the walks 99,429.
        try scratch.refuses(["list", "events", "--from", "2026-12-01", "--to", "2027-02-08"], status: 65,
                            mentioning: ["more than 100000", "give a shorter range"])
        #expect(scratch.ok("list", "events", "--from", "2026-12-01", "--to", "2027-02-07").output.count == 99_429)
    }

    @Test("the agenda for Tuesday morning: today's and tomorrow's events, then reminders due by tomorrow night and overdue ones")
    func agenda() throws {
        let scratch = Scratch()
        let standUp = scratch.add("event", "Stand-up", "--start", "2026-11-30T08:50", "--duration", "10m",
                                  "--repeat", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")
        let dinner = scratch.add("event", "Dinner", "--start", "2026-12-02T19:00", "--end", "2026-12-02T21:00")
        let offsite = scratch.add("event", "Offsite", "--start", "2026-12-02")
        scratch.add("event", "Next week", "--start", "2026-12-08T10:00")
        let rent = scratch.add("reminder", "Pay rent", "--due", "2026-11-30 17:00")
        let milk = scratch.add("reminder", "Buy milk", "--due", "today")
        let call = scratch.add("reminder", "Call mum", "--due", "2026-12-02 09:00")
        scratch.add("reminder", "Later", "--due", "2026-12-03")
        scratch.add("reminder", "Someday")
        let done = scratch.add("reminder", "Done already", "--due", "today")
        scratch.ok("complete", done)
        #expect(scratch.ok("agenda").output == [
            "Tue 12-01 08:50–09:00  Stand-up  [\(standUp)]",
            "Wed 12-02 all day      Offsite  [\(offsite)]",
            "Wed 12-02 08:50–09:00  Stand-up  [\(standUp)]",
            "Wed 12-02 19:00–21:00  Dinner  [\(dinner)]",
            "",
            "Reminders",
            "Mon 11-30 17:00        Pay rent (overdue)  [\(rent)]",
            "Tue 12-01              Buy milk  [\(milk)]",
            "Wed 12-02 09:00        Call mum  [\(call)]",
        ])
        let json = try scratch.ok("agenda", "--json").json()
        #expect(json["from"] as? String == "2026-12-01T00:00:00+08:00")
        #expect(json["to"] as? String == "2026-12-03T00:00:00+08:00")
        let events = try #require(json["events"] as? [[String: Any]])
        #expect(events.map { $0["title"] as? String } == ["Stand-up", "Offsite", "Stand-up", "Dinner"])
        #expect(events[0]["seriesIdentifier"] as? String == events[0]["identifier"] as? String)
        #expect(events[0]["originalStart"] as? String == "2026-12-01T08:50:00+08:00")
        let reminders = try #require(json["reminders"] as? [[String: Any]])
        #expect(reminders.map { $0["title"] as? String } == ["Pay rent", "Buy milk", "Call mum"])
        #expect(reminders[0]["overdue"] as? Bool == true)
    }

    @Test("with a workday rule in use, the agenda first says which of today and tomorrow are not what their weekday says (a day of leave, the makeup Saturday after 国庆节); without one it says nothing of them")
    func notableDays() throws {
        // Friday 2026-10-09, 08:00 in Shanghai; Saturday 2026-10-10 is a makeup workday.
        let friday = Date(timeIntervalSince1970: 1_791_504_000)   // 2026-10-09T00:00:00Z
        let plain = Scratch(now: friday)
        let party = plain.add("event", "Party", "--start", "2026-10-10T19:00", "--duration", "2h")
        #expect(plain.ok("agenda").output == ["Sat 10-10 19:00–21:00  Party  [\(party)]"])

        let scratch = Scratch(now: friday)
        let duty = scratch.add("event", "Clock in", "--start", "2026-10-08T08:50", "--duration", "10m", "--repeat", "every workday")
        scratch.ok("leave", "add", "2026-10-09", "--name", "年假")
        #expect(scratch.ok("agenda").output == [
            "Fri 10-09              day off (leave: 年假)",
            "Sat 10-10              workday (makeup workday for 国庆节)",
            "Sat 10-10 08:50–09:00  Clock in  [\(duty)]",
        ])
        let days = try #require(try scratch.ok("agenda", "--json").json()["days"] as? [[String: Any]])
        #expect(days.map { $0["date"] as? String } == ["2026-10-09", "2026-10-10"])
        #expect(days.map { $0["reason"] as? String } == ["leave", "makeup"])
        #expect(days.map { $0["workday"] as? Bool } == [false, true])
        #expect(days.last?["holiday"] as? String == "国庆节")
        #expect(try #require(try plain.ok("agenda", "--json").json()["days"] as? [Any]).isEmpty)

        // The days are said though nothing else is due.
        let quiet = Scratch(now: friday)
        quiet.add("reminder", "打卡", "--due", "2026-10-20 08:50", "--repeat", "every workday")
        #expect(quiet.ok("agenda").output == ["Sat 10-10              workday (makeup workday for 国庆节)",
                                              "No events or reminders today or tomorrow."])
    }

    @Test("an empty agenda says so")
    func emptyAgenda() {
        #expect(Scratch().ok("agenda").output == ["Nothing today or tomorrow."])
    }

    @Test("list events: today and six days after by default, --from and --to, --calendar")
    func listEvents() throws {
        let scratch = Scratch()
        scratch.ok("calendar", "add", "Work")
        let today = scratch.add("event", "Today", "--start", "2026-12-01T18:00")
        let monday = scratch.add("event", "Monday", "--start", "2026-12-07T09:00", "--calendar", "Work")
        let after = scratch.add("event", "Tuesday after", "--start", "2026-12-08T09:00")
        #expect(scratch.ok("list", "events").output == [
            "Tue 12-01 18:00–19:00  Today  [\(today)]",
            "Mon 12-07 09:00–10:00  Monday  [\(monday)]",
        ])
        #expect(scratch.ok("list", "events", "--from", "2026-12-07", "--to", "2026-12-08").output == [
            "Mon 12-07 09:00–10:00  Monday  [\(monday)]",
            "Tue 12-08 09:00–10:00  Tuesday after  [\(after)]",
        ])
        #expect(scratch.ok("list", "events", "--calendar", "Work", "--to", "+14d").output == ["Mon 12-07 09:00–10:00  Monday  [\(monday)]"])
        let json = try scratch.ok("list", "events", "--json").json()
        #expect(json["from"] as? String == "2026-12-01T00:00:00+08:00")
        #expect(json["to"] as? String == "2026-12-08T00:00:00+08:00")
        #expect((json["events"] as? [[String: Any]])?.count == 2)
    }

    @Test("list reminders: incomplete by default, --completed, --all, a due range")
    func listReminders() throws {
        let scratch = Scratch()
        let a = scratch.add("reminder", "A", "--due", "2026-12-01 10:00")
        let b = scratch.add("reminder", "B", "--due", "2026-12-05")
        let c = scratch.add("reminder", "C")
        scratch.ok("complete", a)
        #expect(scratch.ok("list", "reminders").output == [
            "Sat 12-05              B  [\(b)]",
            "anytime                C  [\(c)]",
        ])
        #expect(scratch.ok("list", "reminders", "--incomplete", "--to", "2026-12-04").output == ["No reminders."])
        #expect(scratch.ok("list", "reminders", "--completed").output == ["Tue 12-01 10:00        A (done Tue 12-01)  [\(a)]"])
        #expect(scratch.ok("list", "reminders", "--all").output.count == 3)
        let json = try scratch.ok("list", "reminders", "--completed", "--json").json()
        let first = try #require((json["reminders"] as? [[String: Any]])?.first)
        #expect(first["completed"] as? Bool == true)
        #expect(first["completionDate"] as? String == "2026-12-01T00:00:00Z")
    }

    @Test("list refusals: 64 for the command line, 65 for times, 66 for calendars")
    func refusals() throws {
        let scratch = Scratch()
        scratch.ok("status")
        scratch.add("reminder", "Something")
        try scratch.refuses(["list"], status: 64, mentioning: ["missing events or reminders"])
        try scratch.refuses(["list", "todos"], status: 64, mentioning: ["'todos'"])
        try scratch.refuses(["list", "events", "--completed"], status: 64, mentioning: ["--completed is for reminders"])
        try scratch.refuses(["list", "reminders", "--completed", "--incomplete"], status: 64, mentioning: ["give one of"])
        try scratch.refuses(["list", "events", "--from", "soonish"], status: 65, mentioning: ["--from", "'soonish'"])
        try scratch.refuses(["list", "events", "--from", "2026-12-05", "--to", "2026-12-01"], status: 65, mentioning: ["before"])
        try scratch.refuses(["list", "events", "--calendar", "Nowhere"], status: 66, mentioning: ["calendar 'Nowhere'"])
        try scratch.refuses(["agenda", "--calendar", "Nowhere"], status: 66, mentioning: ["calendar 'Nowhere'"])
    }
}
