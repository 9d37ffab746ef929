import CalendarModel
import CalendarStore
import Foundation
import SQLiteDatabase
import TestSupport
import Testing

/// The expansion bound in the store: every event written meets it, and a
/// row past it (written by another program) is read up to the bound and
/// named, never walked to year 9999.
@Suite("Expansion bound in the store")
struct ExpansionBoundStoreTests {
    static func event(_ title: String, _ start: String, rule: String?, calendar: ItemIdentifier) throws -> Event {
        Event(calendarIdentifier: calendar, title: title, start: .zoned(try StoreFixture.time(start), zone: "UTC"),
              end: .zoned(try StoreFixture.time(start), zone: "UTC"), recurrenceRule: try rule.map { try RecurrenceRule(rfc5545: $0) },
              alarms: [Alarm(trigger: .relative(seconds: 0))])
    }

    @Test("an event whose COUNT runs past the bound is refused as invalid, naming the rule, and nothing is written")
    func refused() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let calendar = try store.defaultCalendarForNewEvents().identifier
        let before = try store.changeCounter()
        let costly = try Self.event("P", "2026-12-01T08:00:00", rule: "FREQ=SECONDLY;COUNT=999999999999", calendar: calendar)
        #expect {
            try store.save(costly)
        } throws: { error in
            guard case .invalid(let problem) = error as? StoreError else { return false }
            return problem.field == "recurrence rule" && problem.value == "FREQ=SECONDLY;COUNT=999999999999"
                && "\(problem)".contains("too costly")
        }
        #expect(try store.changeCounter() == before)
        #expect(try store.events(overlapping: try StoreFixture.date("2026-12-01T00:00:00Z")..<StoreFixture.date("2026-12-02T00:00:00Z")).isEmpty)
    }

    @Test("a stored series past the bound yields its first 100,000 occurrences, is named once, and leaves the others listed",
          .timeLimit(.minutes(2)))
    func storedRow() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let calendar = try store.defaultCalendarForNewEvents().identifier
        let costly = try store.save(try Self.event("P", "2026-12-01T08:00:00", rule: "FREQ=SECONDLY", calendar: calendar))
        try store.save(try Self.event("Dentist", "2026-12-03T15:00:00", rule: nil, calendar: calendar))
        try Database(path: fixture.path).execute("UPDATE items SET rrule = 'FREQ=SECONDLY;COUNT=999999999999' WHERE id = ?",
                                                 [costly.rawValue])
        let reader = try fixture.open()
        // 2026-12-03: past the series' last kept occurrence, 2026-12-02T11:46:39Z.
        let later = try StoreFixture.date("2026-12-03T00:00:00Z")..<StoreFixture.date("2026-12-04T00:00:00Z")
        #expect(try reader.events(overlapping: later).map(\.title) == ["Dentist"])
        let named = reader.takeItemsBeyondBound()
        #expect(named.map(\.identifier) == [costly])
        #expect(named.first?.title == "P")
        #expect(named.first?.reason.contains("only the first 100000 are kept (the last at 2026-12-02T11:46:39Z)") == true)
        // Named once per store.
        _ = try reader.events(overlapping: later)
        #expect(reader.takeItemsBeyondBound().isEmpty)
        // 2026-12-02T11:46:38Z and 11:46:39Z, the last two kept, and nothing after.
        let edge = try StoreFixture.date("2026-12-02T11:46:38Z")..<StoreFixture.date("2026-12-02T11:46:41Z")
        #expect(try reader.events(overlapping: edge).filter { $0.title == "P" }.map(\.start)
            == [.zoned(try StoreFixture.time("2026-12-02T11:46:38"), zone: "UTC"), .zoned(try StoreFixture.time("2026-12-02T11:46:39"), zone: "UTC")])
    }
}
