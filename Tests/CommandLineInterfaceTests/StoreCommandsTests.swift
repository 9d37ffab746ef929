import CalendarModel
import Foundation
import Testing

/// The item commands against a real store file, with the clock fixed at
/// 2026-11-30T10:00:00+08:00 (Monday) and the machine in Asia/Shanghai.
@Suite("chime status, calendars, calendar, add, agenda, complete")
final class StoreCommandsTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-cli-\(UUID().uuidString)").path
    var database: String { folder + "/chime.db" }
    let now = Date(timeIntervalSince1970: 1_796_004_000) // 2026-11-30T02:00:00Z

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    func chime(_ arguments: String...) -> CapturedRun {
        CapturedRun(arguments, machineZone: "Asia/Shanghai", environment: ["CHIME_DB": database], now: now)
    }

    func json(_ run: CapturedRun) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(run.output.joined(separator: "\n").utf8))
    }

    @Test("status reports a store that does not exist yet, then counts what it holds")
    func status() throws {
        let before = chime("status")
        #expect(before.status == 0)
        #expect(before.output.contains("access: not determined"))
        #expect(chime("add", "reminder", "Milk").status == 0)
        let after = try #require(try json(chime("status", "--json")) as? [String: Any])
        #expect(after["access"] as? String == "authorized")
        #expect(after["reminders"] as? Int == 1)
        #expect(after["path"] as? String == database)
    }

    @Test("calendars are added, renamed, listed, and a non-empty one is removed only with --yes")
    func calendars() throws {
        #expect(chime("calendar", "add", "Work", "--color", "#FF9500").status == 0)
        #expect(chime("calendar", "add", "work").status == 65)
        #expect(chime("calendar", "rename", "Work", "Office").status == 0)
        #expect(chime("calendars").output == ["  Office  #FF9500", "* Personal  #3478F6"])
        #expect(chime("add", "event", "Review", "--start", "2026-12-01T10:00", "--calendar", "office").status == 0)
        let refused = chime("calendar", "remove", "Office")
        #expect(refused.status == 65)
        #expect(refused.errors.first?.contains("Office") == true)
        #expect(chime("calendar", "remove", "Office", "--yes").status == 0)
        #expect(chime("calendar", "remove", "Office").status == 66)
    }

    @Test("the agenda shows today's and tomorrow's events and the reminders due by then, on the local clock")
    func agenda() throws {
        #expect(chime("add", "event", "Stand-up", "--start", "2026-11-30T09:00", "--duration", "15m",
                      "--repeat", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR").status == 0)
        #expect(chime("add", "event", "Holiday", "--start", "2026-12-01", "--all-day").status == 0)
        #expect(chime("add", "event", "Later", "--start", "2026-12-03T09:00").status == 0)
        #expect(chime("add", "reminder", "Clock in", "--due", "tomorrow 08:50").status == 0)
        #expect(chime("add", "reminder", "Someday").status == 0)
        let lines = chime("agenda").output.map { $0.replacingOccurrences(of: #"  \[[0-9a-f]{8}\]$"#, with: "", options: .regularExpression) }
        #expect(lines == [
            "Mon 11-30 09:00–09:15  Stand-up",
            "Tue 12-01 all day  Holiday",
            "Tue 12-01 09:00–09:15  Stand-up",
            "[ ] Tue 12-01 08:50 Clock in",
        ])
    }

    @Test("add event stores every option, and --json shows them back through the agenda")
    func addEventOptions() throws {
        let added = chime("add", "event", "Planning & <review>", "--start", "tomorrow 14:00", "--end", "tomorrow 15:30",
                          "--location", "Room 5", "--notes", "Bring numbers", "--url", "https://example.org/p",
                          "--alarm", "-10m", "--alarm-at", "2026-12-01T13:00", "--alarm-leave", "31.2304,121.4737,150",
                          "--key", "planning", "--json")
        #expect(added.status == 0)
        let agenda = try #require(try json(chime("agenda", "--json")) as? [String: Any])
        let event = try #require((agenda["events"] as? [[String: Any]])?.first)
        #expect(event["title"] as? String == "Planning & <review>")
        #expect(event["location"] as? String == "Room 5")
        #expect(event["key"] as? String == "planning")
        #expect((event["start"] as? [String: Any])?["instant"] as? String == "2026-12-01T14:00:00+08:00")
        #expect((event["end"] as? [String: Any])?["local"] as? String == "2026-12-01T15:30:00")
        let alarms = try #require(event["alarms"] as? [[String: Any]])
        #expect(alarms.count == 3)
        #expect(alarms[0]["offset"] as? Int == -600)
        #expect(alarms[1]["at"] as? Int == 1_796_101_200)
        #expect((alarms[2]["leave"] as? [String: Any])?["radius"] as? Double == 150)
    }

    @Test("adding again with the same --key updates the item instead of adding another")
    func keyIsIdempotent() throws {
        #expect(chime("add", "event", "First", "--start", "2026-12-01T10:00", "--key", "sync-1").status == 0)
        #expect(chime("add", "event", "Second", "--start", "2026-12-01T11:00", "--key", "sync-1").status == 0)
        let events = try #require((try json(chime("agenda", "--json")) as? [String: Any])?["events"] as? [[String: Any]])
        #expect(events.map { $0["title"] as? String } == ["Second"])
    }

    @Test("completing a repeating reminder moves it to its next due time")
    func complete() throws {
        let id = chime("add", "reminder", "Clock in", "--due", "2026-11-30T08:50", "--repeat", "FREQ=DAILY").output.first ?? ""
        #expect(chime("complete", id).status == 0)
        #expect(chime("agenda").output.last?.hasPrefix("[ ] Tue 12-01 08:50 Clock in") == true)
    }

    @Test("bad values exit 65, unknown names 66, usage mistakes 64, and nothing is written", arguments: [
        (["add", "event", "X", "--start", "2026-02-30T10:00"], Int32(65), "2026-02-30"),
        (["add", "event", "X", "--start", "tomorrow", "--tz", "Mars/Olympus"], 65, "Mars/Olympus"),
        (["add", "event", "X", "--start", "tomorrow", "--repeat", "FREQ=DAILY;BYMONTHDAY=32"], 65, "BYMONTHDAY"),
        (["add", "event", "X", "--start", "tomorrow 10:00", "--end", "tomorrow 09:00"], 65, "before"),
        (["add", "reminder", "X", "--alarm-arrive", "91,0"], 65, "latitude"),
        (["add", "reminder", "X", "--priority", "10"], 65, "priority"),
        (["add", "event", "X", "--start", "tomorrow", "--calendar", "Nope"], 66, "Nope"),
        (["complete", "abcdef"], 66, "abcdef"),
        (["add", "event", "X"], 64, "--start"),
        (["add", "thing", "X"], 64, "event"),
    ])
    func refusals(arguments: [String], status: Int32, mention: String) throws {
        #expect(chime("calendars").status == 0)
        let before = try json(chime("status", "--json")) as? [String: Any]
        #expect(before?["changes"] != nil)
        let run = CapturedRun(arguments, machineZone: "Asia/Shanghai", environment: ["CHIME_DB": database], now: now)
        #expect(run.status == status)
        #expect(run.errors.first?.contains(mention) == true, "\(run.errors)")
        let after = try json(chime("status", "--json")) as? [String: Any]
        #expect(after?["changes"] as? Int == before?["changes"] as? Int)
    }
}
