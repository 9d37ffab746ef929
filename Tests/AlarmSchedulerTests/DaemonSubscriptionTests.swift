@testable import AlarmScheduler
import CalendarModel
import CalendarStore
import Foundation
import Synchronization
import TestSupport
import Testing

@Suite("The daemon refreshes subscribed calendars")
struct DaemonSubscriptionTests {
    /// Records when it was asked, and records each due subscription as not
    /// modified, as a refresh whose server said so would.
    final class RecordingRefresher: SubscriptionRefreshing {
        let calls = Mutex<[Int64]>([])
        func refreshDue(storePath: String, now: Int64, log: @Sendable (String) -> Void) {
            if let store = try? CalendarStore(path: storePath, machineTimeZone: .utc) {
                for subscription in (try? store.subscriptionsDue(at: now)) ?? [] {
                    _ = try? store.recordRefresh(of: subscription.calendarIdentifier, at: now, .notModified)
                }
            }
            calls.withLock { $0.append(now) }
        }
        var count: Int { calls.withLock { $0.count } }
    }

    @Test("a new subscription is refreshed at once, then once per interval on the daemon's clock, and not before")
    func refreshedOnItsInterval() throws {
        let (folder, runtime, storePath) = try DaemonInProcessTests.makeFolder("subscriptions")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try CalendarStore(path: storePath, machineTimeZone: .utc)
        let calendar = ItemCalendar(title: "Team", kind: .subscribed(url: "https://example.com/team.ics"), allowsContentModifications: false)
        try store.save(calendar)
        try store.saveSubscription(Subscription(calendarIdentifier: calendar.identifier, url: "https://example.com/team.ics", refreshInterval: 3_600))

        let clock = ManualClock(now: Double(DaemonInProcessTests.start))
        var options = DaemonInProcessTests.options(storePath: storePath, runtime: runtime, clock: clock)
        let refresher = RecordingRefresher()
        options.subscriptions = refresher
        let daemon = Daemon(options: options, notifier: DaemonInProcessTests.RecordingNotifier(clock: clock), log: { _ in })
        try daemon.start()
        defer { daemon.shutdown() }

        let start = DaemonInProcessTests.start // 2026-12-01T09:00:00Z
        // The refresh runs on a queue of its own; the bound only tells a hang from an answer.
        #expect(DaemonInProcessTests.waitUntil(seconds: 30) { refresher.count == 1 })
        #expect(refresher.calls.withLock { $0 } == [start])
        // Re-armed for an hour after that attempt once the refresh has ended.
        #expect(DaemonInProcessTests.waitUntil(seconds: 30) { daemon.queue.sync { daemon.subscriptionTimer?.at } == Double(start + 3_600) })
        clock.advance(by: 3_599)
        #expect(refresher.count == 1, "refreshed before its interval")
        clock.advance(by: 1)
        #expect(DaemonInProcessTests.waitUntil(seconds: 30) { refresher.count == 2 })
        #expect(refresher.calls.withLock { $0 } == [start, start + 3_600]) // 2026-12-01T10:00:00Z
    }
}
