@testable import AlarmScheduler
import CalendarModel
import CalendarStore
import DaemonControl
import Foundation
import Geofencing
import HolidayCalendars
import Synchronization
import TestSupport
import Testing

/// The daemon run inside the test's process, with a notifier that records,
/// a machine zone the test controls, and a clock the test moves: a wake is
/// run by `ManualClock.advance` before it returns, so nothing here sleeps
/// for a firing to come due.
@Suite("The daemon in process")
struct DaemonInProcessTests {
    /// Records what it is asked to show, and when by `clock`.
    final class RecordingNotifier: Notifier {
        let clock: any DaemonClock
        let shown = Mutex<[(firing: Firing, late: Bool, at: Double)]>([])
        init(clock: any DaemonClock = WallClock()) { self.clock = clock }
        func show(_ firing: Firing, late: Bool) throws { shown.withLock { $0.append((firing, late, clock.now)) } }
        let notices = Mutex<[DaemonNotice]>([])
        func showNotice(_ notice: DaemonNotice) throws { notices.withLock { $0.append(notice) } }
        let withdrawn = Mutex<[String]>([])
        func withdraw(key: String) { withdrawn.withLock { $0.append(key) } }

        func first(titled title: String) -> (firing: Firing, late: Bool, at: Double)? {
            shown.withLock { $0.first { $0.firing.title == title } }
        }
    }

    /// The manual clocks' start: 2026-12-01T09:00:00Z.
    static let start: Int64 = 1_796_115_600

    /// A temporary folder with a private runtime folder in it, and where the store goes.
    static func makeFolder(_ name: String) throws -> (folder: String, runtime: String, storePath: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-\(name)-\(UUID().uuidString)").path
        let runtime = folder + "/run"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return (folder, runtime, folder + "/data/chime.db")
    }

    /// Options for a daemon in this process: on `clock`, in UTC, the signals left to the test runner.
    static func options(storePath: String, runtime: String, clock: ManualClock) -> Daemon.Options {
        var options = Daemon.Options(storePath: storePath, runtimeFolder: runtime + "/chime")
        options.handlesSignals = false
        options.machineZone = { .utc }
        options.clock = clock
        return options
    }

    @Test("when the machine's zone changes, a floating reminder rings at its wall-clock time in the new zone")
    func zoneChange() throws {
        let (folder, runtime, storePath) = try Self.makeFolder("zone")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let zoneFolder = folder + "/etc"
        try FileManager.default.createDirectory(atPath: zoneFolder, withIntermediateDirectories: true)
        // The machine is at UTC-10 ("Etc/GMT+10" in the database's inverted sign).
        try "Etc/GMT+10".write(toFile: zoneFolder + "/timezone", atomically: true, encoding: .utf8)

        // Floating: due when the wall clock reads what UTC reads three seconds from now,
        // which at UTC-10 is ten hours away.
        let clock = ManualClock(now: Double(Self.start))
        let due: Int64 = 1_796_115_603   // 2026-12-01T09:00:03Z
        let store = try CalendarStore(path: storePath, machineTimeZone: try TimeZoneRules.named("Etc/GMT+10"))
        try store.save(Reminder(calendarIdentifier: try store.defaultCalendarForNewReminders().identifier, title: "Floating",
                                due: .floating(TimeZoneRules.utc.localTime(at: due)), alarms: [Alarm(trigger: .relative(seconds: 0))]))

        var options = Self.options(storePath: storePath, runtime: runtime, clock: clock)
        options.zoneFolder = zoneFolder
        options.machineZone = {
            let name = (try? String(contentsOfFile: zoneFolder + "/timezone", encoding: .utf8)) ?? "UTC"
            return (try? TimeZoneRules.named(name.trimmingCharacters(in: .whitespacesAndNewlines))) ?? .utc
        }
        let notifier = RecordingNotifier(clock: clock)
        let lines = Mutex<[String]>([])
        let daemon = Daemon(options: options, notifier: notifier, log: { line in lines.withLock { $0.append(line) } })
        try daemon.start()
        defer { daemon.shutdown() }

        // In the old zone nothing is due for ten hours.
        clock.advance(by: 1)
        #expect(notifier.first(titled: "Floating") == nil)
        let opened = daemon.queue.sync { daemon.store.map(ObjectIdentifier.init) }
        // The machine moves to UTC: the same wall-clock time is now two seconds away.
        try "UTC".write(toFile: zoneFolder + "/timezone", atomically: true, encoding: .utf8)
        // The zone watch (inotify) re-plans on the daemon's queue; `advance` waits for that to end.
        #expect(waitUntil(seconds: 60) { lines.withLock { $0 }.contains { $0.contains("the time zone is now UTC") } })
        clock.advance(to: Double(due - 1))
        #expect(notifier.first(titled: "Floating") == nil, "rang before its time: \(lines.withLock { $0 })")
        clock.advance(to: Double(due))
        let shown = try #require(notifier.first(titled: "Floating"), "\(lines.withLock { $0 })")
        #expect(shown.firing.instant == due)
        #expect(!shown.late)
        #expect(shown.at >= Double(due))
        #expect(lines.withLock { $0 }.contains { $0.contains("the time zone is now UTC") })
        // The store was told the zone, not opened again.
        #expect(daemon.queue.sync { daemon.store.map(ObjectIdentifier.init) } == opened)
    }

    @Test("a clock set forward past a firing re-plans and shows it at once; set back again, it shows nothing twice, and the next firing keeps its time")
    func clockSet() throws {
        let (folder, runtime, storePath) = try Self.makeFolder("clock-set")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try CalendarStore(path: storePath, machineTimeZone: .utc)
        let calendar = try store.defaultCalendarForNewReminders().identifier
        // 2026-12-01T10:00:00Z and 2026-12-01T11:00:00Z
        for (title, due) in [("Ten", Int64(1_796_119_200)), ("Eleven", Int64(1_796_122_800))] {
            try store.save(Reminder(calendarIdentifier: calendar, title: title, due: .zoned(TimeZoneRules.utc.localTime(at: due), zone: "UTC"),
                                    alarms: [Alarm(trigger: .relative(seconds: 0))]))
        }
        let clock = ManualClock(now: Double(Self.start))
        let notifier = RecordingNotifier(clock: clock)
        let lines = Mutex<[String]>([])
        let options = Self.options(storePath: storePath, runtime: runtime, clock: clock)
        let daemon = Daemon(options: options, notifier: notifier, log: { line in lines.withLock { $0.append(line) } })
        try daemon.start()
        defer { daemon.shutdown() }

        clock.set(to: 1_796_119_230)   // 2026-12-01T10:00:30Z
        #expect(lines.withLock { $0 }.contains { $0.contains("the clock was set; re-planning") })
        let ten = try #require(notifier.first(titled: "Ten"), "\(lines.withLock { $0 })")
        #expect(!ten.late)
        clock.set(to: Double(Self.start))
        #expect(lines.withLock { $0 }.filter { $0.contains("the clock was set") }.count == 2)
        clock.advance(to: 1_796_122_799)
        #expect(notifier.shown.withLock { $0.map(\.firing.title) } == ["Ten"])
        clock.advance(to: 1_796_122_800)
        #expect(notifier.shown.withLock { $0.map(\.firing.title) } == ["Ten", "Eleven"])
        #expect(try AlarmLedger(store: store).deliveries().map(\.outcome) == [.delivered, .delivered])
    }

    @Test("a clock set after a store write and before the daemon looked at it loses nothing: the completed reminder's notification closes, the new workday rule's missing-data notice is given")
    func clockSetBeforeTheLook() throws {
        let (folder, runtime, storePath) = try Self.makeFolder("clock-set-write")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try CalendarStore(path: storePath, machineTimeZone: .utc)
        // Region ZZ has data for 2001 alone: 2026's is missing.
        try DaemonProcessTests.importRegionZZ(into: store)
        let calendar = try store.defaultCalendarForNewReminders().identifier
        let due: Int64 = 1_796_115_602   // 2026-12-01T09:00:02Z
        let tea = Reminder(calendarIdentifier: calendar, title: "Tea", due: .zoned(TimeZoneRules.utc.localTime(at: due), zone: "UTC"),
                           alarms: [Alarm(trigger: .relative(seconds: 0))])
        try store.save(tea)
        let clock = ManualClock(now: Double(Self.start))
        let notifier = RecordingNotifier(clock: clock)
        let lines = Mutex<[String]>([])
        let daemon = Daemon(options: Self.options(storePath: storePath, runtime: runtime, clock: clock), notifier: notifier,
                            log: { line in lines.withLock { $0.append(line) } })
        try daemon.start()
        defer { daemon.shutdown() }
        clock.advance(to: Double(due))
        let shown = try #require(notifier.first(titled: "Tea"), "\(lines.withLock { $0 })")
        #expect(notifier.notices.withLock { $0 }.isEmpty)

        // The write is queued ahead of the clock's setting, so the store's
        // watch (which wakes the daemon) can only come after the re-plan.
        daemon.queue.async {
            guard let writer = try? CalendarStore(path: storePath, machineTimeZone: .utc) else { return }
            _ = try? writer.complete(tea.identifier)
            try? writer.save(Reminder(calendarIdentifier: calendar, title: "Clock in",
                                     due: .zoned(TimeZoneRules.utc.localTime(at: Self.start + 86_400), zone: "UTC"),
                                     recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=DAILY;X-WORKDAY=SKIP;X-REGION=ZZ"),
                                     alarms: [Alarm(trigger: .relative(seconds: 0))]))
        }
        clock.set(to: clock.now)
        #expect(try store.reminder(identifier: tea.identifier).isCompleted)
        #expect(notifier.withdrawn.withLock { $0 } == [shown.firing.key], "\(lines.withLock { $0 })")
        #expect(notifier.notices.withLock { $0 } == [.missingHolidayData(region: "zz", year: 2026), .missingHolidayData(region: "zz", year: 2027)], "\(lines.withLock { $0 })")
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
        func showNotice(_ notice: DaemonNotice) throws {}
    }

    @Test("a firing the notifier cannot show is kept, the settled mark held before it, and shown once when it can be")
    func notifierAway() throws {
        let (folder, runtime, storePath) = try Self.makeFolder("away")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try CalendarStore(path: storePath, machineTimeZone: .utc)
        let clock = ManualClock(now: Double(Self.start))
        let due: Int64 = 1_796_115_601   // 2026-12-01T09:00:01Z
        try store.save(Reminder(calendarIdentifier: try store.defaultCalendarForNewReminders().identifier, title: "Away",
                                due: .zoned(TimeZoneRules.utc.localTime(at: due), zone: "UTC"), alarms: [Alarm(trigger: .relative(seconds: 0))]))
        let notifier = AwayNotifier()
        let lines = Mutex<[String]>([])
        let options = Self.options(storePath: storePath, runtime: runtime, clock: clock)
        let daemon = Daemon(options: options, notifier: notifier, log: { line in lines.withLock { $0.append(line) } })
        try daemon.start()
        defer { daemon.shutdown() }

        // Due, tried, not shown: nothing in the log, and the settled mark before it.
        clock.advance(to: Double(due))
        #expect(notifier.attempts.load(ordering: .relaxed) == 1)
        // Only the retry tries again: the attempt's own store writes must not set off another.
        // Their wakes come through inotify, in real time, not through the clock: a moment for them.
        usleep(300_000)
        #expect(notifier.attempts.load(ordering: .relaxed) == 1)
        #expect(try AlarmLedger(store: store).deliveries().isEmpty)
        #expect(try #require(try AlarmLedger(store: store).settledThrough()) < due)
        // The server is back: the retry (5 s after the first failure) shows it, once.
        notifier.available.store(true, ordering: .relaxed)
        clock.advance(by: 4)
        #expect(notifier.recorder.shown.withLock { $0.isEmpty }, "tried again before the retry: \(lines.withLock { $0 })")
        clock.advance(by: 1)
        let shown = try #require(notifier.recorder.first(titled: "Away"), "\(lines.withLock { $0 })")
        #expect(shown.firing.instant == due)
        // The delivery's own store writes wake the daemon (inotify): a moment for them too.
        usleep(300_000)
        #expect(notifier.recorder.shown.withLock { $0.count } == 1)
        #expect(try AlarmLedger(store: store).deliveries().map(\.outcome) == [.delivered])
        #expect(try #require(try AlarmLedger(store: store).settledThrough()) >= due)
        #expect(lines.withLock { $0 }.contains { $0.contains("could not show 'Away'") })
    }

    @Test("the newest position reaches the store once the write interval is over, though no fix follows it")
    func newestPositionWritten() throws {
        let (folder, runtime, storePath) = try Self.makeFolder("position")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try CalendarStore(path: storePath, machineTimeZone: .utc)
        let clock = ManualClock(now: Double(Self.start))
        let options = Self.options(storePath: storePath, runtime: runtime, clock: clock)
        let daemon = Daemon(options: options, notifier: RecordingNotifier(clock: clock), log: { _ in })
        try daemon.start()
        defer { daemon.shutdown() }

        let client = DaemonClient(environment: ["XDG_RUNTIME_DIR": runtime])
        let now = Double(Self.start)
        for (latitude, time) in [(31.26, now - 2), (31.27, now - 1)] {
            let reply = try client.send(.location(fixes: [.position(.init(latitude: latitude, longitude: 121.4737, time: time))]), timeout: 30)
            guard case .location(let outcome) = reply else { Issue.record("refused: \(reply)"); continue }
            #expect(outcome.taken == 1, "\(reply)")
        }
        // The first fix is written at once; the second, inside the (ten-second) interval, when it is over.
        #expect(try AlarmLedger(store: store).latestPosition()?.fix.position.latitude == 31.26)
        clock.advance(by: 9)
        #expect(try AlarmLedger(store: store).latestPosition()?.fix.position.latitude == 31.26)
        clock.advance(by: 1)
        #expect(try AlarmLedger(store: store).latestPosition()?.fix == Fix(latitude: 31.27, longitude: 121.4737, time: now - 1))
    }
}
