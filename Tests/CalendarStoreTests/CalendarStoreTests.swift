import CalendarModel
import CalendarStore
import Foundation
import Glibc
import TestSupport
import Testing

@Suite("Calendar store on a real SQLite file")
struct CalendarStoreTests {
    @Test("a new store is private: folder 0700, file 0600, with one default calendar for events and reminders")
    func newStoreIsPrivate() throws {
        let fixture = try StoreFixture()
        #expect(AccessStatus.of(path: fixture.path) == .notDetermined)
        let store = try fixture.open()
        var info = stat()
        #expect(stat(fixture.path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(stat(fixture.folder + "/data", &info) == 0 && info.st_mode & 0o777 == 0o700)
        #expect(AccessStatus.of(path: fixture.path) == .authorized)
        let calendars = try store.calendars()
        #expect(calendars.map(\.title) == [CalendarStore.defaultCalendarTitle])
        #expect(try store.defaultCalendarForNewEvents() == calendars[0])
        #expect(try store.defaultCalendarForNewReminders() == calendars[0])
    }

    @Test("a new store starts with the default calendar it is given, for events and reminders; an existing store keeps its own")
    func givenDefaultCalendar() throws {
        let fixture = try StoreFixture()
        let planned = ItemCalendar(identifier: ItemIdentifier("00000000000000000000000000000abc")!, title: "Personal")
        let store = try CalendarStore(path: fixture.path, machineTimeZone: .utc, defaultCalendar: planned)
        #expect(try store.calendars().map(\.identifier) == [planned.identifier])
        #expect(try store.defaultCalendarForNewEvents().identifier == planned.identifier)
        #expect(try store.defaultCalendarForNewReminders().identifier == planned.identifier)
        let other = ItemCalendar(identifier: ItemIdentifier("00000000000000000000000000000def")!, title: "Elsewhere")
        let again = try CalendarStore(path: fixture.path, machineTimeZone: .utc, defaultCalendar: other)
        #expect(try again.calendars().map(\.identifier) == [planned.identifier])
    }

    @Test("calendars are added, renamed and refused when the title is taken")
    func calendars() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        var work = ItemCalendar(title: "Work", color: "#FF0000")
        try store.save(work)
        work.title = "Office"
        try store.save(work)
        #expect(try store.calendar(named: "office").identifier == work.identifier)
        #expect(throws: StoreError.self) { try store.save(ItemCalendar(title: "OFFICE")) }
        #expect(try store.calendars().map(\.title) == ["Office", "Personal"])
    }

    @Test("removing a calendar that holds items needs confirmation, and takes its items with it")
    func removeCalendarWithItems() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let work = ItemCalendar(title: "Work")
        try store.save(work)
        let event = Event(calendarIdentifier: work.identifier, title: "Review",
                          start: try StoreFixture.zoned("2026-12-01T10:00:00"), end: try StoreFixture.zoned("2026-12-01T11:00:00"))
        try store.save(event)
        #expect(throws: StoreError.self) { try store.removeCalendar(work.identifier) }
        #expect(try store.event(identifier: event.identifier).title == "Review")
        try store.removeCalendar(work.identifier, removingItems: true)
        #expect(throws: StoreError.self) { try store.event(identifier: event.identifier) }
        let week = try StoreFixture.date("2026-11-30T00:00:00+08:00")..<StoreFixture.date("2026-12-07T00:00:00+08:00")
        #expect(try store.events(overlapping: week).isEmpty)
    }

    @Test("a read-only calendar refuses writes with an error naming it")
    func readOnlyCalendar() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let holidays = ItemCalendar(title: "Holidays", kind: .subscribed(url: "https://example.org/h.ics"), allowsContentModifications: false)
        try store.save(holidays)
        let event = Event(calendarIdentifier: holidays.identifier, title: "New Year",
                          start: .date(CivilDate(year: 2027, month: 1, day: 1)!), end: .date(CivilDate(year: 2027, month: 1, day: 1)!))
        let error = #expect(throws: StoreError.self) { try store.save(event) }
        #expect(error?.description.contains("Holidays") == true)
    }

    @Test("an event round-trips with every field, alarms included")
    func eventRoundTrip() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let calendar = try store.defaultCalendarForNewEvents()
        let office = try StructuredLocation(title: "Office", latitude: 31.2304, longitude: 121.4737, radius: 150)
        let event = Event(calendarIdentifier: calendar.identifier, title: "Planning & review <Q4>", location: "Room 5",
                          notes: "Bring the numbers", url: "https://example.org/q4",
                          start: try StoreFixture.zoned("2026-12-01T10:00:00"), end: try StoreFixture.zoned("2026-12-01T11:30:00"),
                          recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=WEEKLY;COUNT=4"),
                          exceptionDates: [try StoreFixture.time("2026-12-08T10:00:00")],
                          alarms: [.relative(seconds: -600), .absolute(Date(timeIntervalSince1970: 1_796_000_000)),
                                   .proximity(office, .leave)],
                          externalKey: "q4-planning")
        try store.save(event)
        #expect(try store.event(identifier: event.identifier) == event)
        #expect(try store.event(externalKey: "q4-planning", calendar: calendar.identifier) == event)
    }

    @Test("saving again updates in place (alarms replaced, created kept); an event under a reminder's identifier is refused and changes nothing")
    func saveAgainAndClash() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let calendar = try store.defaultCalendarForNewEvents()
        var event = Event(calendarIdentifier: calendar.identifier, title: "Review",
                          start: try StoreFixture.zoned("2026-12-01T10:00:00"), end: try StoreFixture.zoned("2026-12-01T11:00:00"),
                          alarms: [.relative(seconds: -600), .relative(seconds: -60)])
        try store.save(event)
        event.title = "Review, moved"
        event.alarms = [.relative(seconds: -300)]
        try store.save(event)
        #expect(try store.event(identifier: event.identifier) == event)
        // In one batch: saved, then saved again with other alarms.
        var batched = Event(calendarIdentifier: calendar.identifier, title: "Batched",
                            start: try StoreFixture.zoned("2026-12-02T10:00:00"), end: try StoreFixture.zoned("2026-12-02T11:00:00"),
                            alarms: [.relative(seconds: 0)])
        try store.save(batched, commit: false)
        batched.alarms = [.relative(seconds: -900), .relative(seconds: -1800)]
        try store.save(batched, commit: false)
        try store.commit()
        #expect(try store.event(identifier: batched.identifier) == batched)

        let reminder = Reminder(calendarIdentifier: try store.defaultCalendarForNewReminders().identifier, title: "Pay rent")
        try store.save(reminder)
        let counter = try store.changeCounter()
        var impostor = event
        impostor.identifier = reminder.identifier
        #expect(throws: StoreError.self) { try store.save(impostor) }
        #expect(try store.changeCounter() == counter)
        #expect(try store.reminder(identifier: reminder.identifier) == reminder)
    }

    @Test("saving a new item with a key already used adopts that item, so scripts can save twice")
    func externalKeyIsIdempotent() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let calendar = try store.defaultCalendarForNewEvents()
        func make(_ title: String) throws -> Event {
            Event(calendarIdentifier: calendar.identifier, title: title, start: try StoreFixture.zoned("2026-12-01T10:00:00"),
                  end: try StoreFixture.zoned("2026-12-01T11:00:00"), externalKey: "sync-42")
        }
        let first = try make("First")
        try store.save(first)
        try store.save(try make("Second"))
        let day = try StoreFixture.date("2026-12-01T00:00:00+08:00")..<StoreFixture.date("2026-12-02T00:00:00+08:00")
        let found = try store.events(overlapping: day)
        #expect(found.map(\.title) == ["Second"])
        #expect(found.first?.identifier == first.identifier)
        // An existing item may not take another's key.
        var other = Event(calendarIdentifier: calendar.identifier, title: "Other", start: try StoreFixture.zoned("2026-12-02T10:00:00"),
                          end: try StoreFixture.zoned("2026-12-02T11:00:00"))
        try store.save(other)
        other.externalKey = "sync-42"
        #expect(throws: StoreError.self) { try store.save(other) }
    }

    @Test("an event whose end is before its start, or in an unknown zone, is refused and nothing is written")
    func badEventsWriteNothing() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let calendar = try store.defaultCalendarForNewEvents()
        let before = try store.changeCounter()
        let backwards = Event(calendarIdentifier: calendar.identifier, title: "Backwards",
                              start: try StoreFixture.zoned("2026-12-01T10:00:00"), end: try StoreFixture.zoned("2026-12-01T09:00:00"))
        #expect(throws: StoreError.self) { try store.save(backwards) }
        let nowhere = Event(calendarIdentifier: calendar.identifier, title: "Nowhere",
                            start: try StoreFixture.zoned("2026-12-01T10:00:00", "Mars/Olympus"),
                            end: try StoreFixture.zoned("2026-12-01T11:00:00", "Mars/Olympus"))
        #expect(throws: StoreError.self) { try store.save(nowhere) }
        #expect(try store.changeCounter() == before)
    }

    @Test("a week's query expands a recurring event, applies exceptions and detached occurrences, and sorts by start")
    func weekQuery() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let calendar = try store.defaultCalendarForNewEvents()
        let standup = Event(calendarIdentifier: calendar.identifier, title: "Stand-up",
                            start: try StoreFixture.zoned("2026-11-02T09:00:00"), end: try StoreFixture.zoned("2026-11-02T09:15:00"),
                            recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"),
                            exceptionDates: [try StoreFixture.time("2026-12-02T09:00:00")], externalKey: "standup")
        try store.save(standup)
        let lunch = Event(calendarIdentifier: calendar.identifier, title: "Lunch",
                          start: try StoreFixture.zoned("2026-12-01T12:00:00"), end: try StoreFixture.zoned("2026-12-01T13:00:00"))
        try store.save(lunch)
        var moved = try store.occurrence(of: standup.identifier, originalStart: try StoreFixture.time("2026-12-03T09:00:00"))
        moved.start = try StoreFixture.zoned("2026-12-03T10:00:00")
        moved.end = try StoreFixture.zoned("2026-12-03T10:15:00")
        moved.title = "Stand-up (late)"
        try store.save(moved, span: .thisEvent)

        let week = try StoreFixture.date("2026-11-30T00:00:00+08:00")..<StoreFixture.date("2026-12-07T00:00:00+08:00")
        let found = try store.events(overlapping: week)
        #expect(found.map { "\($0.start) \($0.title)" } == [
            "2026-11-30T09:00:00 Asia/Shanghai Stand-up",
            "2026-12-01T09:00:00 Asia/Shanghai Stand-up",
            "2026-12-01T12:00:00 Asia/Shanghai Lunch",
            "2026-12-03T10:00:00 Asia/Shanghai Stand-up (late)",
            "2026-12-04T09:00:00 Asia/Shanghai Stand-up",
        ])
        #expect(found[0].seriesIdentifier == standup.identifier)
        #expect(found[0].originalStart == (try StoreFixture.time("2026-11-30T09:00:00")))
        #expect(found[3].originalStart == (try StoreFixture.time("2026-12-03T09:00:00")))
    }

    @Test("removing one occurrence adds an exception; removing this and future ones ends the series before it")
    func removeWithSpans() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let calendar = try store.defaultCalendarForNewEvents()
        let daily = Event(calendarIdentifier: calendar.identifier, title: "Walk",
                          start: try StoreFixture.zoned("2026-12-01T07:00:00"), end: try StoreFixture.zoned("2026-12-01T07:30:00"),
                          recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=DAILY"))
        try store.save(daily)
        try store.remove(try store.occurrence(of: daily.identifier, originalStart: try StoreFixture.time("2026-12-02T07:00:00")), span: .thisEvent)
        try store.remove(try store.occurrence(of: daily.identifier, originalStart: try StoreFixture.time("2026-12-05T07:00:00")), span: .futureEvents)
        let range = try StoreFixture.date("2026-12-01T00:00:00+08:00")..<StoreFixture.date("2026-12-10T00:00:00+08:00")
        #expect(try store.events(overlapping: range).map(\.start.wallClock.date.day) == [1, 3, 4])
    }

    @Test("changing this and future occurrences splits the series there")
    func saveFutureSplits() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let calendar = try store.defaultCalendarForNewEvents()
        let daily = Event(calendarIdentifier: calendar.identifier, title: "Walk",
                          start: try StoreFixture.zoned("2026-12-01T07:00:00"), end: try StoreFixture.zoned("2026-12-01T07:30:00"),
                          recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=DAILY;COUNT=6"))
        try store.save(daily)
        var later = try store.occurrence(of: daily.identifier, originalStart: try StoreFixture.time("2026-12-04T07:00:00"))
        later.title = "Run"
        later.start = try StoreFixture.zoned("2026-12-04T06:30:00")
        later.end = try StoreFixture.zoned("2026-12-04T07:00:00")
        try store.save(later, span: .futureEvents)
        let range = try StoreFixture.date("2026-11-30T00:00:00+08:00")..<StoreFixture.date("2026-12-31T00:00:00+08:00")
        #expect(try store.events(overlapping: range).map { "\($0.start.wallClock) \($0.title)" } == [
            "2026-12-01T07:00:00 Walk", "2026-12-02T07:00:00 Walk", "2026-12-03T07:00:00 Walk",
            "2026-12-04T06:30:00 Run", "2026-12-05T06:30:00 Run", "2026-12-06T06:30:00 Run",
        ])
    }

    @Test("batched changes are invisible until commit, and reset discards them")
    func batching() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let calendar = try store.defaultCalendarForNewReminders()
        let before = try store.changeCounter()
        try store.save(Reminder(calendarIdentifier: calendar.identifier, title: "One"), commit: false)
        try store.save(Reminder(calendarIdentifier: calendar.identifier, title: "Two"), commit: false)
        #expect(store.hasUncommittedChanges)
        #expect(try store.reminders(.all).isEmpty)
        store.reset()
        #expect(!store.hasUncommittedChanges)
        try store.commit()
        #expect(try store.reminders(.all).isEmpty)
        try store.save(Reminder(calendarIdentifier: calendar.identifier, title: "Three"), commit: false)
        try store.save(Reminder(calendarIdentifier: calendar.identifier, title: "Four"), commit: false)
        try store.commit()
        #expect(Set(try store.reminders(.all).map(\.title)) == ["Three", "Four"])
        #expect(try store.changeCounter() == before + 2)
        // Another connection sees the counter move.
        #expect(try fixture.open().changeCounter() == before + 2)
    }

    @Test("completing a recurring reminder keeps a completed copy and moves the series to its next due time")
    func completeRecurringReminder() throws {
        let fixture = try StoreFixture()
        let completedAt = try StoreFixture.date("2026-12-01T08:55:00+08:00")
        let store = try fixture.open(now: { completedAt })
        let calendar = try store.defaultCalendarForNewReminders()
        let clockIn = Reminder(calendarIdentifier: calendar.identifier, title: "Clock in",
                               due: try StoreFixture.zoned("2026-12-01T08:50:00"),
                               recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"))
        try store.save(clockIn)
        try store.complete(clockIn.identifier)
        let series = try store.reminder(identifier: clockIn.identifier)
        #expect(series.due == (try StoreFixture.zoned("2026-12-02T08:50:00")))
        #expect(!series.isCompleted)
        let done = try store.reminders(.completed(from: nil, to: nil))
        #expect(done.count == 1)
        #expect(done.first?.due == (try StoreFixture.zoned("2026-12-01T08:50:00")))
        #expect(done.first?.completionDate == completedAt)
        #expect(done.first?.recurrenceRule == nil)
    }

    @Test("completing an occurrence of a repeating reminder takes its fixed-time alarms at or before it to the done copy; later ones and offsets stay")
    func completeTakesFixedAlarms() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open(now: { try! StoreFixture.date("2026-12-07T12:00:00+08:00") })
        let calendar = try store.defaultCalendarForNewReminders()
        let before = Alarm(trigger: .absolute(try StoreFixture.date("2026-12-08T19:00:00+08:00")))
        let later = Alarm(trigger: .absolute(try StoreFixture.date("2026-12-14T19:00:00+08:00")))
        let offset = Alarm(trigger: .relative(seconds: -3600))
        let bins = Reminder(calendarIdentifier: calendar.identifier, title: "Bins", due: try StoreFixture.zoned("2026-12-08T20:00:00"),
                            recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=WEEKLY"), alarms: [before, later, offset])
        try store.save(bins)
        // Completed a day early: the occurrence due Tuesday 2026-12-08 20:00 is done.
        try store.complete(bins.identifier)
        let series = try store.reminder(identifier: bins.identifier)
        #expect(series.due == (try StoreFixture.zoned("2026-12-15T20:00:00")))
        #expect(series.alarms.map(\.trigger) == [later.trigger, offset.trigger])
        let done = try #require(try store.reminders(.completed(from: nil, to: nil)).first)
        #expect(done.alarms.map(\.trigger) == [before.trigger, later.trigger, offset.trigger])
    }

    @Test("reminder queries: incomplete by due range with open bounds, completed by completion date")
    func reminderQueries() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open(now: { Date(timeIntervalSince1970: 1_796_000_000) })
        let calendar = try store.defaultCalendarForNewReminders()
        for (title, due) in [("Early", "2026-12-01T09:00:00"), ("Middle", "2026-12-05T09:00:00"), ("Late", "2026-12-20T09:00:00")] {
            try store.save(Reminder(calendarIdentifier: calendar.identifier, title: title, due: try StoreFixture.zoned(due)))
        }
        try store.save(Reminder(calendarIdentifier: calendar.identifier, title: "Someday"))
        let middle = try store.reminders(.incomplete(dueFrom: nil, dueTo: nil)).first { $0.title == "Middle" }!
        try store.complete(middle.identifier)
        let from = try StoreFixture.date("2026-12-01T09:00:00+08:00"), to = try StoreFixture.date("2026-12-20T09:00:00+08:00")
        #expect(try store.reminders(.incomplete(dueFrom: from, dueTo: to)).map(\.title) == ["Early"])
        #expect(try store.reminders(.incomplete(dueFrom: from, dueTo: nil)).map(\.title) == ["Early", "Late"])
        #expect(try store.reminders(.incomplete(dueFrom: nil, dueTo: nil)).map(\.title) == ["Early", "Late", "Someday"])
        #expect(try store.reminders(.completed(from: Date(timeIntervalSince1970: 1_795_999_999), to: nil)).map(\.title) == ["Middle"])
        #expect(try store.reminders(.completed(from: nil, to: Date(timeIntervalSince1970: 1_796_000_000))).isEmpty)
    }

    @Test("an identifier may be abbreviated to a unique prefix")
    func prefixes() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let calendar = try store.defaultCalendarForNewReminders()
        let one = Reminder(identifier: ItemIdentifier("aaaa1000000000000000000000000000")!, calendarIdentifier: calendar.identifier, title: "1")
        let two = Reminder(identifier: ItemIdentifier("aaaa2000000000000000000000000000")!, calendarIdentifier: calendar.identifier, title: "2")
        try store.save(one)
        try store.save(two)
        #expect(try store.itemIdentifier(matching: "AAAA1") == one.identifier)
        #expect(try store.itemIdentifier(matching: "aaaa2000000000000000000000000000") == two.identifier)
        #expect(throws: StoreError.self) { try store.itemIdentifier(matching: "aaaa") }
        #expect(throws: StoreError.self) { try store.itemIdentifier(matching: "bbbb") }
    }

    @Test("detaching or splitting a series with alarms gives the new item alarms of its own, and save names it")
    func alarmsOnDetachAndSplit() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let calendar = try store.defaultCalendarForNewEvents()
        let daily = Event(calendarIdentifier: calendar.identifier, title: "Walk",
                          start: try StoreFixture.zoned("2026-12-01T07:00:00"), end: try StoreFixture.zoned("2026-12-01T07:30:00"),
                          recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=DAILY"), alarms: [.relative(seconds: -600)])
        try store.save(daily)
        var moved = try store.occurrence(of: daily.identifier, originalStart: try StoreFixture.time("2026-12-02T07:00:00"))
        moved.title = "Late walk"
        let detached = try store.save(moved, span: .thisEvent)
        #expect(detached != daily.identifier)
        #expect(try store.event(identifier: detached).alarms.map(\.trigger) == [.relative(seconds: -600)])
        var later = try store.occurrence(of: daily.identifier, originalStart: try StoreFixture.time("2026-12-05T07:00:00"))
        later.title = "Run"
        let split = try store.save(later, span: .futureEvents)
        #expect(split != daily.identifier)
        #expect(try store.event(identifier: split).title == "Run")
        #expect(try store.event(identifier: split).alarms.map(\.trigger) == [.relative(seconds: -600)])
        #expect(try store.event(identifier: daily.identifier).alarms.map(\.trigger) == [.relative(seconds: -600)])
    }

    @Test("an external key held by a reminder is refused for an event in the same calendar")
    func keysDoNotCrossTypes() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let calendar = try store.defaultCalendarForNewEvents()
        try store.save(Reminder(calendarIdentifier: calendar.identifier, title: "Milk", externalKey: "k1"))
        let event = Event(calendarIdentifier: calendar.identifier, title: "Meeting", start: try StoreFixture.zoned("2026-12-01T10:00:00"),
                          end: try StoreFixture.zoned("2026-12-01T11:00:00"), externalKey: "k1")
        #expect(throws: StoreError.self) { try store.save(event) }
        #expect(try store.reminders(.all).map(\.title) == ["Milk"])
    }

    @Test("completing a reminder with COUNT uses one occurrence up, and the last completes the series")
    func completeCountedReminder() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open(now: { Date(timeIntervalSince1970: 1_796_000_000) })
        let calendar = try store.defaultCalendarForNewReminders()
        let pills = Reminder(calendarIdentifier: calendar.identifier, title: "Pills", due: try StoreFixture.zoned("2026-12-01T08:00:00"),
                             recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=DAILY;COUNT=2"))
        try store.save(pills)
        try store.complete(pills.identifier)
        let second = try store.reminder(identifier: pills.identifier)
        #expect(second.due == (try StoreFixture.zoned("2026-12-02T08:00:00")))
        #expect(second.recurrenceRule?.count == 1)
        #expect(!second.isCompleted)
        try store.complete(pills.identifier)
        let done = try store.reminder(identifier: pills.identifier)
        #expect(done.isCompleted)
        #expect(done.due == (try StoreFixture.zoned("2026-12-02T08:00:00")))
        #expect(try store.reminders(.completed(from: nil, to: nil)).count == 2)
    }

    @Test("the default calendars for new events and reminders can be chosen apart")
    func defaultCalendars() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let personal = try store.defaultCalendarForNewEvents()
        let work = ItemCalendar(title: "Work")
        try store.save(work)
        try store.setDefaultCalendar(work.identifier, forEvents: true, forReminders: false)
        #expect(try store.defaultCalendarForNewEvents() == work)
        #expect(try store.defaultCalendarForNewReminders() == personal)
    }

    @Test("enumerating events stops when the body sets the flag")
    func enumerationStops() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let calendar = try store.defaultCalendarForNewEvents()
        try store.save(Event(calendarIdentifier: calendar.identifier, title: "Daily",
                             start: try StoreFixture.zoned("2026-12-01T07:00:00"), end: try StoreFixture.zoned("2026-12-01T07:30:00"),
                             recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=DAILY")))
        let month = try StoreFixture.date("2026-12-01T00:00:00+08:00")..<StoreFixture.date("2027-01-01T00:00:00+08:00")
        var seen = 0
        try store.enumerateEvents(overlapping: month) { _, stop in
            seen += 1
            if seen == 3 { stop = true }
        }
        #expect(seen == 3)
        #expect(try store.events(overlapping: month).count == 31)
    }
}
