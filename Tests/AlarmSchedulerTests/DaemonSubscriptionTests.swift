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
        #expect(waitUntil(seconds: 30) { refresher.count == 1 })
        #expect(refresher.calls.withLock { $0 } == [start])
        // Re-armed for an hour after that attempt once the refresh has ended.
        #expect(waitUntil(seconds: 30) { daemon.queue.sync { daemon.subscriptionTimer?.at } == Double(start + 3_600) })
        clock.advance(by: 3_599)
        #expect(refresher.count == 1, "refreshed before its interval")
        clock.advance(by: 1)
        #expect(waitUntil(seconds: 30) { refresher.count == 2 })
        #expect(refresher.calls.withLock { $0 } == [start, start + 3_600]) // 2026-12-01T10:00:00Z
    }

    /// A notifier that records and can press a button, as a person would.
    final class PressingNotifier: Notifier {
        let shown = Mutex<[Firing]>([])
        let handler = Mutex<(@Sendable (String, NotificationResponse) -> Void)?>(nil)
        func show(_ firing: Firing, late: Bool) throws { shown.withLock { $0.append(firing) } }
        func showNotice(_ notice: DaemonNotice) throws {}
        func onResponse(_ handler: @escaping @Sendable (String, NotificationResponse) -> Void) { self.handler.withLock { $0 = handler } }
        func press(_ response: NotificationResponse, on firing: Firing) { handler.withLock { $0 }?(firing.key, response) }
    }

    @Test("a subscribed calendar's reminder rings marked read-only, so its notification has no Done; a Done pressed anyway dismisses it without an error, and a local reminder's Done completes it")
    func readOnlyReminderDone() throws {
        let (folder, runtime, storePath) = try DaemonInProcessTests.makeFolder("read-only-done")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try CalendarStore(path: storePath, machineTimeZone: .utc)
        let team = ItemCalendar(title: "Team", kind: .subscribed(url: "https://example.com/team.ics"), allowsContentModifications: false)
        try store.save(team)
        let due = ItemTime.zoned(TimeZoneRules.utc.localTime(at: DaemonInProcessTests.start + 60), zone: "UTC") // 2026-12-01T09:01:00Z
        let subscribed = Reminder(calendarIdentifier: team.identifier, title: "Team review", due: due, alarms: [Alarm(trigger: .relative(seconds: 0))])
        try store.asSource { () throws(StoreError) in try store.save(subscribed) }
        let local = Reminder(calendarIdentifier: try store.defaultCalendarForNewReminders().identifier, title: "Own", due: due,
                             alarms: [Alarm(trigger: .relative(seconds: 0))])
        try store.save(local)

        let clock = ManualClock(now: Double(DaemonInProcessTests.start))
        let notifier = PressingNotifier()
        let lines = Mutex<[String]>([])
        let daemon = Daemon(options: DaemonInProcessTests.options(storePath: storePath, runtime: runtime, clock: clock), notifier: notifier,
                            log: { line in lines.withLock { $0.append(line) } })
        try daemon.start()
        defer { daemon.shutdown() }
        clock.advance(by: 60)
        #expect(waitUntil(seconds: 30) { notifier.shown.withLock { $0.count } == 2 })
        let shown = notifier.shown.withLock { $0 }
        let readOnly = try #require(shown.first { $0.title == "Team review" })
        let own = try #require(shown.first { $0.title == "Own" })
        #expect(readOnly.isReadOnly && !own.isReadOnly)

        notifier.press(.done, on: readOnly)
        notifier.press(.done, on: own)
        #expect(waitUntil(seconds: 30) { daemon.queue.sync { daemon.onScreen.isEmpty } }, "\(lines.withLock { $0 })")
        let said = lines.withLock { $0 }
        #expect(said.contains("chimed: 'Team review' is in a read-only calendar: dismissed, not completed"), "\(said)")
        #expect(said.contains("chimed: completed 'Own'") && !said.contains { $0.contains("cannot answer") }, "\(said)")
        #expect(try store.reminder(identifier: subscribed.identifier).isCompleted == false)
        #expect(try store.reminder(identifier: local.identifier).isCompleted)
    }
}
