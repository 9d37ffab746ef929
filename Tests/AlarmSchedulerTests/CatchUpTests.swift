@testable import AlarmScheduler
import CalendarModel
import CalendarStore
import Foundation
import TestSupport
import Testing

/// Firings that came due while nothing was watching, with injected clocks.
@Suite("Catching up on missed firings, exactly once")
struct CatchUpTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-catchup-\(UUID().uuidString)").path

    func store() throws -> CalendarStore {
        try CalendarStore(path: folder + "/chime.db", machineTimeZone: try TimeZoneRules.named("Asia/Shanghai"))
    }

    func instant(_ rfc3339: String) -> Int64 { Int64(RFC3339.instant(rfc3339)!) }

    /// A daily 09:00 event with an alarm at its start, from 2026-12-01.
    func daily(_ store: CalendarStore, title: String = "Stand-up", at time: String = "09:00:00") throws {
        let calendar = try store.defaultCalendarForNewEvents().identifier
        let start = ItemTime.zoned(LocalDateTime(parsing: "2026-12-01T\(time)")!, zone: "Asia/Shanghai")
        try store.save(Event(calendarIdentifier: calendar, title: title, start: start, end: start,
                             recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=DAILY"), alarms: [Alarm(trigger: .relative(seconds: 0))]))
    }

    @Test("a week away: the latest firing inside the window is shown late, the older ones are recorded as missed")
    func weekAway() throws {
        let store = try store()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try daily(store)
        // Down from Tuesday 08:00 to the next Tuesday 10:00: 8 firings came due, the last at 09:00 today.
        let plan = try settle(store, settled: instant("2026-12-01T08:00:00+08:00"), now: instant("2026-12-08T10:00:00+08:00"))
        #expect(plan.late.map(\.instant) == [instant("2026-12-08T09:00:00+08:00")])
        #expect(plan.missed.count == 7)
        #expect(plan.missed.first?.instant == instant("2026-12-01T09:00:00+08:00"))
    }

    @Test("outside the window nothing pops up: everything is recorded as missed")
    func outsideWindow() throws {
        let store = try store()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try daily(store)
        let plan = try settle(store, settled: instant("2026-12-01T08:00:00+08:00"),
                                                           now: instant("2026-12-02T15:00:00+08:00"), window: 4 * 3600)
        #expect(plan.late.isEmpty)
        #expect(plan.missed.map(\.instant) == [instant("2026-12-01T09:00:00+08:00"), instant("2026-12-02T09:00:00+08:00")])
    }

    @Test("recorded firings never come back: not after a restart, not when the clock is set back")
    func exactlyOnce() throws {
        let store = try store()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try daily(store)
        try daily(store, title: "Lunch", at: "12:00:00")
        let settled = instant("2026-12-01T08:00:00+08:00"), now = instant("2026-12-01T13:00:00+08:00")
        let plan = try settle(store, settled: settled, now: now)
        #expect(plan.late.map(\.title) == ["Stand-up", "Lunch"])
        try AlarmLedger(store: store).record(plan.late.map { AlarmLedger.Delivery($0, outcome: .late, at: $0.instant) })
        // A restart that lost the settled mark plans the same span again: nothing to show.
        let again = try settle(try self.store(), settled: settled, now: now)
        #expect(again.late.isEmpty && again.missed.isEmpty)
        // The clock set back an hour and forward again: still nothing.
        #expect(try settle(store, settled: now - 3600, now: now).late.isEmpty)
        // The next day's firings are new.
        #expect(try settle(store, settled: now, now: now + 86_400).late.map(\.title) == ["Stand-up", "Lunch"])
        #expect(try AlarmLedger(store: store).deliveries(outcomes: [.late]).count == 2)
    }

    @Test("a firing recorded twice keeps its first record")
    func firstRecordWins() throws {
        let store = try store()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try daily(store)
        let firing = try FiringPlanner(store: store).firings(after: instant("2026-12-01T00:00:00+08:00"), count: 1)[0]
        let counter = try store.changeCounter()
        try AlarmLedger(store: store).record([AlarmLedger.Delivery(firing, outcome: .delivered, at: firing.instant)])
        try AlarmLedger(store: store).record([AlarmLedger.Delivery(firing, outcome: .missed, at: firing.instant)])
        #expect(try AlarmLedger(store: store).deliveries().map(\.outcome) == [.delivered])
        #expect(try store.changeCounter() == counter, "the log is not a change to the items")
    }
}

@Suite("Snoozing a firing")
struct SnoozeTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-snooze-\(UUID().uuidString)").path

    @Test("a snoozed firing rings once more at its new time, under a key of its own; snoozing again moves it; dismiss drops it")
    func snooze() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try CalendarStore(path: folder + "/chime.db", machineTimeZone: try TimeZoneRules.named("Asia/Shanghai"))
        let calendar = try store.defaultCalendarForNewReminders().identifier
        let due = ItemTime.zoned(LocalDateTime(parsing: "2026-12-01T09:00:00")!, zone: "Asia/Shanghai")
        try store.save(Reminder(calendarIdentifier: calendar, title: "Stretch", due: due, alarms: [Alarm(trigger: .relative(seconds: 0))]))
        let planner = FiringPlanner(store: store)
        let nine = Int64(RFC3339.instant("2026-12-01T09:00:00+08:00")!)
        let shown = try settle(store, settled: nine - 60, now: nine).late
        try #require(shown.count == 1)
        try AlarmLedger(store: store).record([AlarmLedger.Delivery(shown[0], outcome: .delivered, at: shown[0].instant)])
        #expect(throws: StoreError.self) { try AlarmLedger(store: store).snooze("nonesuch@1", until: nine + 600) }

        let snooze = try AlarmLedger(store: store).snooze(shown[0].key, until: nine + 600)
        var next = try planner.firings(after: nine, count: 5)
        #expect(next.map(\.instant) == [nine + 600])
        #expect(next.first?.key == shown[0].key + "~" + String(nine + 600) && next.first?.key == snooze.key.description)
        #expect(next.first?.explanation == "snoozed")
        // For a length from a moment within a second: rounded up, never sooner than asked.
        #expect(try AlarmLedger(store: store).snooze(snooze.key.description, for: 2, from: ManualClock(now: Double(nine) + 0.1).secondUp).fireAt == nine + 3)
        #expect(try AlarmLedger(store: store).snooze(snooze.key.description, for: 2, from: ManualClock(now: Double(nine)).secondUp).fireAt == nine + 2)
        // Snoozed again from the snoozed firing: moved, not doubled.
        _ = try AlarmLedger(store: store).snooze(snooze.key.description, until: nine + 1200)
        next = try planner.firings(after: nine, count: 5)
        #expect(next.map(\.instant) == [nine + 1200])
        // Shown when it comes due, once.
        let again = try settle(store, settled: nine, now: nine + 1200).late
        #expect(again.map(\.key) == [shown[0].key + "~" + String(nine + 1200)])
        try AlarmLedger(store: store).record(again.map { AlarmLedger.Delivery($0, outcome: .delivered, at: $0.instant) })
        #expect(try settle(store, settled: nine, now: nine + 1300).late.isEmpty)
        // A dismissed snooze does not ring.
        _ = try AlarmLedger(store: store).snooze(shown[0].key, until: nine + 3600)
        #expect(try AlarmLedger(store: store).dismiss(shown[0].key) == 1)
        #expect(try planner.firings(after: nine + 1300, count: 5).isEmpty)
    }
}

@Suite("Catching up: each alarm's own missed window")
struct MissedWindowCatchUpTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-window-\(UUID().uuidString)").path

    @Test("an alarm that is never shown late is only recorded; one with a two-day window is shown 30 hours late; the rest follow the daemon's")
    func perAlarmWindow() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try CalendarStore(path: folder + "/chime.db", machineTimeZone: try TimeZoneRules.named("Asia/Shanghai"))
        let calendar = try store.defaultCalendarForNewEvents().identifier
        let start = ItemTime.zoned(LocalDateTime(parsing: "2026-12-01T09:00:00")!, zone: "Asia/Shanghai")
        for (title, window) in [("Wake up", 0), ("Pay rent", 2 * 86_400), ("Stand-up", nil)] as [(String, Int?)] {
            try store.save(Event(calendarIdentifier: calendar, title: title, start: start, end: start,
                                 alarms: [Alarm(trigger: .relative(seconds: 0), missedWindow: window)]))
        }
        func instant(_ text: String) -> Int64 { Int64(RFC3339.instant(text)!) }
        // Down from 08:00 until 15:00 the next day: all three came due at 09:00 on 2026-12-01, 30 hours before.
        let plan = try settle(store, settled: instant("2026-12-01T08:00:00+08:00"),
                                                           now: instant("2026-12-02T15:00:00+08:00"), window: 4 * 3600)
        #expect(plan.late.map(\.title) == ["Pay rent"])
        #expect(Set(plan.missed.map(\.title)) == ["Wake up", "Stand-up"])
        // Just after it was due, the never-late alarm is still not shown late; the others are.
        let soon = try settle(store, settled: instant("2026-12-01T08:00:00+08:00"),
                                                           now: instant("2026-12-01T09:05:00+08:00"), window: 4 * 3600)
        #expect(Set(soon.late.map(\.title)) == ["Pay rent", "Stand-up"])
        #expect(soon.missed.map(\.title) == ["Wake up"])
    }
}
