import CalendarModel
import CalendarStore
import Foundation
import SQLiteDatabase
import TestSupport
import Testing

/// The item change log the daemon re-plans from.
@Suite("The item change log")
struct ItemChangeLogTests {
    @Test("names the items each commit touched, a detached occurrence's series with it, and the items a removed calendar took")
    func namesChangedItems() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let calendar = ItemCalendar(title: "Work")
        try store.save(calendar)
        let daily = Event(calendarIdentifier: calendar.identifier, title: "Stand-up",
                          start: try StoreFixture.zoned("2026-12-01T09:00:00"), end: try StoreFixture.zoned("2026-12-01T09:15:00"),
                          recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=DAILY"), alarms: [Alarm(trigger: .relative(seconds: -300))])
        try store.save(daily)
        let reminder = Reminder(calendarIdentifier: try store.defaultCalendarForNewReminders().identifier, title: "Pay rent",
                                due: try StoreFixture.zoned("2026-12-05T10:00:00"))
        try store.save(reminder)

        var mark = try store.itemChangeMark()
        #expect(try store.itemChanges(after: mark).items == [])

        // A detached occurrence changes its series' firings as well.
        var moved = try store.occurrence(of: daily.identifier, originalStart: try StoreFixture.time("2026-12-03T09:00:00"))
        moved.start = try StoreFixture.zoned("2026-12-03T10:00:00")
        moved.end = try StoreFixture.zoned("2026-12-03T10:15:00")
        let detached = try store.save(moved, span: .thisEvent)
        var changes = try store.itemChanges(after: mark)
        #expect(changes.items == [daily.identifier, detached])
        mark = changes.mark

        try store.complete(reminder.identifier)
        changes = try store.itemChanges(after: mark)
        #expect(changes.items == [reminder.identifier])
        mark = changes.mark

        // Removing the calendar removes the series and its occurrence through the foreign key's cascade.
        try store.removeCalendar(calendar.identifier, removingItems: true)
        changes = try store.itemChanges(after: mark)
        #expect(changes.items == [daily.identifier, detached])
        #expect(try store.itemChanges(after: changes.mark).items == [])
    }

    @Test("a reader the log has moved past is told it cannot say what changed")
    func prunedPastTheReader() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let calendar = try store.defaultCalendarForNewReminders().identifier
        let mark = try store.itemChangeMark()
        try store.save(Reminder(calendarIdentifier: calendar, title: "First"))
        #expect(try store.itemChanges(after: mark).items?.count == 1)
        // More changes than the log keeps (20,000), in one commit.
        for index in 0..<20_010 { try store.save(Reminder(calendarIdentifier: calendar, title: "Bulk \(index)"), commit: false) }
        try store.commit()
        let changes = try store.itemChanges(after: mark)
        #expect(changes.items == nil)
        #expect(changes.mark > mark)
        // A reader that is up to date goes on as before, and the log again names what changes.
        #expect(try store.itemChanges(after: changes.mark).items == [])
        let after = Reminder(calendarIdentifier: calendar, title: "After")
        try store.save(after)
        #expect(try store.itemChanges(after: changes.mark).items == [after.identifier])
        #expect(try store.itemChanges(after: mark).items == nil)
    }

    /// Events keyed `event-N@example.org` at 2026-12-01T09:00 (Asia/Shanghai);
    /// every `repeatingEvery`th one a daily series of ten with its second
    /// occurrence moved an hour later.
    static func series(_ indices: Range<Int>, title: String, in calendar: ItemIdentifier, repeatingEvery: Int) throws -> CalendarItems {
        var events: [Event] = []
        for index in indices {
            let repeats = index % repeatingEvery == 0
            let series = Event(calendarIdentifier: calendar, title: "\(title) \(index)", start: try StoreFixture.zoned("2026-12-01T09:00:00"),
                               end: try StoreFixture.zoned("2026-12-01T09:15:00"),
                               recurrenceRule: repeats ? try RecurrenceRule(rfc5545: "FREQ=DAILY;COUNT=10") : nil,
                               externalKey: "event-\(index)@example.org", origin: ICalendarOrigin(sequence: 0))
            events.append(series)
            if repeats {
                // 2026-12-02T09:00 (Asia/Shanghai), moved an hour later.
                events.append(Event(calendarIdentifier: calendar, title: "\(title) \(index) (moved)", start: try StoreFixture.zoned("2026-12-02T10:00:00"),
                                    end: try StoreFixture.zoned("2026-12-02T10:15:00"), origin: ICalendarOrigin(sequence: 0),
                                    seriesIdentifier: series.identifier, originalStart: try StoreFixture.time("2026-12-02T09:00:00")))
            }
        }
        return try CalendarItems(events: events)
    }

    /// A large import logs its rows in one statement, not through the
    /// triggers: the log must still name every item written, and the
    /// triggers must be back for what comes after.
    @Test("an import of hundreds of items names each item it added, updated or removed, and later saves are logged again")
    func largeImportNamesItsItems() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let calendar = try store.defaultCalendarForNewEvents().identifier
        func batch(_ count: Int, title: String) throws -> CalendarItems {
            try Self.series(0..<count, title: title, in: calendar, repeatingEvery: 2)
        }
        func identifiers() throws -> Set<ItemIdentifier> {
            Set(try store.items(of: calendar).events.flatMap { [$0.event.identifier] + $0.detached.map(\.identifier) })
        }
        var mark = try store.itemChangeMark()
        // 600 series and 300 detached occurrences: past the rows logged at once (500), within the log's 20,000.
        let added = try store.importItems(try batch(600, title: "Meeting"), into: calendar)
        #expect(added.added == 600)
        var changes = try store.itemChanges(after: mark)
        let written = try identifiers()
        #expect(written.count == 900)
        #expect(changes.items == written)
        mark = changes.mark

        // Again with new titles: every row updated, under the identifiers it had.
        let updated = try store.importItems(try batch(600, title: "Review"), into: calendar, removingMissing: true)
        #expect(updated.updated == 600)
        changes = try store.itemChanges(after: mark)
        #expect(changes.items == written)
        mark = changes.mark

        // A refresh that keeps a third of the series, renamed, and removes the rest (their detached occurrences with them, by the cascade).
        let refreshed = try store.importItems(try batch(200, title: "Planning"), into: calendar, removingMissing: true)
        #expect(refreshed.updated == 200 && refreshed.removed == 400)
        changes = try store.itemChanges(after: mark)
        #expect(try identifiers().count == 300)
        #expect(changes.items == written)
        mark = changes.mark

        // The triggers are back: one save, one entry.
        let single = Event(calendarIdentifier: calendar, title: "Lunch", start: try StoreFixture.zoned("2026-12-04T12:00:00"),
                           end: try StoreFixture.zoned("2026-12-04T13:00:00"))
        try store.save(single)
        #expect(try store.itemChanges(after: mark).items == [single.identifier])
    }

    /// An import written in pieces takes the log's insert and update
    /// triggers off once for all its pieces, which log what they wrote
    /// themselves: the log must name the same items, and the triggers must
    /// be back after it, whether it was kept or rolled back.
    @Test("an import written in pieces names each item its pieces added or updated, and later saves are logged again, after a failed one too")
    func importInPiecesNamesItsItems() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let calendar = try store.defaultCalendarForNewEvents().identifier
        func piece(_ range: Range<Int>, title: String) throws -> CalendarItems {
            try Self.series(range, title: title, in: calendar, repeatingEvery: 1)
        }
        func identifiers() throws -> Set<ItemIdentifier> {
            Set(try store.items(of: calendar).events.flatMap { [$0.event.identifier] + $0.detached.map(\.identifier) })
        }
        let triggers = "SELECT count(*) FROM sqlite_schema WHERE type = 'trigger' AND name LIKE 'item_changes_%'"
        let database = try Database(path: fixture.path)
        let mark = try store.itemChangeMark()
        try store.importTransaction {
            try store.importItems(try piece(0..<3, title: "Meeting"), into: calendar, lookup: .nothingStored)
            try store.importItems(store.prepareImport(try piece(3..<6, title: "Meeting"), into: calendar), lookup: .nothingStored)
            // The first piece again, renamed: an update of each of its series and occurrences.
            try store.importItems(try piece(0..<3, title: "Review"), into: calendar, lookup: .uids)
            // Inside the import, only the trigger for deletes is on: the pieces log what they insert and update themselves.
            #expect(try store.database.scalar(triggers) == 1)
        }
        let written = try identifiers()
        #expect(written.count == 12)
        var changes = try store.itemChanges(after: mark)
        #expect(changes.items == written)
        #expect(try database.scalar(triggers) == 3)

        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try store.importTransaction { () throws(Refused) in
                _ = try? store.importItems(try piece(6..<9, title: "Planning"), into: calendar, lookup: .nothingStored)
                throw Refused()
            }
        }
        #expect(try identifiers() == written)
        #expect(try store.itemChanges(after: changes.mark).items == [])
        #expect(try database.scalar(triggers) == 3)
        changes = try store.itemChanges(after: changes.mark)
        let single = Event(calendarIdentifier: calendar, title: "Lunch", start: try StoreFixture.zoned("2026-12-04T12:00:00"),
                           end: try StoreFixture.zoned("2026-12-04T13:00:00"))
        try store.save(single)
        #expect(try store.itemChanges(after: changes.mark).items == [single.identifier])
    }

    @Test("past single events are left out of a plan after an instant unless an alarm of theirs rings later")
    func pastEventsLeftOut() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let calendar = try store.defaultCalendarForNewEvents().identifier
        func event(_ title: String, _ start: String, _ alarm: Alarm.Trigger) throws -> Event {
            Event(calendarIdentifier: calendar, title: title, start: try StoreFixture.zoned(start), end: try StoreFixture.zoned(start),
                  alarms: [Alarm(trigger: alarm)])
        }
        try store.save(try event("Old", "2026-09-01T09:00:00", .relative(seconds: -600)))
        try store.save(try event("Old, absolute alarm later", "2026-09-01T09:00:00",
                                 .absolute(try StoreFixture.date("2026-12-02T09:00:00+08:00"))))        // 2026-12-02T01:00:00Z
        try store.save(try event("Old, alarm 100 days after", "2026-09-01T09:00:00", .relative(seconds: 100 * 86_400)))
        try store.save(try event("Last week", "2026-11-25T09:00:00", .relative(seconds: 0)))
        try store.save(try event("Coming", "2026-12-10T09:00:00", .relative(seconds: 0)))
        try store.save(Event(calendarIdentifier: calendar, title: "Old series", start: try StoreFixture.zoned("2026-01-01T09:00:00"),
                             end: try StoreFixture.zoned("2026-01-01T09:00:00"), recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=WEEKLY"),
                             alarms: [Alarm(trigger: .relative(seconds: 0))]))
        let after = Int64(try StoreFixture.date("2026-12-01T00:00:00+08:00").timeIntervalSince1970)   // 2026-11-30T16:00:00Z
        var titles: [String] = []
        try store.forEachAlarmedItem(after: after) { item in
            if case .event(let event, _) = item { titles.append(event.title) }
        }
        #expect(titles.sorted() == ["Coming", "Last week", "Old series", "Old, absolute alarm later", "Old, alarm 100 days after"])
        var all = 0
        try store.forEachAlarmedItem { _ in all += 1 }
        #expect(all == 6)
    }
}
