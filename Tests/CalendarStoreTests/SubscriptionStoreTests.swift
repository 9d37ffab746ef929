import CalendarModel
import CalendarStore
import Foundation
import TestSupport
import Testing

@Suite("Subscriptions and export in the store")
struct SubscriptionStoreTests {
    @Test("a saved subscription reads back, makes its calendar subscribed and is due at once until first tried")
    func saveAndRead() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let calendar = ItemCalendar(title: "Team feed", allowsContentModifications: false)
        try store.save(calendar)
        #expect(try store.subscription(of: calendar.identifier) == nil)
        let subscription = Subscription(calendarIdentifier: calendar.identifier, url: "https://example.org/team.ics", refreshInterval: 3600)
        let counter = try store.changeCounter()
        try store.saveSubscription(subscription)
        #expect(try store.changeCounter() == counter + 1)
        #expect(try store.subscription(of: calendar.identifier) == subscription)
        #expect(try store.calendar(identifier: calendar.identifier).kind == .subscribed(url: "https://example.org/team.ics"))
        #expect(try store.subscriptionsDue(at: 0) == [subscription])
        #expect(try store.subscriptions() == [subscription])
    }

    @Test("a fetch keeps the validators and sets the next refresh an interval later; failures retry after 5, then 10 minutes, capped by the interval; no change counter moves")
    func recordRefresh() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let calendar = try store.defaultCalendarForNewEvents().identifier
        try store.saveSubscription(Subscription(calendarIdentifier: calendar, url: "https://example.org/a.ics", refreshInterval: 900))
        let counter = try store.changeCounter()
        let t = Int64(1_796_000_000)  // 2026-11-30T01:33:20Z
        let fetched = try store.recordRefresh(of: calendar, at: t, .fetched(entityTag: "\"v1\"", lastModifiedHeader: "Mon, 30 Nov 2026 01:00:00 GMT"))
        #expect(fetched.entityTag == "\"v1\"" && fetched.lastSuccess == t && fetched.nextAttempt == t + 900)
        #expect(try store.subscriptionsDue(at: t + 899).isEmpty)
        #expect(try store.subscriptionsDue(at: t + 900).map(\.calendarIdentifier) == [calendar])
        let failed = try store.recordRefresh(of: calendar, at: t + 900, .failed("HTTP 503"))
        #expect(failed.lastError == "HTTP 503" && failed.consecutiveFailures == 1 && failed.nextAttempt == t + 1200)
        #expect(failed.entityTag == "\"v1\"" && failed.lastSuccess == t)
        let again = try store.recordRefresh(of: calendar, at: t + 1200, .failed("HTTP 503"))
        #expect(again.nextAttempt == t + 1800)
        let third = try store.recordRefresh(of: calendar, at: t + 1800, .failed("timed out"))
        #expect(third.nextAttempt == t + 2700)  // 20 minutes would pass the 15-minute interval
        let ok = try store.recordRefresh(of: calendar, at: t + 2700, .notModified)
        #expect(ok.lastError == nil && ok.consecutiveFailures == 0 && ok.entityTag == "\"v1\"" && ok.nextAttempt == t + 3600)
        #expect(try store.nextSubscriptionDue() == t + 3600)
        #expect(try store.changeCounter() == counter)
        #expect(try store.subscription(of: calendar) == ok)
    }

    @Test("a new URL drops the old validators and is due at once; bad intervals and unknown calendars are refused; removal follows the calendar")
    func changesAndRefusals() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let calendar = ItemCalendar(title: "Feed")
        try store.save(calendar)
        let first = Subscription(calendarIdentifier: calendar.identifier, url: "https://example.org/a.ics")
        try store.saveSubscription(first)
        var moved = try store.recordRefresh(of: calendar.identifier, at: 1_796_000_000, .fetched(entityTag: "x", lastModifiedHeader: nil))
        moved.url = "https://example.org/b.ics"
        try store.saveSubscription(moved)
        let saved = try #require(try store.subscription(of: calendar.identifier))
        #expect(saved.entityTag == nil && saved.lastAttempt == nil && saved.url == "https://example.org/b.ics")
        #expect(throws: StoreError.self) {
            try store.saveSubscription(Subscription(calendarIdentifier: calendar.identifier, url: "https://example.org/a.ics", refreshInterval: 5))
        }
        #expect(throws: StoreError.self) { try store.saveSubscription(Subscription(calendarIdentifier: .random(), url: "https://example.org/c.ics")) }
        #expect(throws: StoreError.self) { try store.recordRefresh(of: try store.defaultCalendarForNewEvents().identifier, at: 0, .notModified) }
        try store.removeSubscription(of: calendar.identifier)
        #expect(try store.subscription(of: calendar.identifier) == nil)
        #expect(try store.calendar(identifier: calendar.identifier).kind == .local)
        try store.saveSubscription(first)
        try store.removeCalendar(calendar.identifier)
        #expect(try store.subscriptions().isEmpty)
    }

    @Test("export gives a calendar's series with their detached occurrences and its reminders, fully loaded, in stored order; a range keeps what overlaps it")
    func export() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let calendar = try store.defaultCalendarForNewEvents().identifier
        var alarm = Alarm.relative(seconds: -300)
        alarm.unmodelled = "UID:a1\r\n"
        let weekly = Event(calendarIdentifier: calendar, title: "Weekly", start: try StoreFixture.zoned("2026-12-01T10:00:00"),
                           end: try StoreFixture.zoned("2026-12-01T11:00:00"), recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=WEEKLY;COUNT=3"),
                           alarms: [alarm], externalKey: "weekly", origin: ICalendarOrigin(sequence: 1, unmodelled: "X-A:1\r\n"))
        let once = Event(calendarIdentifier: calendar, title: "Once", start: try StoreFixture.zoned("2027-03-01T10:00:00"),
                         end: try StoreFixture.zoned("2027-03-01T11:00:00"))
        let reminder = Reminder(calendarIdentifier: calendar, title: "Pay", due: try StoreFixture.zoned("2026-12-10T09:00:00"),
                                origin: ICalendarOrigin(sequence: 2))
        try store.save(weekly)
        try store.save(once)
        try store.save(reminder)
        var occurrence = try store.occurrence(of: weekly.identifier, originalStart: try StoreFixture.time("2026-12-08T10:00:00"))
        occurrence.title = "Weekly, moved"
        let detached = try store.save(occurrence, span: .thisEvent)

        let all = try store.items(of: calendar)
        #expect(all.events.map(\.event) == [weekly, once])
        #expect(all.events.first?.detached.map(\.identifier) == [detached])
        #expect(all.events.first?.detached.first?.alarms.first?.unmodelled == "UID:a1\r\n")
        #expect(all.reminders == [reminder])
        // 2026-12-07 .. 2026-12-14 (Shanghai): the series (by its detached occurrence) and the reminder.
        let week = try StoreFixture.date("2026-12-07T00:00:00+08:00")..<StoreFixture.date("2026-12-14T00:00:00+08:00")
        let inWeek = try store.items(of: calendar, overlapping: week)
        #expect(inWeek.events.map(\.event.title) == ["Weekly"] && inWeek.reminders.map(\.title) == ["Pay"])
        // 2027-01: nothing of the series (it ended), not the reminder.
        let january = try StoreFixture.date("2027-01-01T00:00:00+08:00")..<StoreFixture.date("2027-02-01T00:00:00+08:00")
        #expect(try store.items(of: calendar, overlapping: january) == CalendarItems())
        #expect(throws: StoreError.self) { try store.items(of: .random()) }
    }
}
