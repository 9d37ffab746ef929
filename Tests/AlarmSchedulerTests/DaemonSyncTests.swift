@testable import AlarmScheduler
import CalendarModel
import CalendarStore
import Foundation
import Synchronization
import TestSupport
import Testing

@Suite("The daemon syncs CalDAV accounts at start, on its interval and after a local change")
struct DaemonSyncTests {
    /// Records when it was asked (on the daemon's clock); `writes` makes
    /// the first sync save a reminder, as a sync that brought one down would.
    final class RecordingSyncer: CalendarSyncing {
        let clock: ManualClock
        let calls = Mutex<[Double]>([])
        let hasAccounts: Mutex<Bool>
        let writes: Bool
        /// Reported by the first sync only, as a conflict is recorded once.
        let conflicts: Int
        /// Reported by every sync, as the server keeps listing the calendar empty.
        let keptEmpty: [String]
        init(clock: ManualClock, hasAccounts: Bool = true, writes: Bool = false, conflicts: Int = 0, keptEmpty: [String] = []) {
            self.clock = clock
            self.hasAccounts = Mutex(hasAccounts)
            self.writes = writes
            self.conflicts = conflicts
            self.keptEmpty = keptEmpty
        }
        func syncAccounts(storePath: String, log: @Sendable (String) -> Void) -> CalendarSyncResult {
            let store = try? CalendarStore(path: storePath, machineTimeZone: .utc)
            if writes, count == 0, let store, let calendar = try? store.defaultCalendarForNewReminders() {
                try? store.save(Reminder(calendarIdentifier: calendar.identifier, title: "From the server"))
            }
            let first = count == 0
            calls.withLock { $0.append(clock.now) }
            return CalendarSyncResult(hasAccounts: hasAccounts.withLock { $0 }, changeCounter: try? store?.changeCounter(),
                                      conflicts: first ? conflicts : 0, keptEmpty: keptEmpty)
        }
        var count: Int { calls.withLock { $0.count } }
    }

    struct Rig {
        let folder: String
        let store: CalendarStore
        let clock: ManualClock
        let daemon: Daemon
        let notifier: DaemonInProcessTests.RecordingNotifier

        static func start(_ name: String, syncer: (ManualClock) -> RecordingSyncer) throws -> (Rig, RecordingSyncer) {
            let (folder, runtime, storePath) = try DaemonInProcessTests.makeFolder(name)
            let store = try CalendarStore(path: storePath, machineTimeZone: .utc)
            let clock = ManualClock(now: Double(DaemonInProcessTests.start))
            var options = DaemonInProcessTests.options(storePath: storePath, runtime: runtime, clock: clock)
            let recording = syncer(clock)
            options.sync = recording
            options.syncInterval = 900
            options.syncDelay = 5
            let notifier = DaemonInProcessTests.RecordingNotifier(clock: clock)
            let daemon = Daemon(options: options, notifier: notifier, log: { _ in })
            try daemon.start()
            return (Rig(folder: folder, store: store, clock: clock, daemon: daemon, notifier: notifier), recording)
        }

        func stop() {
            daemon.shutdown()
            try? FileManager.default.removeItem(atPath: folder)
        }

        /// The instant the sync timer is armed for, once no sync runs.
        var armedAt: Double? { daemon.queue.sync { daemon.syncing ? -1 : daemon.syncTimer?.at } }
    }

    // The sync runs on a queue of its own, and changes reach the daemon through
    // inotify: the bounds only tell a hang from an answer.

    @Test("a sync at start, then one per interval on the daemon's clock, and not before")
    func interval() throws {
        let (rig, syncer) = try Rig.start("sync-interval") { RecordingSyncer(clock: $0) }
        defer { rig.stop() }
        let start = Double(DaemonInProcessTests.start) // 2026-12-01T09:00:00Z
        #expect(waitUntil(seconds: 30) { syncer.count == 1 })
        #expect(waitUntil(seconds: 30) { rig.armedAt == start + 900 })
        rig.clock.advance(by: 899)
        #expect(syncer.count == 1, "synced before the interval")
        rig.clock.advance(by: 1)
        #expect(waitUntil(seconds: 30) { syncer.count == 2 })
        #expect(syncer.calls.withLock { $0 } == [start, start + 900]) // 2026-12-01T09:15:00Z
    }

    @Test("a local change is synced 5 s later, a burst of changes in one sync; a sync that brought changes is followed by one more, and no other")
    func afterLocalChange() throws {
        let (rig, syncer) = try Rig.start("sync-change") { RecordingSyncer(clock: $0, writes: true) }
        defer { rig.stop() }
        let start = Double(DaemonInProcessTests.start)
        #expect(waitUntil(seconds: 30) { syncer.count == 1 })
        // The first sync saved a reminder: the store changed while it ran, so one more follows.
        #expect(waitUntil(seconds: 30) { rig.armedAt == start + 5 })
        rig.clock.advance(by: 5)
        #expect(waitUntil(seconds: 30) { syncer.count == 2 })
        // That one changed nothing: the interval's is next.
        #expect(waitUntil(seconds: 30) { rig.armedAt == start + 5 + 900 })
        let calendar = try rig.store.defaultCalendarForNewReminders().identifier
        try rig.store.save(Reminder(calendarIdentifier: calendar, title: "Made here"))
        #expect(waitUntil(seconds: 30) { rig.armedAt == start + 10 })
        rig.clock.advance(by: 2)
        try rig.store.save(Reminder(calendarIdentifier: calendar, title: "Made here too"))
        // A second change within the delay keeps the sync armed where it was.
        usleep(200_000)
        #expect(rig.armedAt == start + 10)
        rig.clock.advance(by: 3)
        #expect(waitUntil(seconds: 30) { syncer.count == 3 })
        #expect(waitUntil(seconds: 30) { rig.armedAt == start + 10 + 900 })
        #expect(syncer.calls.withLock { $0 } == [start, start + 5, start + 10]) // 09:00:00Z, 09:00:05Z, 09:00:10Z
    }

    @Test("without accounts no timer is set; chime's notice of a change (chime account add) asks again")
    func withoutAccounts() throws {
        let (rig, syncer) = try Rig.start("sync-none") { RecordingSyncer(clock: $0, hasAccounts: false) }
        defer { rig.stop() }
        let start = Double(DaemonInProcessTests.start)
        #expect(waitUntil(seconds: 30) { syncer.count == 1 })
        #expect(waitUntil(seconds: 30) { rig.daemon.queue.sync { !rig.daemon.syncing } })
        #expect(rig.armedAt == nil)
        syncer.hasAccounts.withLock { $0 = true }
        // `chime account add` tells the daemon, as every command that changes the store does.
        #expect(rig.daemon.queue.sync { rig.daemon.answer(.success(.changed)) } == .done)
        #expect(waitUntil(seconds: 30) { rig.armedAt == start + 5 })
        rig.clock.advance(by: 5)
        #expect(waitUntil(seconds: 30) { rig.armedAt == start + 5 + 900 })
        #expect(syncer.count == 2)
    }

    @Test("a conflict a sync kept aside is told once on the desktop; a calendar kept whole though the server lists it empty is told once, not every interval")
    func noticesOfWhatTheSyncKept() throws {
        let (rig, syncer) = try Rig.start("sync-notices") { RecordingSyncer(clock: $0, conflicts: 2, keptEmpty: ["Phone <b>"]) }
        defer { rig.stop() }
        let start = Double(DaemonInProcessTests.start)
        #expect(waitUntil(seconds: 30) { rig.armedAt == start + 900 })
        rig.clock.advance(by: 900)
        #expect(waitUntil(seconds: 30) { syncer.count == 2 && rig.armedAt == start + 1800 })
        let notices = rig.notifier.notices.withLock { $0 }
        #expect(notices == [.syncConflicts(count: 2), .calendarKeptWhole(calendar: "Phone <b>")])
        #expect(notices.map(\.title) == ["Sync: 2 items were changed on both sides", "Sync: Phone <b> kept"])
        #expect(notices.first?.body.contains("'chime sync --status'") == true)
        #expect(notices.last?.body.contains("'chime sync --allow-emptying'") == true)
    }
}
