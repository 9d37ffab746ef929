@testable import AlarmScheduler
import CalendarModel
import CalendarStore
import Foundation
import Geofencing
import SQLiteDatabase
import Testing

/// A ledger in a store file of its own, opened again as often as asked.
final class LedgerFixture {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-ledger-\(UUID().uuidString)").path
    var path: String { folder + "/chime.db" }

    func store() throws -> CalendarStore { try CalendarStore(path: path, machineTimeZone: .utc) }
    func open() throws -> AlarmLedger { try AlarmLedger(store: try store()) }

    deinit { try? FileManager.default.removeItem(atPath: folder) }
}

@Suite("The scheduler's ledger")
struct AlarmLedgerTests {
    @Test("a store made before the ledger keeps its delivery log, snoozes, notifications, geofence states and settled mark: the ledger adopts them")
    func adoptsAStoreOfMigrationV13() throws {
        let fixture = LedgerFixture()
        // What a chime of store migration v13 left: the tables made by the
        // store's migrations, with rows, the settled mark among the settings,
        // and no ledger history.
        _ = try fixture.store()
        let alarm = ItemIdentifier.random(), item = ItemIdentifier.random()
        let key = alarm.rawValue + "@1796461200"
        let database = try Database(path: fixture.path)
        #expect(try Migrator(table: "ledger_migrations").appliedMigrations(in: database).isEmpty)
        try database.executeScript("""
            INSERT INTO deliveries (key, alarm_id, item_id, title, due_at, recorded_at, outcome)
                VALUES ('\(key)', '\(alarm.rawValue)', '\(item.rawValue)', 'Pay rent', 1796461200, 1796461201, 'delivered');
            INSERT INTO snoozes (key, firing_key, alarm_id, item_id, title, due_at, fire_at, created_at)
                VALUES ('\(key)~1796462000', '\(key)', '\(alarm.rawValue)', '\(item.rawValue)', 'Pay rent', 1796461200, 1796462000, 1796461300);
            INSERT INTO notifications_shown (root_key, key, server_id, server, firing, shown_at)
                VALUES ('\(key)', '\(key)', 7, ':1.42', '{}', 1796461201);
            INSERT INTO geofence_states (alarm_id, presence) VALUES ('\(alarm.rawValue)', 'inside');
            UPDATE location_state SET latest_fix_at = 1796461000 WHERE id = 1;
            INSERT INTO settings (key, value) VALUES ('scheduler.settled', '1796461250');
            """)

        let ledger = try fixture.open()
        // 2026-12-05T09:00:00Z, snoozed to 09:13:20Z
        #expect(try ledger.deliveries().map(\.key.description) == [key])
        #expect(try ledger.deliveries().first?.outcome == .delivered)
        #expect(try ledger.snoozes(after: 0).map(\.fireAt) == [1_796_462_000])
        #expect(try ledger.shownNotifications().map(\.serverID) == [7])
        #expect(try ledger.geofenceSnapshot().states[alarm.rawValue]?.presence == .inside)
        #expect(try ledger.geofenceSnapshot().latestFixTime == 1_796_461_000)
        #expect(try ledger.settledThrough() == 1_796_461_250)
        // The mark left the store's settings, and the ledger's history is its own.
        let settings: Int? = try database.scalar("SELECT count(*) FROM settings WHERE key = 'scheduler.settled'")
        #expect(settings == 0)
        #expect(try Migrator(table: "ledger_migrations").appliedMigrations(in: database).count == 1)
        #expect(try !Migrator(table: "schema_migrations").appliedMigrations(in: database).contains { $0.contains("ledger") })
        // Opened again, nothing is migrated twice.
        #expect(try fixture.open().settledThrough() == 1_796_461_250)
    }

    @Test("times logged with fractions of a second, as the ledger wrote them before it took whole seconds, read back as the second they fall in")
    func fractionalTimesReadAsTheirSecond() throws {
        let fixture = LedgerFixture()
        let ledger = try fixture.open()
        let alarm = ItemIdentifier.random(), item = ItemIdentifier.random()
        let key = alarm.rawValue + "@1796461200"
        let database = try Database(path: fixture.path)
        try database.executeScript("""
            INSERT INTO deliveries (key, alarm_id, item_id, title, due_at, recorded_at, outcome)
                VALUES ('\(key)', '\(alarm.rawValue)', '\(item.rawValue)', 'Pay rent', 1796461200, 1796461201.75, 'delivered');
            INSERT INTO notifications_shown (root_key, key, server_id, server, firing, shown_at)
                VALUES ('\(key)', '\(key)', 7, ':1.42', '{}', 1796461201.75);
            """)
        // 2026-12-05T09:00:01.75Z
        #expect(try ledger.deliveries().map(\.recordedAt) == [1_796_461_201])
        #expect(try ledger.shownNotifications().map(\.shownAt) == [1_796_461_201])
        // What it writes now, the columns hold as before: REAL seconds.
        let other = FiringKey(alarm: alarm, occurrence: .once)
        try ledger.recordShown(.init(rootKey: other, key: other, serverID: 8, server: ":1.42", firing: "{}", shownAt: 1_796_461_300))
        let stored: String? = try database.scalar("SELECT typeof(shown_at) || ' ' || shown_at FROM notifications_shown WHERE root_key = ?",
                                                  [other.description])
        #expect(stored == "real 1796461300.0")
    }

    @Test("a holiday-data notice is logged once, apart from the firings: the firings' readers never see it")
    func holidayNoticeApartFromFirings() throws {
        let ledger = try LedgerFixture().open()
        #expect(try !ledger.holidayNoticeShown(region: "CN", year: 2027))
        try ledger.recordHolidayNotice(region: "CN", year: 2027, at: 1_796_112_000) // 2026-12-01T08:00:00Z
        try ledger.recordHolidayNotice(region: "CN", year: 2027, at: 1_796_112_060)
        #expect(try ledger.holidayNoticeShown(region: "CN", year: 2027))
        #expect(try !ledger.holidayNoticeShown(region: "CN", year: 2028))
        #expect(try ledger.deliveries().isEmpty)
    }

    @Test("a new store's ledger starts empty, with no settled mark")
    func newLedger() throws {
        let ledger = try LedgerFixture().open()
        #expect(try ledger.settledThrough() == nil)
        #expect(try ledger.deliveries().isEmpty)
        try ledger.setSettledThrough(1_796_461_250)
        #expect(try ledger.settledThrough() == 1_796_461_250)
    }

    @Test("a delivery or a snooze whose identifier is damaged is an error naming its row, never a made-up identifier")
    func damagedIdentifiers() throws {
        let fixture = LedgerFixture()
        let ledger = try fixture.open()
        let path = fixture.path
        func damage(_ sql: String) throws {
            let database = try Database(path: path)
            try database.execute("PRAGMA foreign_keys = OFF")
            try database.execute(sql)
        }
        let alarm = ItemIdentifier.random()
        let reminder = (identifier: ItemIdentifier.random(), title: "Pay rent")
        let key = "\(alarm.rawValue)@1796461200" // due 2026-12-05T09:00:00Z
        try ledger.record([AlarmLedger.Delivery(key: try #require(FiringKey(key)), alarm: alarm, item: reminder.identifier, title: "Pay rent", due: 1_796_461_200,
                                                 outcome: .delivered, recordedAt: 1_796_461_201 /* 2026-12-05T09:00:01Z */)])
        _ = try ledger.snooze(key, until: 1_796_462_000)
        #expect(try ledger.deliveries().map(\.alarm) == [alarm])
        #expect(try ledger.snoozes(after: 0).map(\.item) == [reminder.identifier])

        try damage("UPDATE deliveries SET alarm_id = 'not-an-alarm' WHERE key = '\(key)'")
        #expect {
            try ledger.deliveries()
        } throws: { error in
            "\(error)".contains(key) && "\(error)".contains("not-an-alarm")
        }
        try damage("UPDATE deliveries SET alarm_id = '\(alarm.rawValue)', item_id = 'not-an-item' WHERE key = '\(key)'")
        #expect {
            try ledger.deliveries()
        } throws: { error in
            "\(error)".contains(key) && "\(error)".contains("not-an-item")
        }
        // Past the table's CHECK, as a bad disk or another program could.
        try Database(path: path).executeScript("""
            PRAGMA ignore_check_constraints = ON;
            UPDATE deliveries SET item_id = '\(reminder.identifier.rawValue)', outcome = 'lost' WHERE key = '\(key)'
            """)
        #expect {
            try ledger.deliveries()
        } throws: { error in
            "\(error)".contains(key) && "\(error)".contains("lost")
        }

        try damage("UPDATE snoozes SET item_id = 'not-an-item'")
        #expect {
            try ledger.snoozes(after: 0)
        } throws: { error in
            "\(error)".contains(key) && "\(error)".contains("not-an-item")
        }

    }

    @Test("the monitor's snapshot and the newest position survive closing and reopening the ledger")
    func roundTrip() throws {
        let fixture = LedgerFixture()
        var ledger = try fixture.open()
        #expect(try ledger.geofenceSnapshot() == GeofenceMonitor.Snapshot())
        #expect(try ledger.latestPosition() == nil)
        let snapshot = GeofenceMonitor.Snapshot(latestFixTime: 1_796_112_000.25, states: [
            String(repeating: "a", count: 32): GeofenceState(presence: .inside, lastFixTime: 1_796_112_000.25, dwellStartedAt: 1_796_111_990),
            String(repeating: "b", count: 32): GeofenceState(presence: .outside, lastFixTime: 1_796_111_000, lastFiredAt: 1_796_111_000),
            String(repeating: "c", count: 32): GeofenceState(),
        ])
        try ledger.replaceGeofenceSnapshot(snapshot)
        // 2026-12-01T08:00:00.25Z
        let fix = try Fix(latitude: -33.8688, longitude: 151.2093, accuracy: 7.5, time: 1_796_112_000.25)
        #expect(try ledger.keepPosition(fix))
        ledger = try fixture.open()
        #expect(try ledger.geofenceSnapshot() == snapshot)
        #expect(try ledger.latestPosition()?.fix == fix)

        // An older position does not replace a newer one.
        #expect(try !ledger.keepPosition(try Fix(latitude: 0, longitude: 0, time: 1_796_111_999)))
        #expect(try ledger.latestPosition()?.fix == fix)

        // A save changes the states given, drops the removed ones and keeps the rest.
        try ledger.saveGeofenceStates([String(repeating: "b", count: 32): GeofenceState(presence: .inside, lastFixTime: 1_796_112_100,
                                                                                      lastFiredAt: 1_796_111_000)],
                                     removed: [String(repeating: "c", count: 32)], latestFixTime: 1_796_112_100)
        let after = try fixture.open().geofenceSnapshot()
        #expect(after.latestFixTime == 1_796_112_100)
        #expect(after.states.keys.sorted() == [String(repeating: "a", count: 32), String(repeating: "b", count: 32)])
        #expect(after.states[String(repeating: "b", count: 32)]?.presence == .inside)
        #expect(after.states[String(repeating: "a", count: 32)] == snapshot.states[String(repeating: "a", count: 32)])
    }

    @Test("states saved with their firings: the firings are in the delivery log as being shown, in the same write")
    func firingsRecordedWithStates() throws {
        let fixture = LedgerFixture()
        let ledger = try fixture.open()
        let alarm = ItemIdentifier.random(), item = ItemIdentifier.random()
        let delivery = AlarmLedger.Delivery(key: FiringKey(alarm: alarm, occurrence: .crossing(.leave, 1_796_112_000)), alarm: alarm, item: item, title: "Buy milk",
                                              due: 1_796_112_000, outcome: .showing, recordedAt: 1_796_112_000)
        try ledger.saveGeofenceStates([alarm.rawValue: GeofenceState(presence: .outside, lastFiredAt: 1_796_112_000)],
                                     latestFixTime: 1_796_112_000, position: try Fix(latitude: 1, longitude: 2, time: 1_796_112_000),
                                     recording: [delivery])
        #expect(try ledger.recordedKeys(among: [delivery.key]) == [delivery.key])
        #expect(try ledger.deliveries().first?.outcome == .showing)
        #expect(try ledger.latestPosition()?.fix.position.longitude == 2)
    }
}
