import CalendarModel
import CalendarStore
import Foundation
import SQLiteDatabase
import TestSupport
import Testing

/// Rows that another program (or a bad disk) wrote: reading them must fail
/// with an error that names the item, not trap.
@Suite("A damaged store")
struct DamagedStoreTests {
    func damage(_ fixture: StoreFixture, _ sql: String) throws {
        let database = try Database(path: fixture.path)
        // Damage does not respect foreign keys.
        try database.execute("PRAGMA foreign_keys = OFF")
        try database.execute(sql)
    }

    @Test("a rule that does not parse, an unknown time kind and a bad identifier are named in the error")
    func unreadableRows() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let calendar = try store.defaultCalendarForNewEvents().identifier
        let start = try StoreFixture.zoned("2026-12-01T08:50:00")
        let event = Event(calendarIdentifier: calendar, title: "Stand-up", start: start, end: start,
                          recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=DAILY"))
        try store.save(event)
        let week = try StoreFixture.date("2026-11-30T00:00:00+08:00")..<StoreFixture.date("2026-12-07T00:00:00+08:00")

        try damage(fixture, "UPDATE items SET rrule = 'FREQ=FORTNIGHTLY' WHERE id = '\(event.identifier.rawValue)'")
        #expect {
            try store.events(overlapping: week)
        } throws: { error in
            "\(error)".contains(event.identifier.rawValue) && "\(error)".contains("FREQ=FORTNIGHTLY")
        }

        try damage(fixture, "UPDATE items SET rrule = 'FREQ=DAILY', start_kind = 'sometime' WHERE id = '\(event.identifier.rawValue)'")
        #expect {
            try store.event(identifier: event.identifier)
        } throws: { error in
            "\(error)".contains(event.identifier.rawValue) && "\(error)".contains("sometime")
        }

        try damage(fixture, "UPDATE items SET start_kind = 'zoned', calendar_id = 'not-an-id' WHERE id = '\(event.identifier.rawValue)'")
        #expect {
            try store.event(identifier: event.identifier)
        } throws: { error in
            "\(error)".contains("not-an-id")
        }
    }

    @Test("an alarm, a delivery or a snooze whose identifier is damaged is an error naming its row, never a made-up identifier")
    func damagedIdentifiers() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let calendar = try store.defaultCalendarForNewReminders().identifier
        let reminder = Reminder(calendarIdentifier: calendar, title: "Pay rent", due: try StoreFixture.zoned("2026-12-05T17:00:00"),
                                alarms: [Alarm(trigger: .relative(seconds: -3600))])
        try store.save(reminder)
        let alarm = try #require(reminder.alarms.first).identifier
        let key = "\(alarm.rawValue)@1796461200" // due 2026-12-05T09:00:00Z
        try store.record([CalendarStore.Delivery(key: key, alarm: alarm, item: reminder.identifier, title: "Pay rent", due: 1_796_461_200,
                                                 outcome: .delivered, recordedAt: try StoreFixture.date("2026-12-05T09:00:01Z"))])
        _ = try store.snooze(key, until: 1_796_462_000)
        #expect(try store.deliveries().map(\.alarm) == [alarm])
        #expect(try store.snoozes(after: 0).map(\.item) == [reminder.identifier])

        try damage(fixture, "UPDATE deliveries SET alarm_id = 'not-an-alarm' WHERE key = '\(key)'")
        #expect {
            try store.deliveries()
        } throws: { error in
            "\(error)".contains(key) && "\(error)".contains("not-an-alarm")
        }
        try damage(fixture, "UPDATE deliveries SET alarm_id = '\(alarm.rawValue)', item_id = 'not-an-item' WHERE key = '\(key)'")
        #expect {
            try store.deliveries()
        } throws: { error in
            "\(error)".contains(key) && "\(error)".contains("not-an-item")
        }
        // Past the table's CHECK, as a bad disk or another program could.
        try Database(path: fixture.path).executeScript("""
            PRAGMA ignore_check_constraints = ON;
            UPDATE deliveries SET item_id = '\(reminder.identifier.rawValue)', outcome = 'lost' WHERE key = '\(key)'
            """)
        #expect {
            try store.deliveries()
        } throws: { error in
            "\(error)".contains(key) && "\(error)".contains("lost")
        }

        try damage(fixture, "UPDATE snoozes SET item_id = 'not-an-item'")
        #expect {
            try store.snoozes(after: 0)
        } throws: { error in
            "\(error)".contains(key) && "\(error)".contains("not-an-item")
        }

        try damage(fixture, "UPDATE alarms SET id = 'not-an-alarm' WHERE id = '\(alarm.rawValue)'")
        #expect {
            try store.reminder(identifier: reminder.identifier)
        } throws: { error in
            "\(error)".contains(reminder.identifier.rawValue) && "\(error)".contains("not-an-alarm")
        }
    }
}
