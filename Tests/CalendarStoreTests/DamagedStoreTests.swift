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

    @Test("an alarm whose identifier is damaged is an error naming its item, never a made-up identifier")
    func damagedIdentifiers() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let calendar = try store.defaultCalendarForNewReminders().identifier
        let reminder = Reminder(calendarIdentifier: calendar, title: "Pay rent", due: try StoreFixture.zoned("2026-12-05T17:00:00"),
                                alarms: [Alarm(trigger: .relative(seconds: -3600))])
        try store.save(reminder)
        let alarm = try #require(reminder.alarms.first).identifier
        try damage(fixture, "UPDATE alarms SET id = 'not-an-alarm' WHERE id = '\(alarm.rawValue)'")
        #expect {
            try store.reminder(identifier: reminder.identifier)
        } throws: { error in
            "\(error)".contains(reminder.identifier.rawValue) && "\(error)".contains("not-an-alarm")
        }
    }
}
