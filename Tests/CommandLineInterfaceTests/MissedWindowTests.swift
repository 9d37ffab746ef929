import CalendarModel
import CommandLineInterface
import Foundation
import Testing

@Suite("--missed-window: how late an alarm is still shown")
struct MissedWindowTests {
    @Test("add sets it on the item's timed alarms, show reports it, edit changes or clears it, bad values change nothing")
    func setShowEdit() throws {
        let scratch = Scratch()
        let id = scratch.add("reminder", "Pay rent", "--due", "2026-12-05T10:00", "--alarm", "0", "--alarm", "-1d",
                             "--alarm-leave", "31.2304,121.4737", "--missed-window", "never")
        func windows() throws -> [Int?] {
            let json = try scratch.ok("show", id, "--json").json()
            let alarms = try #require(json["alarms"] as? [[String: Any]])
            return alarms.map { $0["missedWindowSeconds"] as? Int }
        }
        // The location alarm has no time to be late for.
        #expect(try windows() == [0, 0, nil])
        #expect(scratch.ok("show", id).output.contains { $0.contains("at the time (if missed: never shown late)") })

        scratch.ok("edit", id, "--missed-window", "1d12h")
        #expect(try windows() == [129_600, 129_600, nil])
        #expect(scratch.ok("show", id).output.contains { $0.contains("1d before (if missed: shown up to 1d12h late)") })
        scratch.ok("edit", id, "--missed-window", "default")
        #expect(try windows() == [nil, nil, nil])

        try scratch.refuses(["edit", id, "--missed-window", "soon"], status: 65, mentioning: ["--missed-window", "soon"])
        try scratch.refuses(["edit", id, "--missed-window", "-1h"], status: 65, mentioning: ["--missed-window"])
    }
}

@Suite("--dwell and --first-position: how location alarms ring")
struct LocationAlarmOptionTests {
    @Test("add sets the dwell on arrive alarms and the first-position choice on both kinds; show and edit follow; misuse changes nothing")
    func setShowEdit() throws {
        let scratch = Scratch()
        let id = scratch.add("reminder", "Buy milk", "--alarm-arrive", "31.2304,121.4737,150", "--alarm-leave", "31.2304,121.4737",
                             "--dwell", "5m", "--first-position", "rings")
        func choices() throws -> [String] {
            let json = try scratch.ok("show", id, "--json").json()
            let alarms = try #require(json["alarms"] as? [[String: Any]])
            return alarms.map { "\($0["proximity"] as? String ?? "?") \($0["dwellSeconds"] as? Int ?? -1) \($0["firstPositionRings"] as? Bool ?? false)" }
        }
        // A leave alarm does not dwell: its margin already keeps it from flapping.
        #expect(try choices() == ["enter 300 true", "leave 0 true"])
        #expect(scratch.ok("show", id).output.contains { $0.contains("within 150 m, after 5m inside, also on the first position") })

        scratch.ok("edit", id, "--dwell", "0", "--first-position", "quiet")
        #expect(try choices() == ["enter 0 false", "leave 0 false"])

        let before = try choices()
        try scratch.refuses(["edit", id, "--first-position", "sometimes"], status: 65, mentioning: ["--first-position", "sometimes"])
        try scratch.refuses(["edit", id, "--dwell", "soon"], status: 65, mentioning: ["--dwell", "soon"])
        #expect(try choices() == before)
        try scratch.refuses(["add", "reminder", "Timed", "--alarm-at", "+1h", "--dwell", "5m"], status: 64, mentioning: ["--dwell", "arrive"])
        try scratch.refuses(["add", "reminder", "Leave", "--alarm-leave", "31.2304,121.4737", "--dwell", "5m"], status: 64,
                            mentioning: ["--dwell"])
        try scratch.refuses(["add", "reminder", "Timed", "--alarm-at", "+1h", "--first-position", "rings"], status: 64,
                            mentioning: ["--first-position", "location"])
    }
}
