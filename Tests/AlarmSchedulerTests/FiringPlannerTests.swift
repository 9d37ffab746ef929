import AlarmScheduler
import CalendarModel
import CalendarStore
import Foundation
import Testing

/// Planning with a fixed reference instant on a real store file.
@Suite("FiringPlanner: the coming firings of every alarm")
struct FiringPlannerTests {
    final class Fixture {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-plan-\(UUID().uuidString)").path
        let store: CalendarStore
        let calendar: ItemIdentifier
        init(now: Date = Date(timeIntervalSince1970: 0)) throws {
            store = try CalendarStore(path: folder + "/chime.db", machineTimeZone: try TimeZoneRules.named("Asia/Shanghai"), now: { now })
            calendar = try store.defaultCalendarForNewEvents().identifier
        }
        deinit { try? FileManager.default.removeItem(atPath: folder) }

        func zoned(_ text: String, _ zone: String = "Asia/Shanghai") -> ItemTime { .zoned(LocalDateTime(parsing: text)!, zone: zone) }

        func firings(after rfc3339: String, count: Int = 20) throws -> [Firing] {
            try FiringPlanner(store: store).firings(after: Int64(RFC3339.instant(rfc3339)!), count: count)
        }
    }

    /// Firings as `RFC 3339 title` in a zone, the way a person reads them.
    func readable(_ firings: [Firing], _ zone: String = "Asia/Shanghai") throws -> [String] {
        let rules = try TimeZoneRules.named(zone)
        return firings.map { firing in
            let local = rules.localTime(at: firing.instant)
            return "\(local) \(firing.title)"
        }
    }

    @Test("a relative alarm on a daily event in New York keeps its wall-clock time across the spring-forward night")
    func daylightSaving() throws {
        let fixture = try Fixture()
        try fixture.store.save(Event(calendarIdentifier: fixture.calendar, title: "Walk",
                                     start: fixture.zoned("2026-03-06T08:00:00", "America/New_York"),
                                     end: fixture.zoned("2026-03-06T08:30:00", "America/New_York"),
                                     recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=DAILY"), alarms: [Alarm(trigger: .relative(seconds: -900))]))
        let firings = try fixture.firings(after: "2026-03-06T00:00:00-05:00", count: 4)
        #expect(try readable(firings, "America/New_York") == [
            "2026-03-06T07:45:00 Walk", "2026-03-07T07:45:00 Walk",
            "2026-03-08T07:45:00 Walk",  // 2026-03-08 is the first day of EDT
            "2026-03-09T07:45:00 Walk",
        ])
        // 23 hours between the two around the change.
        #expect(firings[2].instant - firings[1].instant == 23 * 3600)
    }

    @Test("an absolute alarm rings once and not when past; a location alarm is not planned")
    func absoluteAndLocation() throws {
        let fixture = try Fixture()
        let at = Date(timeIntervalSince1970: RFC3339.instant("2026-12-01T07:00:00+08:00")!)
        let place = try StructuredLocation(title: "Office", latitude: 31.23, longitude: 121.47, radius: 150)
        try fixture.store.save(Event(calendarIdentifier: fixture.calendar, title: "Stand-up", start: fixture.zoned("2026-12-01T09:00:00"),
                                     end: fixture.zoned("2026-12-01T09:15:00"), recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=DAILY"),
                                     alarms: [Alarm(trigger: .absolute(at)), Alarm(trigger: .proximity(place, .enter))]))
        #expect(try readable(try fixture.firings(after: "2026-12-01T00:00:00+08:00")) == ["2026-12-01T07:00:00 Stand-up"])
        #expect(try fixture.firings(after: "2026-12-01T07:00:00+08:00").isEmpty)
    }

    @Test("a reminder rings for its current due time only, while incomplete; completing it moves the firing on")
    func reminders() throws {
        let fixture = try Fixture(now: Date(timeIntervalSince1970: RFC3339.instant("2026-12-01T09:00:00+08:00")!))
        let water = Reminder(calendarIdentifier: fixture.calendar, title: "Water plants", due: fixture.zoned("2026-12-01T18:00:00"),
                             recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=DAILY"), alarms: [Alarm(trigger: .relative(seconds: -300))])
        try fixture.store.save(water)
        #expect(try readable(try fixture.firings(after: "2026-12-01T09:00:00+08:00")) == ["2026-12-01T17:55:00 Water plants"])
        try fixture.store.complete(water.identifier)
        #expect(try readable(try fixture.firings(after: "2026-12-01T09:00:00+08:00")) == ["2026-12-02T17:55:00 Water plants"])
        var once = Reminder(calendarIdentifier: fixture.calendar, title: "Call back", due: fixture.zoned("2026-12-01T12:00:00"),
                            alarms: [Alarm(trigger: .relative(seconds: 0))])
        try fixture.store.save(once)
        once.isCompleted = true
        try fixture.store.save(once)
        #expect(try readable(try fixture.firings(after: "2026-12-01T09:00:00+08:00")) == ["2026-12-02T17:55:00 Water plants"])
    }

    @Test("a detached occurrence rings through its own item at its new time, and the series skips it")
    func detached() throws {
        let fixture = try Fixture()
        let series = Event(calendarIdentifier: fixture.calendar, title: "Stand-up", start: fixture.zoned("2026-12-01T09:00:00"),
                           end: fixture.zoned("2026-12-01T09:15:00"), recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=DAILY;COUNT=3"),
                           alarms: [Alarm(trigger: .relative(seconds: -600))])
        try fixture.store.save(series)
        var moved = try fixture.store.occurrence(of: series.identifier, originalStart: LocalDateTime(parsing: "2026-12-02T09:00:00")!)
        moved.start = fixture.zoned("2026-12-02T11:00:00")
        moved.end = fixture.zoned("2026-12-02T11:15:00")
        moved.title = "Stand-up (late)"
        try fixture.store.save(moved, span: .thisEvent)
        #expect(try readable(try fixture.firings(after: "2026-12-01T00:00:00+08:00")) == [
            "2026-12-01T08:50:00 Stand-up", "2026-12-02T10:50:00 Stand-up (late)", "2026-12-03T08:50:00 Stand-up",
        ])
    }

    @Test("an all-day event's relative alarm counts from the local midnight of its day")
    func allDay() throws {
        let fixture = try Fixture()
        let day = CivilDate(year: 2026, month: 12, day: 24)!
        try fixture.store.save(Event(calendarIdentifier: fixture.calendar, title: "Christmas Eve", start: .date(day), end: .date(day),
                                     recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=YEARLY"),
                                     alarms: [Alarm(trigger: .relative(seconds: -3600 * 3))]))
        #expect(try readable(try fixture.firings(after: "2026-12-01T00:00:00+08:00", count: 2)) == [
            "2026-12-23T21:00:00 Christmas Eve", "2027-12-23T21:00:00 Christmas Eve",
        ])
    }

    @Test("a workday series says why each day rings: the makeup Saturday, the break passed over")
    func workdayExplanations() throws {
        let fixture = try Fixture()
        try fixture.store.save(Event(calendarIdentifier: fixture.calendar, title: "Clock in", start: fixture.zoned("2026-09-30T08:50:00"),
                                     end: fixture.zoned("2026-09-30T08:50:00"), recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=DAILY;X-WORKDAY=SKIP"),
                                     alarms: [Alarm(trigger: .relative(seconds: 0))]))
        let firings = try fixture.firings(after: "2026-09-30T12:00:00+08:00", count: 3)
        #expect(try readable(firings) == ["2026-10-08T08:50:00 Clock in", "2026-10-09T08:50:00 Clock in", "2026-10-10T08:50:00 Clock in"])
        #expect(firings.map(\.explanation) == ["workday; skipped 10-01…10-07 (国庆节)", "workday", "makeup workday for 国庆节"])
        // The key names the alarm and the occurrence, so each rings once.
        #expect(Set(firings.map(\.key)).count == 3)
    }

    @Test("firings of many alarms come merged in order, and the count is honoured")
    func merged() throws {
        let fixture = try Fixture()
        for (title, time) in [("B", "2026-12-01T09:00:00"), ("A", "2026-12-01T08:00:00"), ("C", "2026-12-01T10:00:00")] {
            try fixture.store.save(Event(calendarIdentifier: fixture.calendar, title: title, start: fixture.zoned(time), end: fixture.zoned(time),
                                         recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=DAILY"), alarms: [Alarm(trigger: .relative(seconds: 0))]))
        }
        let firings = try fixture.firings(after: "2026-12-01T00:00:00+08:00", count: 7)
        #expect(firings.map(\.title) == ["A", "B", "C", "A", "B", "C", "A"])
        #expect(firings == firings.sorted())
    }
}
