import AlarmScheduler
import CalendarModel
import CalendarStore
import Foundation
import Geofencing
import Synchronization
import TestSupport
import Testing

/// The daemon run inside the test's process, with a notifier that records
/// and a machine zone the test controls.
@Suite("The daemon in process")
struct DaemonInProcessTests {
    /// Records what it is asked to show.
    final class RecordingNotifier: Notifier {
        let shown = Mutex<[(firing: Firing, late: Bool, at: Date)]>([])
        func show(_ firing: Firing, late: Bool) throws { shown.withLock { $0.append((firing, late, Date())) } }
        func showNotice(title: String, body: String) throws {}

        func wait(for title: String, seconds: Double) -> (firing: Firing, late: Bool, at: Date)? {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if let found = shown.withLock({ $0.first { $0.firing.title == title } }) { return found }
                usleep(20_000)
            }
            return nil
        }
    }

    @Test("when the machine's zone changes, a floating reminder rings at its wall-clock time in the new zone")
    func zoneChange() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-zone-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let zoneFolder = folder + "/etc", runtime = folder + "/run"
        try FileManager.default.createDirectory(atPath: zoneFolder, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // The machine is at UTC-10 ("Etc/GMT+10" in the database's inverted sign).
        try "Etc/GMT+10".write(toFile: zoneFolder + "/timezone", atomically: true, encoding: .utf8)

        // Floating: due when the wall clock reads what UTC reads three seconds from now,
        // which at UTC-10 is ten hours away.
        let due = Int64(Date().timeIntervalSince1970.rounded(.up)) + 3
        let storePath = folder + "/data/chime.db"
        let store = try CalendarStore(path: storePath, machineTimeZone: try TimeZoneRules.named("Etc/GMT+10"))
        try store.save(Reminder(calendarIdentifier: try store.defaultCalendarForNewReminders().identifier, title: "Floating",
                                due: .floating(TimeZoneRules.utc.localTime(at: due)), alarms: [Alarm(trigger: .relative(seconds: 0))]))

        var options = Daemon.Options(storePath: storePath, runtimeFolder: runtime + "/chime")
        options.zoneFolder = zoneFolder
        options.handlesSignals = false
        options.machineZone = {
            let name = (try? String(contentsOfFile: zoneFolder + "/timezone", encoding: .utf8)) ?? "UTC"
            return (try? TimeZoneRules.named(name.trimmingCharacters(in: .whitespacesAndNewlines))) ?? .utc
        }
        let notifier = RecordingNotifier()
        let lines = Mutex<[String]>([])
        let daemon = Daemon(options: options, notifier: notifier, log: { line in lines.withLock { $0.append(line) } })
        try daemon.start()
        defer { daemon.shutdown() }

        // In the old zone nothing is due for ten hours.
        #expect(notifier.wait(for: "Floating", seconds: 1) == nil)
        // The machine moves to UTC: the same wall-clock time is now three seconds away.
        try "UTC".write(toFile: zoneFolder + "/timezone", atomically: true, encoding: .utf8)
        let shown = try #require(notifier.wait(for: "Floating", seconds: 10), "\(lines.withLock { $0 })")
        #expect(shown.firing.instant == due)
        #expect(!shown.late)
        #expect(shown.at.timeIntervalSince1970 >= Double(due))
        #expect(lines.withLock { $0 }.contains { $0.contains("the time zone is now UTC") })
    }

    /// Fails to show anything until it is made available.
    final class AwayNotifier: Notifier {
        let available = Atomic<Bool>(false)
        let attempts = Atomic<Int>(0)
        let recorder = RecordingNotifier()
        struct Away: Error {}
        func show(_ firing: Firing, late: Bool) throws {
            attempts.add(1, ordering: .relaxed)
            guard available.load(ordering: .relaxed) else { throw Away() }
            try recorder.show(firing, late: late)
        }
        func showNotice(title: String, body: String) throws {}
    }

    @Test("a firing the notifier cannot show is kept, the settled mark held before it, and shown once when it can be")
    func notifierAway() throws {
        let fixture = try StoreFixture.daemonFolder("chime-away")
        let runtime = fixture.runtime, storePath = fixture.path
        let store = try fixture.open()
        let due = Int64(Date().timeIntervalSince1970.rounded(.up)) + 1
        try store.save(Reminder(calendarIdentifier: try store.defaultCalendarForNewReminders().identifier, title: "Away",
                                due: .zoned(TimeZoneRules.utc.localTime(at: due), zone: "UTC"), alarms: [Alarm(trigger: .relative(seconds: 0))]))
        var options = Daemon.Options(storePath: storePath, runtimeFolder: runtime + "/chime")
        options.handlesSignals = false
        options.machineZone = { .utc }
        let notifier = AwayNotifier()
        let lines = Mutex<[String]>([])
        let daemon = Daemon(options: options, notifier: notifier, log: { line in lines.withLock { $0.append(line) } })
        try daemon.start()
        defer { daemon.shutdown() }

        // Due, tried, not shown: nothing in the log, and the settled mark before it.
        let deadline = Date().addingTimeInterval(5)
        while notifier.attempts.load(ordering: .relaxed) == 0 && Date() < deadline { usleep(20_000) }
        #expect(notifier.attempts.load(ordering: .relaxed) >= 1)
        usleep(300_000)   // the attempt is over
        // Only the retry tries again: the attempt's own store writes must not set off another.
        #expect(notifier.attempts.load(ordering: .relaxed) == 1)
        #expect(try store.deliveries().isEmpty)
        #expect(try #require(try store.settledThrough()) < due)
        // The server is back: the retry (5 s after the first failure) shows it, once.
        notifier.available.store(true, ordering: .relaxed)
        let shown = try #require(notifier.recorder.wait(for: "Away", seconds: 10), "\(lines.withLock { $0 })")
        #expect(shown.firing.instant == due)
        usleep(300_000)
        #expect(notifier.recorder.shown.withLock { $0.count } == 1)
        #expect(try store.deliveries().map(\.outcome) == [.delivered])
        #expect(try #require(try store.settledThrough()) >= due)
        #expect(lines.withLock { $0 }.contains { $0.contains("could not show 'Away'") })
    }

    @Test("the newest position reaches the store once the write interval is over, though no fix follows it")
    func newestPositionWritten() throws {
        let fixture = try StoreFixture.daemonFolder("chime-position")
        let runtime = fixture.runtime, storePath = fixture.path
        let store = try fixture.open()
        var options = Daemon.Options(storePath: storePath, runtimeFolder: runtime + "/chime")
        options.handlesSignals = false
        options.machineZone = { .utc }
        // Short, so that the test need not wait the default ten seconds.
        options.positionInterval = 0.3
        let daemon = Daemon(options: options, notifier: RecordingNotifier(), log: { _ in })
        try daemon.start()
        defer { daemon.shutdown() }

        let client = DaemonClient(environment: ["XDG_RUNTIME_DIR": runtime])
        let now = Date().timeIntervalSince1970.rounded(.down)
        for (latitude, time) in [(31.26, now - 2), (31.27, now - 1)] {
            let reply = try client.send(["request": "location", "fixes": [["lat": latitude, "lon": 121.4737, "time": time]]])
            #expect(reply["taken"] as? Int == 1, "\(reply)")
        }
        // The first fix is written at once; the second, inside the interval, when it is over.
        let deadline = Date().addingTimeInterval(5)
        while try store.latestPosition()?.fix.position.latitude != 31.27 && Date() < deadline { usleep(20_000) }
        #expect(try store.latestPosition()?.fix == Fix(latitude: 31.27, longitude: 121.4737, time: now - 1))
    }
}
