import AlarmScheduler
import CalendarModel
import CalendarStore
import CommandLineInterface
import Foundation
import Synchronization
import TestSupport
import Testing

/// Alarms as a person means them: a due time rings, "10m" is before, and a
/// repeating reminder rings on every occurrence.
@Suite("Reminder alarms as people mean them")
struct ReminderAlarmTests {
    /// The alarms of an item's JSON, as offsets in seconds (nil for other kinds).
    func offsets(_ scratch: Scratch, _ id: String) throws -> [Int?] {
        let alarms = try #require(try scratch.ok("show", id, "--json").json()["alarms"] as? [[String: Any]])
        return alarms.map { $0["offsetSeconds"] as? Int }
    }

    @Test("a due time implies an alarm at it, a due date one at 09:00 (CHIME_DAY_ALARM sets another); show, --json and next show it; --no-alarm and explicit alarms replace it")
    func impliedAlarm() throws {
        let scratch = Scratch()  // Tuesday 2026-12-01, 08:00 in Shanghai
        let stretch = scratch.add("reminder", "Stretch", "--due", "+2m")
        #expect(try offsets(scratch, stretch) == [0])
        #expect(scratch.ok("show", stretch).output.contains("Alarm:    at the time"))
        // 2026-12-01T08:02:00+08:00.
        #expect(scratch.ok("next", "--count", "1").output == ["Tue 12-01 08:02        Stretch  [\(stretch)]  at the time"])

        let bill = scratch.add("reminder", "Pay the bill", "--due", "2026-12-03")
        #expect(try offsets(scratch, bill) == [9 * 3600])
        #expect(scratch.ok("show", bill).output.contains("Alarm:    at 09:00 on the day"))
        // 2026-12-03T09:00:00+08:00.
        #expect(scratch.ok("next", "--after", "2026-12-02").output.first == "Thu 12-03 09:00        Pay the bill  [\(bill)]  at 09:00 on the day")
        scratch.environment = ["CHIME_DAY_ALARM": "07:30"]
        let early = scratch.add("reminder", "Take out the bins", "--due", "2026-12-04")
        #expect(try offsets(scratch, early) == [7 * 3600 + 1800])
        scratch.environment = ["CHIME_DAY_ALARM": "9am"]
        try scratch.refuses(["add", "reminder", "X", "--due", "2026-12-04"], status: 65, mentioning: ["CHIME_DAY_ALARM", "'9am'", "HH:MM"])
        scratch.environment = [:]

        let quiet = scratch.add("reminder", "Quiet", "--due", "2026-12-02T10:00", "--no-alarm")
        #expect(try offsets(scratch, quiet) == [])
        let chosen = scratch.add("reminder", "Chosen", "--due", "2026-12-02T10:00", "--alarm", "-5m", "--alarm-at", "2026-12-02T07:00")
        #expect(try offsets(scratch, chosen) == [-300, nil])
        let someday = scratch.add("reminder", "Someday")
        #expect(try offsets(scratch, someday) == [])
        try scratch.refuses(["add", "reminder", "X", "--due", "2026-12-02T10:00", "--no-alarm", "--alarm", "0"], status: 64,
                            mentioning: ["--no-alarm", "--alarm"])
    }

    @Test("chime edit: a first due time brings the implied alarm, an implied alarm follows a date that becomes a time, chosen silence stays")
    func editDue() throws {
        let scratch = Scratch()
        let someday = scratch.add("reminder", "Someday")
        scratch.ok("edit", someday, "--due", "2026-12-05")
        #expect(try offsets(scratch, someday) == [9 * 3600])
        scratch.ok("edit", someday, "--due", "2026-12-05T18:00")
        #expect(try offsets(scratch, someday) == [0])
        scratch.ok("edit", someday, "--due", "none")
        #expect(try offsets(scratch, someday) == [])
        let quiet = scratch.add("reminder", "Quiet", "--due", "2026-12-02T10:00", "--no-alarm")
        scratch.ok("edit", quiet, "--due", "2026-12-03")
        #expect(try offsets(scratch, quiet) == [])
        let chosen = scratch.add("reminder", "Chosen", "--due", "2026-12-02T10:00", "--alarm", "-1h")
        scratch.ok("edit", chosen, "--due", "2026-12-03T10:00")
        #expect(try offsets(scratch, chosen) == [-3600])
        scratch.ok("edit", chosen, "--due", "2026-12-04T10:00", "--alarm", "+15m")
        #expect(try offsets(scratch, chosen) == [900])
        // A chosen alarm counted from the due time would never ring without one: refused, unless the alarms go too.
        try scratch.refuses(["edit", chosen, "--due", "none"], status: 64, mentioning: ["--due none", "--no-alarms"])
        #expect(try offsets(scratch, chosen) == [900])
        let mixed = scratch.add("reminder", "Mixed", "--due", "2026-12-02T10:00", "--alarm", "-1h", "--alarm-at", "2026-12-02T07:00")
        try scratch.refuses(["edit", mixed, "--due", "none"], status: 64, mentioning: ["--due none"])
        scratch.ok("edit", mixed, "--due", "none", "--alarm-at", "2026-12-02T07:00")
        #expect(try offsets(scratch, mixed) == [nil])
        scratch.ok("edit", chosen, "--due", "none", "--no-alarms")
        #expect(try offsets(scratch, chosen) == [])
    }

    @Test("an alarm offset reads as said: 10m and -10m (also as --alarm=-10m and --alarm -10m) are before, +10m after; next and show say so")
    func offsetsAsSaid() throws {
        let scratch = Scratch()
        let id = scratch.add("event", "Flight", "--start", "2026-12-05T10:00", "--alarm", "10m", "--alarm=-20m", "--alarm", "-30m",
                             "--alarm", "+10m", "--alarm", "0")
        let json = try scratch.ok("show", id, "--json").json()
        let alarms = try #require(json["alarms"] as? [[String: Any]])
        #expect(alarms.map { $0["offsetSeconds"] as? Int } == [-600, -1200, -1800, 600, 0])
        let shown = scratch.ok("show", id).output
        #expect(shown.contains("Alarm:    10m before") && shown.contains("Alarm:    10m after") && shown.contains("Alarm:    at the time"))
        // 2026-12-05T09:30:00+08:00 first; 10:10 last.
        let next = scratch.ok("next", "--after", "2026-12-05").output
        #expect(next == [
            "Sat 12-05 09:30        Flight  [\(id)]  30m before 10:00", "Sat 12-05 09:40        Flight  [\(id)]  20m before 10:00",
            "Sat 12-05 09:50        Flight  [\(id)]  10m before 10:00", "Sat 12-05 10:00        Flight  [\(id)]  at the time",
            "Sat 12-05 10:10        Flight  [\(id)]  10m after 10:00",
        ])
        #expect(CapturedRun(["add", "reminder", "--help"]).text.contains("10m or -10m is ten minutes before, +10m ten minutes after"))
    }

    @Test("an alarm offset in words reads as chime show writes it: '10 minutes before', '1h after', 'an hour before', 'at the time'; a sign beside one is refused (65)")
    func offsetsInWords() throws {
        let scratch = Scratch()
        let id = scratch.add("event", "Flight", "--start", "2026-12-05T10:00", "--alarm", "10 minutes before",
                             "--alarm", "1h after", "--alarm", "An hour BEFORE", "--alarm", "1 hour and 30 minutes before", "--alarm", "at the time")
        #expect(try offsets(scratch, id) == [-600, 3600, -3600, -5400, 0])
        // What show writes reads back as the same offsets.
        let written = scratch.ok("show", id).output.filter { $0.hasPrefix("Alarm:") }.map { $0.dropFirst("Alarm:".count).trimmingCharacters(in: .whitespaces) }
        #expect(written == ["10m before", "1h after", "1h before", "1h30m before", "at the time"])
        let again = scratch.run(["add", "event", "Again", "--start", "2026-12-05T10:00"] + written.flatMap { ["--alarm", $0] })
        #expect(again.status == 0, "\(again.errors)")
        #expect(try offsets(scratch, try #require(again.output.first)) == [-600, 3600, -3600, -5400, 0])

        try scratch.refuses(["add", "event", "Signed", "--start", "2026-12-05T10:00", "--alarm", "+10m before"], status: 65, mentioning: [
            "chime add event: --alarm: '+10m before' has a sign and 'before'; give one of them, as in 10m, +10m or '10 minutes before'",
        ])
        try scratch.refuses(["add", "event", "Unit", "--start", "2026-12-05T10:00", "--alarm", "2 months before"], status: 65,
                            mentioning: ["months and years have no fixed length"])
    }

    @Test("times in words through chime add: 'tomorrow at 5pm', 'in 10 minutes', 'dec 24 9am' (now = Tuesday 2026-12-01T08:00:00+08:00)")
    func timesInWords() throws {
        let scratch = Scratch()
        let call = scratch.add("reminder", "Call back", "--due", "in 10 minutes")
        let parcel = scratch.add("event", "Pick up parcel", "--start", "tomorrow at 5pm")
        let party = scratch.add("event", "Party", "--start", "dec 24 9pm", "--end", "dec 24 11:30pm")
        let due = { (id: String, key: String) throws -> String? in try scratch.ok("show", id, "--json").json()[key] as? String }
        #expect(try due(call, "due") == "2026-12-01T08:10:00+08:00")
        #expect(try due(parcel, "start") == "2026-12-02T17:00:00+08:00")
        #expect(try due(party, "start") == "2026-12-24T21:00:00+08:00")
        #expect(try due(party, "end") == "2026-12-24T23:30:00+08:00")
        try scratch.refuses(["add", "event", "Wrong", "--start", "tomorrow at 13pm"], status: 65, mentioning: [
            "chime add event: --start: 'tomorrow at 13pm' is not a date or time: hour 13 is past 12 on a 12-hour clock",
        ])
    }

    @Test("Chinese times through chime add: 明天8:50, 下周一上午9点半, 10分钟后, 12月24日 (now = Tuesday 2026-12-01T08:00:00+08:00)")
    func chineseTimes() throws {
        let scratch = Scratch()
        let clockIn = scratch.add("reminder", "打卡", "--due", "明天8:50", "--repeat", "every workday")
        let review = scratch.add("event", "周会", "--start", "下周一上午9点半", "--duration", "1h")
        let call = scratch.add("reminder", "回电话", "--due", "10分钟后")
        let eve = scratch.add("event", "平安夜", "--start", "12月24日")
        let shown = { (id: String, key: String) throws -> String? in try scratch.ok("show", id, "--json").json()[key] as? String }
        #expect(try shown(clockIn, "due") == "2026-12-02T08:50:00+08:00")
        #expect(try shown(review, "start") == "2026-12-07T09:30:00+08:00")
        #expect(try shown(review, "end") == "2026-12-07T10:30:00+08:00")
        #expect(try shown(call, "due") == "2026-12-01T08:10:00+08:00")
        #expect(try shown(eve, "start") == "2026-12-24")
        try scratch.refuses(["add", "event", "Wrong", "--start", "明天晚上12点"], status: 65, mentioning: [
            "chime add event: --start: '明天晚上12点' is not a date or time: '晚上12点' is ambiguous; write 0点 of the next day, or 中午12点",
        ])
    }

    @Test("the clock-in reminder rings on after its first workday with nobody completing it; a passed-over day is listed once as not done; completing completes today's")
    func clockInRingsOn() throws {
        // Tuesday 2026-12-01, 08:00 in Shanghai.
        let scratch = Scratch()
        let id = scratch.add("reminder", "Clock in", "--due", "08:50", "--repeat", "workdays", "--alarm", "0")
        // From 2026-12-10: Thursday, Friday, then Monday 12-14.
        #expect(scratch.ok("next", "--after", "2026-12-10", "--count", "3").output == [
            "Thu 12-10 08:50        Clock in  [\(id)]  at the time — workday",
            "Fri 12-11 08:50        Clock in  [\(id)]  at the time — workday",
            "Mon 12-14 08:50        Clock in  [\(id)]  at the time — workday; skipped 12-12…12-13 (weekend)",
        ])
        // Asked from 2026-09-24, the first firing is the series' first: nothing was skipped before it.
        #expect(scratch.ok("next", "--after", "2026-09-24", "--count", "1").output == [
            "Tue 12-01 08:50        Clock in  [\(id)]  at the time — workday",
        ])
        // Thursday 2026-12-03 09:00: 12-01 and 12-02 came and went, not done; 12-03 is the current one.
        scratch.now = Date(timeIntervalSince1970: RFC3339.instant("2026-12-03T09:00:00+08:00")!)
        #expect(scratch.ok("missed").output == [
            "Wed 12-02 08:50        Clock in  [\(id)]  not done (the reminder moved on)",
            "Tue 12-01 08:50        Clock in  [\(id)]  not done (the reminder moved on)",
        ])
        scratch.ok("complete", id)
        #expect(try scratch.ok("show", id, "--json").json()["due"] as? String == "2026-12-04T08:50:00+08:00")
        let done = try #require(try scratch.ok("list", "reminders", "--completed", "--json").json()["reminders"] as? [[String: Any]])
        #expect(done.map { $0["due"] as? String } == ["2026-12-03T08:50:00+08:00"])
        // Still listed once each, now from the log.
        let missed = try #require(try scratch.ok("missed", "--json").json()["missed"] as? [[String: Any]])
        #expect(missed.map { $0["outcome"] as? String } == ["not-done", "not-done"])
        #expect(missed.map { $0["due"] as? String } == ["2026-12-02T08:50:00+08:00", "2026-12-01T08:50:00+08:00"])
    }

    @Test("a repeating reminder is shown at its current occurrence, the one complete completes, not at its oldest passed-over one: show, list, agenda, --json (storedDue keeps the stored one)")
    func shownAtTheCurrentOccurrence() throws {
        let scratch = Scratch()
        let id = scratch.add("reminder", "Water the plants", "--due", "2026-12-01T08:50", "--repeat", "daily")
        let rent = scratch.add("reminder", "Pay rent", "--due", "2026-12-03T09:00")
        // Saturday 2026-12-05 12:00 in Shanghai: 12-01…12-04 were passed over, 12-05 08:50 is the current one.
        scratch.now = Date(timeIntervalSince1970: RFC3339.instant("2026-12-05T12:00:00+08:00")!)
        let shown = scratch.ok("show", id).output
        #expect(shown.contains("Due:      Sat 2026-12-05 08:50"), "\(shown)")
        let json = try scratch.ok("show", id, "--json").json()
        #expect(json["due"] as? String == "2026-12-05T08:50:00+08:00")
        #expect(json["storedDue"] as? String == "2026-12-01T08:50:00+08:00")
        // Listed by the due times shown: rent (12-03) before today's watering.
        #expect(scratch.ok("list", "reminders").output == [
            "Thu 12-03 09:00        Pay rent (overdue)  [\(rent)]", "Sat 12-05 08:50        Water the plants (overdue)  [\(id)]",
        ])
        // Due from today on: the current occurrence is today's.
        #expect(scratch.ok("list", "reminders", "--from", "2026-12-05").output == ["Sat 12-05 08:50        Water the plants (overdue)  [\(id)]"])
        let listed = try #require(try scratch.ok("list", "reminders", "--json").json()["reminders"] as? [[String: Any]])
        #expect(listed.map { $0["due"] as? String } == ["2026-12-03T09:00:00+08:00", "2026-12-05T08:50:00+08:00"])
        #expect(listed.map { $0["storedDue"] as? String } == ["2026-12-03T09:00:00+08:00", "2026-12-01T08:50:00+08:00"])
        #expect(scratch.ok("agenda").output == [
            "Reminders", "Thu 12-03 09:00        Pay rent (overdue)  [\(rent)]", "Sat 12-05 08:50        Water the plants (overdue)  [\(id)]",
        ])
        let agenda = try #require(try scratch.ok("agenda", "--json").json()["reminders"] as? [[String: Any]])
        #expect(agenda.map { $0["due"] as? String } == ["2026-12-03T09:00:00+08:00", "2026-12-05T08:50:00+08:00"])
        // complete completes that same occurrence, and says so.
        #expect(scratch.ok("complete", id).output == ["completed 'Water the plants' due Sat 2026-12-05 08:50; next due Sun 2026-12-06 08:50 [\(id)]"])
        let done = try #require(try scratch.ok("list", "reminders", "--completed", "--json").json()["reminders"] as? [[String: Any]])
        #expect(done.map { $0["due"] as? String } == ["2026-12-05T08:50:00+08:00"])
        #expect(scratch.ok("list", "reminders").output == [
            "Thu 12-03 09:00        Pay rent (overdue)  [\(rent)]", "Sun 12-06 08:50        Water the plants  [\(id)]",
        ])
    }

    /// Records what the daemon shows.
    final class Recorder: Notifier {
        let shown = Mutex<[Firing]>([])
        func show(_ firing: Firing, late: Bool) throws { shown.withLock { $0.append(firing) } }
        func showNotice(_ notice: DaemonNotice) throws {}
    }

    @Test("chime add reminder Stretch --due +5s, with no alarm option, rings through the daemon at its due time")
    func stretchRingsThroughTheDaemon() throws {
        let fixture = try StoreFixture.daemonFolder("chime-stretch")
        let runtime = fixture.runtime, storePath = fixture.path
        // chime creates the folders of its default location only, not those of a --db path.
        try FileManager.default.createDirectory(atPath: fixture.folder + "/data", withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let now = Date()
        let add = CapturedRun(["add", "reminder", "Stretch", "--due", "+5s", "--db", storePath], machineZone: "UTC", now: now)
        #expect(add.status == 0, "\(add.errors)")
        var options = Daemon.Options(storePath: storePath, runtimeFolder: runtime + "/chime")
        options.handlesSignals = false
        options.machineZone = { .utc }
        // The daemon's clock starts where the command's did, and the test moves it.
        let clock = ManualClock(now: now.timeIntervalSince1970)
        options.clock = clock
        let notifier = Recorder()
        let daemon = Daemon(options: options, notifier: notifier, log: { _ in })
        try daemon.start()
        defer { daemon.shutdown() }
        clock.advance(by: 4)
        #expect(notifier.shown.withLock { $0.isEmpty })
        clock.advance(by: 1)
        let shown = try #require(notifier.shown.withLock { $0.first })
        #expect(shown.title == "Stretch")
        #expect(shown.instant == Int64(now.timeIntervalSince1970.rounded(.down)) + 5)
        #expect(shown.alarm.trigger == .relative(seconds: 0))
    }
}
