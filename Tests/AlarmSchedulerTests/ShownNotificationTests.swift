@testable import AlarmScheduler
import CalendarModel
import CalendarStore
import Foundation
import RecurrenceEngine
import Testing

/// What the store keeps of the notifications on screen, for a daemon
/// started again: the firing as written and read back, one row per root key.
@Suite("Notifications on screen, as the store keeps them")
struct ShownNotificationTests {
    /// 2026-12-02T08:50:00+08:00, an occurrence of a workday rule, ringing 10 minutes early.
    static func clockIn() -> Firing {
        let scheduled = LocalDateTime(date: CivilDate(year: 2026, month: 12, day: 2)!, hour: 8, minute: 50)!
        let occurrence = Occurrence(instant: 1_796_172_600, utcOffset: 8 * 3600, scheduledTime: scheduled, isAllDay: false, daysMoved: 1)
        var firing = Firing(instant: 1_796_172_000, alarm: Alarm(trigger: .relative(seconds: -600)), kind: .reminder, itemIdentifier: .random(),
                            title: "Clock in \"& <b>", occurrence: occurrence, explanation: "workday; moved from 12-01 (元旦)", snoozedFrom: nil)
        firing.location = "Office"
        firing.notes = "badge\nand coffee"
        return firing
    }

    @Test("a firing written and read back has the same key, root key, text and occurrence, and its late mark")
    func roundTrip() throws {
        let firing = Self.clockIn()
        let (back, late) = try #require(Firing.fromRecord(firing.record(late: true)))
        #expect(late)
        #expect(back.key == firing.key)
        #expect(back.rootKey == firing.rootKey)
        #expect(back.occurrence == firing.occurrence)
        #expect([back.title, back.location, back.notes, back.explanation ?? ""] == [firing.title, firing.location, firing.notes, firing.explanation ?? ""])
        #expect(back.instant == firing.instant && back.kind == .reminder && back.itemIdentifier == firing.itemIdentifier)

        var snoozed = firing
        snoozed.snoozedFrom = firing.firingKey
        snoozed.instant += 600
        let (again, wasLate) = try #require(Firing.fromRecord(snoozed.record(late: false)))
        #expect(!wasLate)
        #expect(again.key == snoozed.key && again.rootKey == firing.key)

        var crossing = firing
        crossing.occurrence = nil
        crossing.crossing = "leave@1796172000"
        crossing.crossingPlace = "办公室"
        let back2 = try #require(Firing.fromRecord(crossing.record(late: false))?.firing)
        #expect(back2.key == crossing.key)
        #expect(back2.crossingPlace == "办公室")
        #expect(!back.countsInChineseCalendar && !back2.countsInChineseCalendar)

        // An item on a Chinese-calendar rule keeps saying so: its notification, shown again, names the day in that calendar.
        var lunar = firing
        lunar.countsInChineseCalendar = true
        #expect(try #require(Firing.fromRecord(lunar.record(late: false))?.firing).countsInChineseCalendar)
        #expect(!firing.record(late: false).contains("lunar"))
    }

    @Test("a damaged record reads as none")
    func damaged() {
        #expect(Firing.fromRecord("") == nil)
        #expect(Firing.fromRecord("{\"instant\":1}") == nil)
        #expect(Firing.fromRecord("[1,2]") == nil)
    }

    @Test("one row per root key (a snoozed firing in its root's place), forgotten by key or root key, at most 1000 kept")
    func store() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-shown-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try CalendarStore(path: folder + "/chime.db", machineTimeZone: .utc)
        let firing = Self.clockIn()
        var snoozed = firing
        snoozed.snoozedFrom = firing.firingKey
        snoozed.instant += 600
        let at: Int64 = 1_796_172_000
        try AlarmLedger(store: store).recordShown(.init(rootKey: firing.firingKey.root, key: firing.firingKey, serverID: 7, server: ":1.4", firing: firing.record(late: false), shownAt: at))
        try AlarmLedger(store: store).recordShown(.init(rootKey: snoozed.firingKey.root, key: snoozed.firingKey, serverID: 7, server: ":1.4", firing: snoozed.record(late: false),
                                    shownAt: at + 600))
        let shown = try AlarmLedger(store: store).shownNotifications()
        #expect(shown.map(\.key) == [snoozed.firingKey] && shown.map(\.serverID) == [7] && shown.map(\.server) == [":1.4"])
        try AlarmLedger(store: store).forgetShown(keys: [snoozed.firingKey])
        #expect(try AlarmLedger(store: store).shownNotifications().isEmpty)

        let alarm = ItemIdentifier.random()
        func key(_ index: Int) -> FiringKey { FiringKey(alarm: alarm, occurrence: .scheduled(Int64(index))) }
        for index in 0..<1005 {
            try AlarmLedger(store: store).recordShown(.init(rootKey: key(index), key: key(index), serverID: UInt32(index + 1), server: ":1.4", firing: "{}",
                                        shownAt: at + Int64(index)))
        }
        let kept = try AlarmLedger(store: store).shownNotifications()
        #expect(kept.count == AlarmLedger.shownNotificationsKept)
        #expect(kept.first?.key == key(5) && kept.last?.key == key(1004))
    }
}
