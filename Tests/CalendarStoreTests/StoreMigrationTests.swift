import CalendarModel
import CalendarStore
import Foundation
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
}
