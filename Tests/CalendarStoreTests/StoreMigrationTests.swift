import CalendarModel
import CalendarStore
import Foundation
import HolidayCalendars
import SQLiteDatabase
import TestSupport
import Testing

/// A store written by the first schema version (Fixtures/store-v1.db, made
/// with the v1 code and never regenerated) must open with today's code,
/// migrate, and read back what it held.
@Suite("Stores from earlier schema versions")
struct StoreMigrationTests {
    @Test("a version 1 store opens, migrates and keeps its calendars, events, detached occurrence, reminder and alarms")
    func version1() throws {
        let fixture = try StoreFixture()
        let source = try #require(Bundle.module.url(forResource: "store-v1", withExtension: "db", subdirectory: "Fixtures"))
        try FileManager.default.createDirectory(atPath: (fixture.path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: source.path, toPath: fixture.path)
        let store = try fixture.open()

        #expect(try store.calendars().map(\.title) == ["Personal", "Work"])
        let standup = try store.event(identifier: try #require(ItemIdentifier("0000000000000000000000000000000a")))
        #expect(standup.title == "Stand-up")
        #expect(standup.recurrenceRule?.rfc5545 == "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")
        #expect(standup.externalKey == "standup")
        #expect(standup.alarms.map(\.trigger) == [.relative(seconds: -300)])

        let week = try StoreFixture.date("2026-11-30T00:00:00+08:00")..<StoreFixture.date("2026-12-07T00:00:00+08:00")
        #expect(try store.events(overlapping: week).map { "\($0.start.wallClock) \($0.title)" } == [
            "2026-11-30T09:00:00 Stand-up", "2026-12-01T09:00:00 Stand-up",
            "2026-12-03T10:00:00 Stand-up", "2026-12-04T09:00:00 Stand-up",
        ])
        let milk = try store.reminder(identifier: try #require(ItemIdentifier("0000000000000000000000000000000d")))
        #expect(milk.priority == 5)
        #expect(milk.due == .floating(try StoreFixture.time("2026-12-01T18:00:00")))
        guard case .proximity(let place, .leave)? = milk.alarms.first?.trigger else {
            Issue.record("the reminder's leave alarm was lost: \(milk.alarms)")
            return
        }
        #expect(place.title == "Office" && place.latitude == 31.2304 && place.radius == 150)
        // And it takes writes.
        try store.save(Reminder(calendarIdentifier: milk.calendarIdentifier, title: "After migration"))
        #expect(try store.reminders(.all).count == 2)
    }

    @Test("reminders saved before a due time implied an alarm get one when the store migrates: at the due time, at 09:00 on a due date; completed and alarmed ones stay as they were")
    func impliedAlarmsForOldReminders() throws {
        let fixture = try StoreFixture()
        let ids: [String: ItemIdentifier]
        do {
            let store = try fixture.open()
            let calendar = try store.defaultCalendarForNewReminders().identifier
            let timed = Reminder(calendarIdentifier: calendar, title: "Stretch", due: try StoreFixture.zoned("2026-12-01T10:00:00"))
            let dated = Reminder(calendarIdentifier: calendar, title: "Bill", due: .date(CivilDate(year: 2026, month: 12, day: 3)!))
            let undated = Reminder(calendarIdentifier: calendar, title: "Someday")
            let done = Reminder(calendarIdentifier: calendar, title: "Done", due: try StoreFixture.zoned("2026-11-01T10:00:00"),
                                isCompleted: true)
            let alarmed = Reminder(calendarIdentifier: calendar, title: "Alarmed", due: try StoreFixture.zoned("2026-12-01T10:00:00"),
                                   alarms: [Alarm(trigger: .relative(seconds: -600))])
            for reminder in [timed, dated, undated, done, alarmed] { try store.save(reminder) }
            ids = ["timed": timed.identifier, "dated": dated.identifier, "undated": undated.identifier, "done": done.identifier,
                   "alarmed": alarmed.identifier]
        }
        // As a store from before the migration: its record gone, and those
        // of the later ones with what they added, it runs on the next open.
        let database = try Database(path: fixture.path)
        try database.executeScript("""
            DROP TABLE subscriptions;
            DROP TABLE personal_days;
            DROP INDEX items_workday_rules;
            ALTER TABLE items DROP COLUMN structured_title;
            ALTER TABLE items DROP COLUMN structured_latitude;
            ALTER TABLE items DROP COLUMN structured_longitude;
            ALTER TABLE items DROP COLUMN structured_radius;
            ALTER TABLE items DROP COLUMN ical_sequence;
            ALTER TABLE items DROP COLUMN ical_last_modified;
            ALTER TABLE items DROP COLUMN ical_unmodelled;
            ALTER TABLE alarms DROP COLUMN unmodelled;
            ALTER TABLE alarms DROP COLUMN acknowledged;
            ALTER TABLE alarms DROP COLUMN snoozed_until;
            ALTER TABLE alarms DROP COLUMN snoozed_occurrence;
            """)
        try database.execute("DELETE FROM schema_migrations WHERE name LIKE '%an alarm at the due time for reminders saved without one'")
        #expect(database.changes == 1)
        try database.execute("""
            DELETE FROM schema_migrations WHERE name LIKE 'v14: %' OR name LIKE 'v15: %' OR name LIKE 'v16: %' OR name LIKE 'v17: %' OR name LIKE 'v18: %'
                OR name LIKE 'v19: %' OR name LIKE 'v20: %' OR name LIKE 'v21: %'
            """)
        #expect(database.changes == 8)
        let store = try fixture.open()
        func triggers(_ key: String) throws -> [Alarm.Trigger] { try store.reminder(identifier: try #require(ids[key])).alarms.map(\.trigger) }
        #expect(try triggers("timed") == [.relative(seconds: 0)])
        #expect(try triggers("dated") == [.relative(seconds: 9 * 3600)])
        #expect(try triggers("undated") == [])
        #expect(try triggers("done") == [])
        #expect(try triggers("alarmed") == [.relative(seconds: -600)])
        // And the planner's query finds them.
        var alarmed: Set<ItemIdentifier> = []
        try store.forEachAlarmedItem { alarmed.insert($0.identifier) }
        #expect(alarmed == [ids["timed"]!, ids["dated"]!, ids["alarmed"]!])
    }

    @Test("days of leave from before days worked or half days came stay whole days of leave when the store migrates; opened read-only, such a store reads its leave, and one from before leave none")
    func personalDays() throws {
        let fixture = try StoreFixture()
        let december = CivilDate(year: 2026, month: 12, day: 9)!...CivilDate(year: 2026, month: 12, day: 10)!   // 2026-12-09…10
        let saturday = CivilDate(year: 2026, month: 12, day: 12)!   // 2026-12-12
        do {
            let store = try fixture.open()
            try store.addPersonalDays(december, kind: .leave, name: "年假")
        }
        let leave = [PersonalDay(date: december.lowerBound, kind: .leave, name: "年假"), PersonalDay(date: december.upperBound, kind: .leave, name: "年假")]
        // As a store at v20: whole days only. (A connection of its own for
        // each rewind: SQLite's ALTER TABLE … DROP COLUMN looks the column up
        // in the schema its connection last read, and does not read it again
        // when another connection has added the column since.)
        try Database(path: fixture.path).executeScript("""
            ALTER TABLE personal_days DROP COLUMN half;
            DELETE FROM schema_migrations WHERE name LIKE 'v21: %';
            """)
        #expect(try CalendarStore(path: fixture.path, readOnly: true, creating: false, machineTimeZone: fixture.zone).personalDays() == leave)
        do {
            let store = try fixture.open()
            #expect(try store.personalDays() == leave)
            #expect(try store.addPersonalDays(december.upperBound...december.upperBound, kind: .leave, half: .afternoon) == 1)
            #expect(try store.workdayCalendar().isWorkday(december.upperBound, in: .morning))
            try store.addPersonalDays(december.upperBound...december.upperBound, kind: .leave)
        }
        // As a store at v18: the table as that version made it, and nothing of the migrations after it.
        let database = try Database(path: fixture.path)
        try database.executeScript("""
            ALTER TABLE personal_days DROP COLUMN half;
            ALTER TABLE personal_days DROP COLUMN kind;
            ALTER TABLE personal_days RENAME TO leave_days;
            DROP INDEX items_workday_rules;
            DELETE FROM schema_migrations WHERE name LIKE 'v19: %' OR name LIKE 'v20: %' OR name LIKE 'v21: %';
            """)
        let readOnly = try CalendarStore(path: fixture.path, readOnly: true, creating: false, machineTimeZone: fixture.zone)
        #expect(try readOnly.personalDays() == leave)
        #expect(try readOnly.workdayCalendar().answer(on: december.lowerBound).reason == .leave("年假"))
        let store = try fixture.open()
        #expect(try store.personalDays() == leave)
        #expect(try store.addPersonalDays(saturday...saturday, kind: .work, name: "加班") == 1)
        #expect(try store.workdayCalendar().answer(on: saturday).reason == .work("加班"))
        // As a store from before v18: no leave, and nothing to read it from.
        try database.executeScript("DROP TABLE personal_days;")
        let older = try CalendarStore(path: fixture.path, readOnly: true, creating: false, machineTimeZone: fixture.zone)
        #expect(try older.personalDays().isEmpty)
        #expect(try older.workdayDataToken().hasSuffix(";"))
    }
}
