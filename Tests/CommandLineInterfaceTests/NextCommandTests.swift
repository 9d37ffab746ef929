@testable import AlarmScheduler
import CalendarModel
import CalendarStore
import CommandLineInterface
import Foundation
import TestSupport
import Testing

@Suite("chime next")
struct NextCommandTests {
    @Test("the coming firings, in order, with the alarm, the time it counts from and why a workday rings")
    func listing() throws {
        // Wednesday 2026-09-30, noon in Shanghai: the National Day break is ahead.
        let scratch = Scratch(now: Date(timeIntervalSince1970: RFC3339.instant("2026-09-30T12:00:00+08:00")!))
        let standUp = scratch.add("event", "Stand-up", "--start", "2026-09-24T09:30", "--duration", "15m", "--repeat", "workdays",
                                  "--alarm", "-10m")
        let dentist = scratch.add("event", "Dentist", "--start", "2026-10-08T15:00", "--alarm", "-1h")
        let run = scratch.ok("next", "--count", "4")
        #expect(run.output == [
            "Thu 10-08 09:20        Stand-up  [\(standUp)]  10m before 09:30 — workday; skipped 10-01…10-07 (国庆节)",
            "Thu 10-08 14:00        Dentist  [\(dentist)]  1h before 15:00",
            "Fri 10-09 09:20        Stand-up  [\(standUp)]  10m before 09:30 — workday",
            "Sat 10-10 09:20        Stand-up  [\(standUp)]  10m before 09:30 — makeup workday for 国庆节",
        ])
        let json = try scratch.ok("next", "--count", "1", "--json").json()
        let first = try #require((json["firings"] as? [[String: Any]])?.first)
        #expect(first["at"] as? String == "2026-10-08T09:20:00+08:00")
        #expect(first["why"] as? String == "workday; skipped 10-01…10-07 (国庆节)")
        // 2027 has no holiday data yet: the ordinary week rings on Friday 2027-01-01, and says so.
        let next = scratch.ok("next", "--after", "2027-01-01", "--count", "1").output.first ?? ""
        #expect(next.hasPrefix("Fri 01-01 09:20") && next.hasSuffix("no holiday data for 2027: ordinary week"))
        try scratch.refuses(["next", "--count", "-1"], status: 65, mentioning: ["--count"])
    }

    @Test("an empty store has nothing to come")
    func empty() throws {
        let scratch = Scratch()
        #expect(scratch.ok("next").output == ["No alarms to come."])
    }
}

@Suite("chime missed")
struct MissedCommandTests {
    @Test("lists what the scheduler passed over or showed late, newest first")
    func listing() throws {
        let scratch = Scratch()
        let id = scratch.add("event", "Stand-up", "--start", "2026-12-01T09:00", "--repeat", "daily", "--alarm", "0")
        #expect(scratch.ok("missed").output == ["Nothing missed."])
        // What the daemon does after a week away, done here by hand.
        let store = try scratch.store()
        let plan = try settle(store, settled: Int64(RFC3339.instant("2026-12-01T08:00:00+08:00")!),
                                       now: Int64(RFC3339.instant("2026-12-03T10:00:00+08:00")!))
        try AlarmLedger(store: store).record(plan.late.map { AlarmLedger.Delivery($0, outcome: .late, at: $0.instant) }
                         + plan.missed.map { AlarmLedger.Delivery($0, outcome: .missed, at: $0.instant) })
        #expect(scratch.ok("missed").output == [
            "Thu 12-03 09:00        Stand-up  [\(id)]  shown late",
            "Wed 12-02 09:00        Stand-up  [\(id)]  missed",
            "Tue 12-01 09:00        Stand-up  [\(id)]  missed",
        ])
        #expect(try (scratch.ok("missed", "--json").json()["missed"] as? [[String: Any]])?.first?["due"] as? String
            == "2026-12-03T09:00:00+08:00")
    }
}

@Suite("chime snooze")
struct SnoozeCommandTests {
    @Test("snoozes an item's latest firing, moves it when snoozed again, drops it with --dismiss; refuses what never rang")
    func snooze() throws {
        let scratch = Scratch()
        let id = scratch.add("reminder", "Stretch", "--due", "2026-12-01T07:00", "--alarm", "0")
        try scratch.refuses(["snooze", id], status: 66, mentioning: ["has not rung yet"])
        // What the daemon does when it shows the firing, done here by hand.
        let store = try scratch.store()
        let shown = try settle(store, settled: Int64(RFC3339.instant("2026-12-01T06:00:00+08:00")!),
                                                            now: Int64(scratch.now.timeIntervalSince1970)).late
        try AlarmLedger(store: store).record(shown.map { AlarmLedger.Delivery($0, outcome: .late, at: $0.instant) })
        #expect(scratch.ok("snooze", id).output == ["'Stretch' rings again at Tue 12-01 08:10"])
        #expect(scratch.ok("snooze", id, "30m").output == ["'Stretch' rings again at Tue 12-01 08:30"])
        #expect(scratch.ok("next").output.count == 1)
        #expect(scratch.ok("snooze", id, "--dismiss").output == ["dismissed 'Stretch'"])
        #expect(scratch.ok("next").output == ["No alarms to come."])
        try scratch.refuses(["snooze", id, "9d"], status: 65, mentioning: ["9d"])
    }

    @Test("snoozes until a time as well as for a duration: 9am, 'tomorrow 8:30', 'in an hour', '20 minutes'; refuses a day alone, a time past and one beyond 7 days (now = Tuesday 2026-12-01T08:00:00+08:00)")
    func snoozeUntilATime() throws {
        let scratch = Scratch()
        let id = scratch.add("reminder", "Stretch", "--due", "2026-12-01T07:00", "--alarm", "0")
        let store = try scratch.store()
        let shown = try settle(store, settled: Int64(RFC3339.instant("2026-12-01T06:00:00+08:00")!),
                               now: Int64(scratch.now.timeIntervalSince1970)).late
        try AlarmLedger(store: store).record(shown.map { AlarmLedger.Delivery($0, outcome: .late, at: $0.instant) })
        for (text, expected) in [("9am", "Tue 12-01 09:00"), ("tomorrow 8:30", "Wed 12-02 08:30"), ("in an hour", "Tue 12-01 09:00"),
                                 ("20 minutes", "Tue 12-01 08:20"), ("7am", "Wed 12-02 07:00")] {
            #expect(scratch.ok("snooze", id, text).output == ["'Stretch' rings again at \(expected)"], "\(text)")
        }
        try scratch.refuses(["snooze", id, "tomorrow"], status: 65, mentioning: ["is a day; give a time of day too"])
        try scratch.refuses(["snooze", id, "2026-11-30T09:00"], status: 65, mentioning: ["2026-11-30T09:00:00+08:00, which has passed"])
        try scratch.refuses(["snooze", id, "dec 24 9am"], status: 65, mentioning: ["more than 7 days away"])
        try scratch.refuses(["snooze", id, "soon"], status: 65, mentioning: ["neither a duration nor a time", "9am"])
    }
}
