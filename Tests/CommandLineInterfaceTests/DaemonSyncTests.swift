@testable import AlarmScheduler
import CalendarModel
import CalendarStore
@testable import ChimedCommandLine
import Foundation
import Synchronization
import TestSupport
import Testing

/// chimed's own sync, end to end: a Radicale server, the account added by
/// `chime account add`, a daemon in this process on a manual clock with the
/// syncer chimed is given, and Python's `caldav` as the phone.
@Suite("chimed syncs with a CalDAV server on its own")
struct DaemonSyncTests {
    /// Shows nothing; keeps what was shown and the daemon's answer handler,
    /// so a test can press Done.
    final class PressingNotifier: Notifier {
        let shown = Mutex<[Firing]>([])
        let handler = Mutex<(@Sendable (String, NotificationResponse) -> Void)?>(nil)
        let withdrawn = Mutex<[String]>([])
        func show(_ firing: Firing, late: Bool) throws { shown.withLock { $0.append(firing) } }
        func withdraw(key: String) { withdrawn.withLock { $0.append(key) } }
        func showNotice(_ notice: DaemonNotice) throws {}
        func onResponse(_ handler: @escaping @Sendable (String, NotificationResponse) -> Void) { self.handler.withLock { $0 = handler } }
        func press(_ response: NotificationResponse, on firing: Firing) { handler.withLock { $0 }?(firing.key, response) }
    }

    /// 2026-12-01T09:00:00Z
    static let start = 1_796_115_600.0

    static func daemon(_ scratch: Scratch, clock: ManualClock, notifier: any Notifier, log: @escaping @Sendable (String) -> Void = { _ in })
        throws -> Daemon {
        let runtime = scratch.folder + "/run"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var options = Daemon.Options(storePath: scratch.path, runtimeFolder: runtime + "/chime")
        options.handlesSignals = false
        options.machineZone = { .utc }
        options.clock = clock
        options.sync = AccountSyncer(machineZone: { .utc }, timeLimit: 20)
        let daemon = Daemon(options: options, notifier: notifier, log: log)
        try daemon.start()
        return daemon
    }

    @Test("a to-do made on the phone with a RELATED=END alarm rings in chimed, and Done on the desktop completes it on the server")
    func phoneToDoRingsAndDoneCompletesIt() throws {
        let server = try CalDAVServer(.radicale)
        let calendarURL = try server.makeCalendar("Phone")
        // Due 2026-12-01T10:00:00Z; the alarm 15 minutes before its end (for a VTODO, DUE): 09:45Z.
        let resource = try server.put(Self.todo("bins@phone", "Put the bins out", due: "20261201T100000Z"), in: calendarURL)
        let desktop = try Desktop(server)
        let (clock, notifier, daemon, store) = (desktop.clock, desktop.notifier, desktop.daemon, desktop.store)
        defer { daemon.shutdown() }
        // The sync at start brings the to-do down; the bounds only tell a hang from an answer.
        #expect(try waitUntil(seconds: 60) { try store.items(of: store.calendar(named: "Phone").identifier).reminders.count == 1 })
        #expect(waitUntil(seconds: 60) { daemon.queue.sync { !daemon.syncing && daemon.syncTimer?.at == Self.start + 5 } })

        clock.advance(to: 1_796_118_300) // 2026-12-01T09:45:00Z
        #expect(waitUntil(seconds: 30) { !notifier.shown.withLock { $0 }.isEmpty })
        let firing = try #require(notifier.shown.withLock { $0.first })
        #expect(firing.title == "Put the bins out")
        #expect(firing.instant == 1_796_118_300)

        // The syncs that came due on the way to 09:45 have ended: none runs when Done is pressed.
        #expect(waitUntil(seconds: 60) { daemon.queue.sync { !daemon.syncing && daemon.syncTimer != nil } })
        #expect(!(try server.get(resource).contains("STATUS:COMPLETED")))
        notifier.press(.done, on: firing)
        #expect(try waitUntil(seconds: 30) {
            try store.items(of: store.calendar(named: "Phone").identifier).reminders.first?.isCompleted == true
        })
        // The completion goes up 5 s after it was made, not at the interval.
        #expect(waitUntil(seconds: 30) { daemon.queue.sync { daemon.syncTimer?.at == 1_796_118_305 } })
        clock.advance(by: 5)
        #expect(try waitUntil(seconds: 60) { try server.get(resource).contains("STATUS:COMPLETED") })
        let completed = try server.get(resource)
        #expect(completed.contains("COMPLETED:20261201T094500Z"), "\(completed)")
    }

    /// The desktop: a store with the server's account, chimed on a manual
    /// clock from `start`, and what it showed (the test shuts the daemon down).
    final class Desktop {
        let scratch: Scratch
        let clock = ManualClock(now: DaemonSyncTests.start)
        let notifier = PressingNotifier()
        let daemon: Daemon
        let store: CalendarStore

        init(_ server: CalDAVServer) throws {
            scratch = DaemonSyncTests.scratch(account: server)
            daemon = try DaemonSyncTests.daemon(scratch, clock: clock, notifier: notifier)
            store = try scratch.store()
        }

        /// Whether the daemon has ended the sync it runs and set its next
        /// one; the bound only tells a hang from an answer.
        func quiet() -> Bool { waitUntil(seconds: 60) { daemon.queue.sync { !daemon.syncing && daemon.syncTimer != nil } } }
    }

    /// A scratch store in UTC with the server's user added as account 'home', as `chime account add` adds it.
    static func scratch(account server: CalDAVServer) -> Scratch {
        let scratch = Scratch(zone: "UTC")
        _ = scratch.ok("account", "add", server.base + "/", "--user", "ann", "--password-command", "printf secret", "--name", "home")
        return scratch
    }

    /// A phone's to-do due at `due` with an alarm 15 minutes before it, and `valarm` lines more (`item` lines on the VTODO).
    static func todo(_ uid: String, _ summary: String, due: String, valarm: String = "", item: String = "") -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//phone//EN\r\nBEGIN:VTODO\r\nUID:\(uid)\r\nDTSTAMP:20261201T080000Z\r\n"
            + "DUE:\(due)\r\nSUMMARY:\(summary)\r\n\(item)BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:\(summary)\r\n"
            + "TRIGGER;RELATED=END:-PT15M\r\n\(valarm)END:VALARM\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
    }

    @Test("Dismiss on the desktop is ACKNOWLEDGED on the server; the phone's ACKNOWLEDGED closes the desktop's notification")
    func dismissalsTravel() throws {
        let server = try CalDAVServer(.radicale)
        let calendarURL = try server.makeCalendar("Phone")
        let bins = try server.put(Self.todo("bins@phone", "Bins", due: "20261201T100000Z"), in: calendarURL)
        _ = try server.put(Self.todo("plants@phone", "Plants", due: "20261201T103000Z"), in: calendarURL)
        let desktop = try Desktop(server)
        let (clock, notifier, daemon, store) = (desktop.clock, desktop.notifier, desktop.daemon, desktop.store)
        defer { daemon.shutdown() }
        func reminders() throws -> [Reminder] { try store.items(of: store.calendar(named: "Phone").identifier).reminders }
        func quiet() -> Bool { desktop.quiet() }
        #expect(try waitUntil(seconds: 60) { try reminders().count == 2 })
        #expect(quiet())

        clock.advance(to: 1_796_118_300) // 2026-12-01T09:45:00Z: Bins rings
        #expect(waitUntil(seconds: 30) { notifier.shown.withLock { $0.count } == 1 })
        let first = try #require(notifier.shown.withLock { $0.first })
        #expect(first.title == "Bins")
        #expect(quiet())
        notifier.press(.dismiss, on: first)
        #expect(waitUntil(seconds: 30) { daemon.queue.sync { daemon.syncTimer?.at == 1_796_118_305 } })
        clock.advance(by: 5)
        #expect(try waitUntil(seconds: 60) { try server.get(bins).contains("ACKNOWLEDGED:20261201T094500Z") })

        clock.advance(to: 1_796_120_100) // 2026-12-01T10:15:00Z: Plants rings
        #expect(waitUntil(seconds: 30) { notifier.shown.withLock { $0.count } == 2 })
        let second = try #require(notifier.shown.withLock { $0.last })
        #expect(second.title == "Plants")
        #expect(quiet())
        // The phone rang too, and was answered at 10:16.
        _ = try server.put(Self.todo("plants@phone", "Plants", due: "20261201T103000Z", valarm: "ACKNOWLEDGED:20261201T101600Z\r\n"),
                           in: calendarURL)
        let next = try #require(daemon.queue.sync { daemon.syncTimer?.at })
        clock.advance(to: next)
        #expect(waitUntil(seconds: 60) { notifier.withdrawn.withLock { $0 }.contains(second.key) })
        #expect(try reminders().first { $0.title == "Plants" }?.alarms.first?.acknowledged == Date(timeIntervalSince1970: 1_796_120_160))
    }

    @Test("Thunderbird's snooze on another device closes the desktop's notification and rings it again at the snooze's time")
    func snoozeFromThunderbird() throws {
        let server = try CalDAVServer(.radicale)
        let calendarURL = try server.makeCalendar("Phone")
        _ = try server.put(Self.todo("bins@phone", "Bins", due: "20261201T100000Z"), in: calendarURL)
        let desktop = try Desktop(server)
        let (clock, notifier, daemon, store) = (desktop.clock, desktop.notifier, desktop.daemon, desktop.store)
        defer { daemon.shutdown() }
        func quiet() -> Bool { desktop.quiet() }
        #expect(try waitUntil(seconds: 60) { try store.items(of: store.calendar(named: "Phone").identifier).reminders.count == 1 })
        #expect(quiet())

        clock.advance(to: 1_796_118_300) // 2026-12-01T09:45:00Z: Bins rings
        #expect(waitUntil(seconds: 30) { notifier.shown.withLock { $0.count } == 1 })
        let first = try #require(notifier.shown.withLock { $0.first })
        #expect(quiet())
        // Thunderbird rang it too, and was snoozed at 09:46 until 10:05, as it writes that.
        _ = try server.put(Self.todo("bins@phone", "Bins", due: "20261201T100000Z",
                                     item: "X-MOZ-LASTACK:20261201T094600Z\r\nX-MOZ-SNOOZE-TIME:20261201T100500Z\r\n"), in: calendarURL)
        let next = try #require(daemon.queue.sync { daemon.syncTimer?.at })
        clock.advance(to: next)
        #expect(waitUntil(seconds: 60) { notifier.withdrawn.withLock { $0 }.contains(first.key) })
        #expect(quiet())

        clock.advance(to: 1_796_119_500) // 2026-12-01T10:05:00Z: the snooze's time
        #expect(waitUntil(seconds: 30) { notifier.shown.withLock { $0.count } == 2 })
        let again = try #require(notifier.shown.withLock { $0.last })
        #expect(again.instant == 1_796_119_500)
        #expect(again.explanation == "snoozed on another device")
        #expect(again.firingKey.root == first.firingKey)
    }

    @Test("chimed's syncer looks for calendars made on the server at its first sync and then once a day, and syncs what it finds")
    func newCalendarsOnceADay() throws {
        let server = try CalDAVServer(.radicale)
        _ = try server.makeCalendar("Phone")
        let scratch = Scratch(zone: "UTC")
        #expect(scratch.run(["account", "add", server.base + "/", "--user", "ann", "--password-command", "printf secret", "--name", "home"]).status == 0)
        func todo(_ uid: String) -> String {
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//phone//EN\r\nBEGIN:VTODO\r\nUID:\(uid)\r\nDTSTAMP:20261201T080000Z\r\n"
                + "SUMMARY:\(uid)\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        }
        _ = try server.put(todo("report@phone"), in: try server.makeCalendar("Work"))
        let now = Mutex(Date(timeIntervalSince1970: Self.start))
        let syncer = AccountSyncer(machineZone: { .utc }, timeLimit: 20, now: { now.withLock { $0 } })
        let lines = Mutex<[String]>([])
        func sync() -> [String] {
            lines.withLock { $0 = [] }
            _ = syncer.syncAccounts(storePath: scratch.path) { line in lines.withLock { $0.append(line) } }
            return lines.withLock { $0 }
        }
        let first = sync()
        #expect(first.contains { $0.hasPrefix("chimed: sync home/Work: 0 uploaded, 0 deleted on the server, 1 downloaded") }, "\(first)")
        // A calendar made an hour later waits for the day to pass.
        _ = try server.put(todo("plan@phone"), in: try server.makeCalendar("Garden"))
        now.withLock { $0 += 3_600 }
        #expect(!sync().contains { $0.contains("home/Garden") })
        now.withLock { $0 += 86_400 }
        let later = sync()
        #expect(later.contains { $0.hasPrefix("chimed: sync home/Garden: 0 uploaded, 0 deleted on the server, 1 downloaded") }, "\(later)")
    }

    @Test("a daemon whose store has no account syncs once at start, and sets no timer for it")
    func noAccountNoWakeups() throws {
        let scratch = Scratch(zone: "UTC")
        scratch.ok("calendars")
        let clock = ManualClock(now: Self.start)
        let daemon = try Self.daemon(scratch, clock: clock, notifier: PressingNotifier())
        defer { daemon.shutdown() }
        #expect(waitUntil(seconds: 30) { daemon.queue.sync { daemon.syncCount == 1 && !daemon.syncing } })
        // Opening the store and the sync's tables wrote nothing that asks for another.
        usleep(500_000)
        clock.advance(by: 3_600)
        usleep(200_000)
        #expect(daemon.queue.sync { (daemon.syncCount, daemon.syncTimer == nil) } == (1, true))
    }

    @Test("while its store is gone, chimed asks its syncer for nothing, and the syncer and refresher never make a store at the path; the store back, a sync follows")
    func noSyncWithoutStore() throws {
        let scratch = Scratch(zone: "UTC")
        scratch.ok("calendars")
        let clock = ManualClock(now: Self.start)
        let lines = Mutex<[String]>([])
        let daemon = try Self.daemon(scratch, clock: clock, notifier: PressingNotifier()) { line in lines.withLock { $0.append(line) } }
        defer { daemon.shutdown() }
        #expect(waitUntil(seconds: 30) { daemon.queue.sync { daemon.syncCount == 1 && !daemon.syncing } })
        let kept = scratch.folder + "/kept.db"
        try FileManager.default.moveItem(atPath: scratch.path, toPath: kept)
        #expect(waitUntil(seconds: 30) { daemon.queue.sync { daemon.store == nil } }, "\(lines.withLock { $0 })")

        // A sync asked for and due: none runs, and nothing appears at the path.
        daemon.queue.sync { daemon.syncAfterCommand() }
        clock.advance(by: 3_600)
        usleep(300_000)
        #expect(daemon.queue.sync { daemon.syncCount } == 1)
        #expect(!FileManager.default.fileExists(atPath: scratch.path))

        // Called anyway, as a sync that started just before the store went would be.
        let heard = Mutex<[String]>([])
        let result = AccountSyncer(machineZone: { .utc }).syncAccounts(storePath: scratch.path) { line in heard.withLock { $0.append(line) } }
        var said = heard.withLock { $0 }
        #expect(result.changeCounter == nil && said == ["chimed: sync: cannot use the store at \(scratch.path): there is no store there"], "\(said)")
        FeedRefresher(machineZone: { .utc }).refreshDue(storePath: scratch.path, now: Int64(Self.start)) { line in heard.withLock { $0.append(line) } }
        said = heard.withLock { $0 }
        #expect(said.last?.hasPrefix("chimed: subscriptions: ") == true && said.last?.hasSuffix("there is no store there") == true, "\(said)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path) && !FileManager.default.fileExists(atPath: scratch.path + "-wal"))

        // Back: opened, and a sync follows (the delay is on the test's clock).
        try FileManager.default.moveItem(atPath: kept, toPath: scratch.path)
        #expect(waitUntil(seconds: 30) { daemon.queue.sync { daemon.store != nil && daemon.syncTimer != nil } }, "\(lines.withLock { $0 })")
        clock.advance(by: 3_600)
        #expect(waitUntil(seconds: 30) { daemon.queue.sync { daemon.syncCount == 2 && !daemon.syncing } })
    }
}
