import CalendarModel
import CalendarStore
import Foundation
import TestSupport
import Testing

/// A calendar of `series` repeating events (every fifth with a moved
/// occurrence, every third with alarms) and `reminders` reminders (every
/// other with an alarm), imported in an order that mixes the two, so
/// that both kinds fall in either half of the rows.
private func busyCalendar(_ calendar: ItemIdentifier, series: Int, reminders: Int) throws -> CalendarItems {
    var items = CalendarItems()
    let first = try StoreFixture.time("2026-01-05T09:00:00")
    for index in 0..<max(series, reminders) {
        if index < series {
            let start = LocalDateTime(localSeconds: first.localSeconds + Int64(index) * 3_600)
            let event = Event(calendarIdentifier: calendar, title: "Series \(index)",
                              start: .zoned(start, zone: "Asia/Shanghai"),
                              end: .zoned(LocalDateTime(localSeconds: start.localSeconds + 1_800), zone: "Asia/Shanghai"),
                              recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=WEEKLY;COUNT=\(2 + index % 7)"),
                              alarms: index % 3 == 0 ? [.relative(seconds: -600), .relative(seconds: -60)] : [],
                              externalKey: "series-\(index)@example.org")
            var detached: [Event] = []
            if index % 5 == 0 {
                let moved = LocalDateTime(localSeconds: start.localSeconds + 7 * 86_400)
                detached.append(Event(calendarIdentifier: calendar, title: "Series \(index) (moved)",
                                      start: .zoned(LocalDateTime(localSeconds: moved.localSeconds + 3_600), zone: "Asia/Shanghai"),
                                      end: .zoned(LocalDateTime(localSeconds: moved.localSeconds + 5_400), zone: "Asia/Shanghai"),
                                      seriesIdentifier: event.identifier, originalStart: moved))
            }
            items.events.append(CalendarItems.Series(event: event, detached: detached))
        }
        if index < reminders {
            let due = LocalDateTime(localSeconds: first.localSeconds + Int64(index) * 5_400)
            items.reminders.append(Reminder(calendarIdentifier: calendar, title: "Reminder \(index)", due: .zoned(due, zone: "Asia/Shanghai"),
                                            alarms: index % 2 == 0 ? [.relative(seconds: -300)] : [],
                                            externalKey: "reminder-\(index)@example.org"))
        }
    }
    return items
}

@Suite("Reading a whole calendar, as an export does")
struct WholeCalendarReadTests {
    @Test("a calendar of 2,000 items or more is read in two halves at once, giving what one read gives: each series with its moved occurrences and alarms, then the reminders, in stored order")
    func halvesAreOneRead() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let calendar = try store.defaultCalendarForNewEvents().identifier
        let other = ItemCalendar(title: "Other")
        try store.save(other)
        // Items of another calendar between and after this one's: neither half takes them.
        try store.importItems(try busyCalendar(calendar, series: 1_000, reminders: 500), into: calendar)
        try store.importItems(try busyCalendar(other.identifier, series: 30, reminders: 30), into: other.identifier)
        try store.importItems(try busyCalendar(calendar, series: 500, reminders: 200).renamed(series: 1_000, reminders: 500), into: calendar)

        let halves = try #require(try store.storedItemsInHalves(of: calendar))
        // Inside a transaction the calendar is read in one go: the other connection would not see this one's writes.
        let whole = try store.transaction { try store.items(of: calendar) }
        #expect(halves == whole)
        #expect(try store.items(of: calendar) == whole)
        #expect(whole.events.count == 1_500 && whole.reminders.count == 700)
        #expect(whole.events.map(\.event.title).prefix(2) == ["Series 0", "Series 1"])
        #expect(whole.events.last?.event.title == "Series 1499")
        #expect(whole.events.reduce(0) { $0 + $1.detached.count } == 300)
        #expect(whole.events[5].detached.map(\.title) == ["Series 5 (moved)"])
        #expect(whole.events[3].event.alarms.count == 2)
        #expect(whole.reminders.map(\.title).prefix(2) == ["Reminder 0", "Reminder 1"])
        #expect(whole.reminders.last?.title == "Reminder 699")
        #expect(whole.reminders.filter { !$0.alarms.isEmpty }.count == 350)
    }

    @Test("a smaller calendar, a read-only store and a read inside a transaction read in one go")
    func oneReadOtherwise() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let calendar = try store.defaultCalendarForNewEvents().identifier
        try store.importItems(try busyCalendar(calendar, series: 1_000, reminders: 999), into: calendar)
        #expect(try store.storedItemsInHalves(of: calendar) == nil)
        try store.importItems(try busyCalendar(calendar, series: 1_001, reminders: 999), into: calendar)
        #expect(try store.storedItemsInHalves(of: calendar) != nil)
        #expect(try store.transaction { try store.storedItemsInHalves(of: calendar) } == nil)
        let readOnly = try CalendarStore(path: fixture.path, readOnly: true, machineTimeZone: store.machineTimeZone)
        #expect(try readOnly.storedItemsInHalves(of: calendar) == nil)
        #expect(try readOnly.items(of: calendar) == store.items(of: calendar))
    }
}

private extension CalendarItems {
    /// The same items numbered from `series` and `reminders` on (`Series 0` becomes `Series 1000`), keys and titles alike.
    func renamed(series: Int, reminders: Int) -> CalendarItems {
        var items = self
        for index in items.events.indices {
            let number = series + index
            items.events[index].event.title = "Series \(number)"
            items.events[index].event.externalKey = "series-\(number)@example.org"
            for occurrence in items.events[index].detached.indices {
                items.events[index].detached[occurrence].title = "Series \(number) (moved)"
            }
        }
        for index in items.reminders.indices {
            items.reminders[index].title = "Reminder \(reminders + index)"
            items.reminders[index].externalKey = "reminder-\(reminders + index)@example.org"
        }
        return items
    }
}
