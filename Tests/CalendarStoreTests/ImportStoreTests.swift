import CalendarModel
import CalendarStore
import Dispatch
import Foundation
import SQLiteDatabase
import Synchronization
import TestSupport
import Testing

/// What an iCalendar reader makes of a small feed: fresh identifiers on
/// every parse, the UID as the external key, the origin set.
private func feed(_ calendar: ItemIdentifier, sequence: Int = 0, lastModified: Int64? = nil, title: String = "Stand-up",
                  overrides: [String] = ["2026-12-02T09:00:00"], reminder: Bool = true) throws -> CalendarItems {
    let series = Event(calendarIdentifier: calendar, title: title, start: try StoreFixture.zoned("2026-12-01T09:00:00"),
                       end: try StoreFixture.zoned("2026-12-01T09:15:00"), recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=DAILY;COUNT=10"),
                       alarms: [.relative(seconds: -300)], externalKey: "standup@example.org",
                       origin: ICalendarOrigin(sequence: sequence, lastModified: lastModified, unmodelled: "ORGANIZER:mailto:a@example.org\r\n"))
    var events = [series]
    for original in overrides {
        let start = try StoreFixture.time(original)
        events.append(Event(calendarIdentifier: calendar, title: "\(title) (moved)",
                            start: .zoned(LocalDateTime(localSeconds: start.localSeconds + 3600), zone: "Asia/Shanghai"),
                            end: .zoned(LocalDateTime(localSeconds: start.localSeconds + 4500), zone: "Asia/Shanghai"),
                            origin: ICalendarOrigin(sequence: sequence), seriesIdentifier: series.identifier, originalStart: start))
    }
    let reminders = reminder ? [Reminder(calendarIdentifier: calendar, title: "Send notes", due: try StoreFixture.zoned("2026-12-03T17:00:00"),
                                         externalKey: "notes@example.org", origin: ICalendarOrigin(sequence: sequence))] : []
    return try CalendarItems(events: events, reminders: reminders)
}

private func walSize(_ fixture: StoreFixture) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: fixture.path + "-wal"))?[.size] as? Int) ?? -1
}

@Suite("Importing iCalendar items by UID")
struct ImportStoreTests {
    @Test("an import adds a series with its detached occurrence and a reminder, origins kept, into the calendar given")
    func addsItems() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let calendar = try store.defaultCalendarForNewEvents().identifier
        let report = try store.importItems(try feed(ItemIdentifier.random()), into: calendar)
        #expect(report.added == 2 && report.updated == 0 && report.changedStore)
        let stored = try store.items(of: calendar)
        let series = try #require(stored.events.first)
        #expect(series.event.calendarIdentifier == calendar)
        #expect(series.event.origin == ICalendarOrigin(sequence: 0, unmodelled: "ORGANIZER:mailto:a@example.org\r\n"))
        #expect(series.detached.map(\.seriesIdentifier) == [series.event.identifier])
        #expect(series.detached.first?.start == (try StoreFixture.zoned("2026-12-02T10:00:00")))
        #expect(stored.reminders.map(\.externalKey) == ["notes@example.org"])
    }

    @Test("importing the same file again writes nothing: every item unchanged, the change counter, the change log and the WAL as they were")
    func reimportChangesNothing() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let calendar = try store.defaultCalendarForNewEvents().identifier
        try store.importItems(try feed(calendar), into: calendar)
        let before = try store.items(of: calendar)
        let counter = try store.changeCounter(), mark = try store.itemChangeMark(), wal = walSize(fixture)
        let report = try store.importItems(try feed(calendar), into: calendar)
        #expect(report.unchanged == 2 && !report.changedStore)
        #expect(try store.changeCounter() == counter)
        #expect(try store.itemChangeMark() == mark)
        #expect(walSize(fixture) == wal)
        #expect(try store.items(of: calendar) == before)
    }

    @Test("UIDs with quotes, backslashes and control characters are looked up again: a second import of them finds them unchanged")
    func reimportOfUIDsThatNeedEscaping() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let calendar = try store.defaultCalendarForNewEvents().identifier
        let keys = ["a\"b@example.org", "back\\slash@example.org", "tab\tand\u{1}control@example.org"]
        func batch() throws -> CalendarItems {
            try CalendarItems(events: keys.map { key in
                Event(calendarIdentifier: calendar, title: key, start: try StoreFixture.zoned("2026-12-01T09:00:00"),
                      end: try StoreFixture.zoned("2026-12-01T09:15:00"), externalKey: key, origin: ICalendarOrigin(sequence: 0))
            })
        }
        #expect(try store.importItems(try batch(), into: calendar).added == 3)
        let report = try store.importItems(try batch(), into: calendar)
        #expect(report.unchanged == 3 && !report.changedStore)
        #expect(Set(try store.items(of: calendar).events.map(\.event.externalKey)) == Set(keys))
    }

    @Test("a JSON array for json_each reads back as the texts and identifiers it was made of, whatever bytes they hold")
    func jsonArraysReadBack() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        // U+0000 aside, which SQLite's JSON text ends at (and the reader never lets into a value: it becomes U+FFFD).
        let texts = ["", "plain", "quote \" in", "back \\ slash", "\u{1}\n\r\t\u{1F}", "\u{7F}é周会🎉", "\\\"", "[\"]"]
        let read: [String] = try store.database.query("SELECT value FROM json_each(?) ORDER BY key", [CalendarStore.jsonArray(texts)]).map { try $0.value(0) }
        #expect(read == texts)
        let identifiers = (0..<5).map { _ in ItemIdentifier.random() } + [ItemIdentifier(high: 0, low: .max)]
        let listed: [String] = try store.database.query("SELECT value FROM json_each(?) ORDER BY key", [CalendarStore.jsonArray(identifiers)])
            .map { try $0.value(0) }
        #expect(listed == identifiers.map(\.rawValue))
        #expect(CalendarStore.jsonArray([ItemIdentifier]()) == "[]" && CalendarStore.jsonArray([String]()) == "[]")
    }

    @Test("a higher SEQUENCE replaces the item under its identifier, alarms and detached occurrences keeping theirs; a lower one is ignored")
    func sequenceDecides() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let calendar = try store.defaultCalendarForNewEvents().identifier
        try store.importItems(try feed(calendar, sequence: 1), into: calendar)
        let before = try #require(try store.items(of: calendar).events.first)
        let report = try store.importItems(try feed(calendar, sequence: 2, title: "Daily"), into: calendar)
        #expect(report.updated == 2)
        let after = try #require(try store.items(of: calendar).events.first)
        #expect(after.event.title == "Daily" && after.event.origin?.sequence == 2)
        #expect(after.event.identifier == before.event.identifier)
        #expect(after.event.alarms.map(\.identifier) == before.event.alarms.map(\.identifier))
        #expect(after.detached.map(\.identifier) == before.detached.map(\.identifier))
        let counter = try store.changeCounter()
        let older = try store.importItems(try feed(calendar, sequence: 1, title: "Old"), into: calendar)
        #expect(older.keptNewer == 2 && !older.changedStore)
        #expect(try store.changeCounter() == counter)
        #expect(try store.event(identifier: after.event.identifier).title == "Daily")
    }

    @Test("with equal SEQUENCEs a later LAST-MODIFIED wins and an earlier one loses; with neither, a copy that differs wins")
    func lastModifiedThenContent() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let calendar = try store.defaultCalendarForNewEvents().identifier
        try store.importItems(try feed(calendar, lastModified: 1_796_000_000, reminder: false), into: calendar)  // 2026-11-30T01:33:20Z
        #expect(try store.importItems(try feed(calendar, lastModified: 1_795_000_000, title: "Earlier", reminder: false), into: calendar)
            .keptNewer == 1)
        #expect(try store.importItems(try feed(calendar, lastModified: 1_797_000_000, title: "Later", reminder: false), into: calendar)
            .updated == 1)
        try store.save(ItemCalendar(title: "Plain"))
        let plain = try store.calendar(named: "Plain").identifier
        try store.importItems(try feed(plain, reminder: false), into: plain)
        #expect(try store.importItems(try feed(plain, title: "Renamed", reminder: false), into: plain).updated == 1)
        #expect(try store.items(of: plain).events.first?.event.title == "Renamed")
    }

    @Test("a series is replaced with its detached occurrences: one the feed dropped goes, one it kept keeps its identifier")
    func detachedReplacedTogether() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let calendar = try store.defaultCalendarForNewEvents().identifier
        try store.importItems(try feed(calendar, overrides: ["2026-12-02T09:00:00", "2026-12-04T09:00:00"]), into: calendar)
        let before = try #require(try store.items(of: calendar).events.first)
        #expect(before.detached.count == 2)
        try store.importItems(try feed(calendar, sequence: 1, overrides: ["2026-12-04T09:00:00"]), into: calendar)
        let after = try #require(try store.items(of: calendar).events.first)
        #expect(after.detached.map(\.identifier) == [before.detached[1].identifier])
        // The dropped override's day shows the series' own occurrence again.
        let day = try StoreFixture.date("2026-12-02T00:00:00+08:00")..<StoreFixture.date("2026-12-03T00:00:00+08:00")
        #expect(try store.events(overlapping: day).map(\.start) == [try StoreFixture.zoned("2026-12-02T09:00:00")])
    }

    @Test("a refresh with removingMissing removes the items whose UID left the feed, with their detached occurrences")
    func removingMissing() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let calendar = try store.defaultCalendarForNewEvents().identifier
        try store.importItems(try feed(calendar), into: calendar)
        let onlyReminder = CalendarItems(reminders: try feed(calendar).reminders)
        let report = try store.importItems(onlyReminder, into: calendar, removingMissing: true)
        #expect(report.removed == 1 && report.unchanged == 1)
        #expect(try store.items(of: calendar).events.isEmpty)
        #expect(try store.summary().events == 0)
    }

    @Test("a batch with one bad item fails whole, naming its UID, and writes nothing")
    func allOrNothing() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let calendar = try store.defaultCalendarForNewEvents().identifier
        var items = try feed(calendar)
        items.reminders.append(Reminder(calendarIdentifier: calendar, title: "Bad", priority: 12, externalKey: "bad@example.org"))
        let counter = try store.changeCounter()
        let error = #expect(throws: StoreError.self) { try store.importItems(items, into: calendar) }
        #expect(error?.description.contains("bad@example.org") == true)
        #expect(try store.changeCounter() == counter)
        #expect(try store.items(of: calendar) == CalendarItems())
        let keyless = CalendarItems(reminders: [Reminder(calendarIdentifier: calendar, title: "No UID")])
        #expect(throws: StoreError.self) { try store.importItems(keyless, into: calendar) }
    }

    @Test("a batch prepared on a read-only store of the same file, on another thread, imports as the batch itself would, and again as unchanged; its failure to prepare is thrown on import, after the calendar's refusal")
    func preparedElsewhere() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let calendar = try store.defaultCalendarForNewEvents().identifier
        let preparer = try CalendarStore(path: fixture.path, readOnly: true, creating: false, machineTimeZone: fixture.zone)
        let items = try feed(calendar)
        let prepared = Thread.detachedResult { preparer.prepareImport(items, into: calendar) }
        let report = try store.importItems(prepared, lookup: .calendar)
        #expect(report.added == 2 && report.changedStore)
        let other = try StoreFixture()
        let direct = try other.open()
        let directCalendar = try direct.defaultCalendarForNewEvents().identifier
        try direct.importItems(try feed(directCalendar), into: directCalendar)
        let written = try store.items(of: calendar), expected = try direct.items(of: directCalendar)
        #expect(written.events.map(\.event.title) == expected.events.map(\.event.title))
        #expect(written.events.map { $0.detached.map(\.start) } == expected.events.map { $0.detached.map(\.start) })
        #expect(written.reminders.map(\.externalKey) == expected.reminders.map(\.externalKey))
        // The rows rendered on the preparing thread are the rows the batch itself writes, column for column.
        #expect(try Self.rows(fixture.path) == Self.rows(other.path))
        #expect(try Self.rows(fixture.path).count == 4)
        let again = try store.importItems(preparer.prepareImport(try feed(calendar), into: calendar))
        #expect(again.unchanged == 2 && !again.changedStore)

        var bad = try feed(calendar)
        bad.reminders.append(Reminder(calendarIdentifier: calendar, title: "Bad", priority: 12, externalKey: "bad@example.org"))
        let counter = try store.changeCounter()
        let failed = preparer.prepareImport(bad, into: calendar)
        let error = #expect(throws: StoreError.self) { try store.importItems(failed) }
        #expect(error?.description.contains("bad@example.org") == true)
        #expect(try store.changeCounter() == counter)
        let archive = ItemCalendar(title: "Archive", allowsContentModifications: false)
        try store.save(archive)
        let refused = #expect(throws: StoreError.self) { try store.importItems(preparer.prepareImport(bad, into: archive.identifier)) }
        #expect(refused?.description == "calendar 'Archive' is read-only")
    }

    /// Every column of every item and alarm but those that name rows
    /// (identifiers) or times of writing, in a fixed order: what two
    /// stores given the same items must agree on.
    static func rows(_ path: String) throws -> [String] {
        let database = try Database(path: path)
        func lines(_ sql: String, leaving: Set<String>) throws -> [String] {
            try database.query(sql).map { row in
                try row.columnNames.enumerated().filter { !leaving.contains($0.element) }.map { index, name in
                    "\(name)=\(try row.value(index, as: DatabaseValue.self))"
                }.joined(separator: " ")
            }.sorted()
        }
        return try lines("SELECT items.*, series.external_key AS series_key FROM items LEFT JOIN items AS series ON series.id = items.series_id",
                         leaving: ["id", "calendar_id", "series_id", "created_at", "modified_at"])
            + lines("SELECT alarms.*, items.title AS item_title FROM alarms JOIN items ON items.id = alarms.item_id", leaving: ["id", "item_id"])
    }

    @Test("a store being built cannot be read while its writer holds pages it spilled: a batch that must read it (a workday rule's holidays) fails to prepare as locked, one that need not prepares, and the writer imports both")
    func preparedWhileBuilding() throws {
        let fixture = try StoreFixture()
        let path = URL(fileURLWithPath: fixture.path).deletingLastPathComponent().path + "/built.db"
        let store = try CalendarStore(path: path, machineTimeZone: fixture.zone, building: true)
        let calendar = try store.defaultCalendarForNewEvents().identifier
        let preparer = try CalendarStore(path: path, readOnly: true, creating: false, machineTimeZone: fixture.zone)
        try preparer.database.execute("PRAGMA busy_timeout = 0")
        func events(_ range: Range<Int>, rule: String) throws -> CalendarItems {
            try CalendarItems(events: range.map { index in
                Event(calendarIdentifier: calendar, title: "Stand-up \(index)", notes: String(repeating: "notes ", count: 50),
                      start: try StoreFixture.zoned("2026-12-01T09:00:00"), end: try StoreFixture.zoned("2026-12-01T09:15:00"),
                      recurrenceRule: try RecurrenceRule(rfc5545: rule), externalKey: "standup-\(index)@example.org")
            })
        }
        let workdays = try events(0..<1, rule: "FREQ=DAILY;COUNT=5;X-WORKDAY=SKIP")
        let plain = try events(1..<2, rule: "FREQ=DAILY;COUNT=5")
        try store.importTransaction {
            // Through a page cache of a few pages, enough rows to spill: the writer holds the file from then on.
            try store.database.execute("PRAGMA cache_size = 4")
            try store.importItems(try events(2..<300, rule: "FREQ=WEEKLY;COUNT=4"), into: calendar, lookup: .nothingStored)
            #expect(preparer.prepareImport(workdays, into: calendar).failedOnLock)
            let ready = preparer.prepareImport(plain, into: calendar)
            #expect(!ready.failedOnLock)
            #expect(try store.importItems(ready, lookup: .nothingStored).added == 1)
            #expect(try store.importItems(workdays, into: calendar, lookup: .nothingStored).added == 1)
        }
        #expect(try store.items(of: calendar).events.count == 300)
        #expect(try preparer.items(of: calendar).events.filter { $0.event.recurrenceRule?.workdayRule != nil }.map(\.event.title) == ["Stand-up 0"])
    }

    @Test("a batch prepared elsewhere whose identifiers the store holds is written under new ones, its rows as the batch's own would be")
    func preparedBatchUnderTakenIdentifiers() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let calendar = try store.defaultCalendarForNewEvents().identifier
        let other = ItemCalendar(title: "Other")
        try store.save(other)
        let first = try feed(calendar)
        try store.importItems(first, into: calendar)
        // The same items under other UIDs, into another calendar: the same identifiers, which the store now holds.
        var second = first
        second.events[0].event.externalKey = "standup-copy@example.org"
        second.reminders[0].externalKey = "notes-copy@example.org"
        let preparer = try CalendarStore(path: fixture.path, readOnly: true, creating: false, machineTimeZone: fixture.zone)
        let report = try store.importItems(Thread.detachedResult { preparer.prepareImport(second, into: other.identifier) }, lookup: .nothingStored)
        #expect(report.added == 2)
        let mine = try store.items(of: calendar), theirs = try store.items(of: other.identifier)
        #expect(mine.events.map(\.event.identifier) == [first.events[0].event.identifier])
        #expect(mine.events.first?.detached.map(\.identifier) == first.events[0].detached.map(\.identifier))
        let series = try #require(theirs.events.first)
        #expect(series.event.identifier != first.events[0].event.identifier)
        #expect(series.detached.count == 1 && series.detached.first?.identifier != first.events[0].detached.first?.identifier)
        #expect(series.detached.first?.seriesIdentifier == series.event.identifier)
        #expect(theirs.reminders.map(\.identifier) != mine.reminders.map(\.identifier))
        #expect(series.event.alarms.map(\.trigger) == [.relative(seconds: -300)])
        #expect(series.event.alarms.map(\.identifier) != mine.events.first?.event.alarms.map(\.identifier))
        #expect(try store.items(of: other.identifier).events.first?.event.origin == first.events[0].event.origin)
    }

    @Test("in one import transaction, items whose identifiers an earlier batch used get new ones and nothing is overwritten, whether the store held items when it began or not")
    func identifiersTakenWithinAnImport() throws {
        for heldItems in [false, true] {
            let fixture = try StoreFixture()
            let store = try fixture.open()
            let calendar = try store.defaultCalendarForNewEvents().identifier
            let other = ItemCalendar(title: "Other")
            try store.save(other)
            if heldItems {
                try store.importItems(CalendarItems(reminders: [Reminder(calendarIdentifier: other.identifier, title: "Held",
                                                                           externalKey: "held@example.org")]), into: other.identifier)
            }
            let first = try feed(calendar)
            // The same items, under other UIDs: the same identifiers.
            var second = first
            second.events[0].event.externalKey = "standup-copy@example.org"
            second.reminders[0].externalKey = "notes-copy@example.org"
            try store.importTransaction {
                try store.importItems(first, into: calendar, lookup: .nothingStored)
                try store.importItems(second, into: other.identifier, lookup: .nothingStored)
            }
            let mine = try store.items(of: calendar), theirs = try store.items(of: other.identifier)
            #expect(mine.events.map(\.event.identifier) == [first.events[0].event.identifier], "held items: \(heldItems)")
            #expect(mine.events.first?.detached.map(\.identifier) == first.events[0].detached.map(\.identifier))
            #expect(mine.reminders.map(\.identifier) == [first.reminders[0].identifier])
            #expect(theirs.events.map(\.event.externalKey) == ["standup-copy@example.org"])
            #expect(theirs.events.first?.event.identifier != first.events[0].event.identifier)
            #expect(theirs.events.first?.detached.count == 1)
            #expect(theirs.events.first?.detached.first?.identifier != first.events[0].detached.first?.identifier)
            #expect(theirs.reminders.filter { $0.externalKey == "notes-copy@example.org" }.first?.identifier != first.reminders[0].identifier)
            #expect(theirs.reminders.count == (heldItems ? 2 : 1))
        }
    }

    @Test("a UID given twice keeps the copy with the higher SEQUENCE; a detached occurrence whose series is missing is refused")
    func duplicatesAndOrphans() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let calendar = try store.defaultCalendarForNewEvents().identifier
        let newer = try feed(calendar, sequence: 3, title: "Newer", reminder: false)
        let older = try feed(calendar, sequence: 1, title: "Older", reminder: false)
        let report = try store.importItems(CalendarItems(events: newer.events + older.events), into: calendar)
        #expect(report.added == 1 && report.duplicatesIgnored == 1)
        #expect(try store.items(of: calendar).events.map(\.event.title) == ["Newer"])
        let orphan = try #require(newer.events.first?.detached.first)
        #expect(throws: StoreError.self) { try CalendarItems(events: [orphan]) }
    }

    @Test("a read-only subscribed calendar takes an import only as its refresh; every other write of its items is refused naming it")
    func readOnlySubscribedCalendar() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let feedCalendar = ItemCalendar(title: "Team feed", kind: .subscribed(url: "https://example.org/team.ics"), allowsContentModifications: false)
        try store.save(feedCalendar)
        let calendar = feedCalendar.identifier
        let refused = #expect(throws: StoreError.self) { try store.importItems(try feed(calendar), into: calendar) }
        #expect(refused?.description.contains("Team feed") == true)
        try store.importItems(try feed(calendar), into: calendar, removingMissing: true, asSubscriptionRefresh: true)
        let stored = try store.items(of: calendar)
        let series = try #require(stored.events.first)
        let reminder = try #require(stored.reminders.first)
        var renamed = series.event
        renamed.title = "Mine now"
        let occurrence = try store.occurrence(of: series.event.identifier, originalStart: try StoreFixture.time("2026-12-03T09:00:00"))
        var moved = series.event
        moved.calendarIdentifier = try store.defaultCalendarForNewEvents().identifier
        let attempts: [() throws -> Void] = [
            { try store.save(renamed) }, { try store.save(occurrence, span: .thisEvent) }, { try store.save(moved) },
            { try store.remove(series.event) }, { try store.remove(occurrence) }, { try store.save(reminder) },
            { try store.complete(reminder.identifier) }, { try store.removeReminder(reminder.identifier) },
        ]
        for attempt in attempts {
            let error = #expect(throws: StoreError.self) { try attempt() }
            #expect(error?.description == "calendar 'Team feed' is read-only")
        }
        // A read-only local calendar has no refresh to take.
        let archive = ItemCalendar(title: "Archive", allowsContentModifications: false)
        try store.save(archive)
        #expect(throws: StoreError.self) {
            try store.importItems(try feed(archive.identifier), into: archive.identifier, asSubscriptionRefresh: true)
        }
    }
}

@Suite("iCalendar fields in the store")
struct ICalendarFieldsStoreTests {
    @Test("an event's origin, structured location and alarms' unmodelled lines round-trip; a detached occurrence keeps its own origin")
    func roundTrip() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let calendar = try store.defaultCalendarForNewEvents().identifier
        let place = try StructuredLocation(title: "Office", latitude: 31.2304, longitude: 121.4737, radius: 70)
        var alarm = Alarm.relative(seconds: -600)
        alarm.unmodelled = "UID:alarm-1\r\nX-WR-ALARMUID:alarm-1\r\n"
        let series = Event(calendarIdentifier: calendar, title: "Review", structuredLocation: place,
                           start: try StoreFixture.zoned("2026-12-01T10:00:00"), end: try StoreFixture.zoned("2026-12-01T11:00:00"),
                           recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=WEEKLY;COUNT=4"), alarms: [alarm], externalKey: "review@example.org",
                           origin: ICalendarOrigin(sequence: 4, lastModified: 1_796_000_000, unmodelled: "ATTENDEE:mailto:b@example.org\r\n"))
        try store.save(series)
        #expect(try store.event(identifier: series.identifier) == series)
        var occurrence = try store.occurrence(of: series.identifier, originalStart: try StoreFixture.time("2026-12-08T10:00:00"))
        occurrence.origin = ICalendarOrigin(sequence: 5)
        let detached = try store.save(occurrence, span: .thisEvent)
        #expect(try store.event(identifier: detached).origin == ICalendarOrigin(sequence: 5))
        #expect(try store.event(identifier: series.identifier).origin?.sequence == 4)
        // Range queries carry the location and alarms, not the origin.
        let week = try StoreFixture.date("2026-11-30T00:00:00+08:00")..<StoreFixture.date("2026-12-07T00:00:00+08:00")
        let shown = try #require(try store.events(overlapping: week).first)
        #expect(shown.structuredLocation == place && shown.alarms == [alarm] && shown.origin == nil)
    }

    @Test("an item from outside changed here takes now as its LAST-MODIFIED (a second past the old one when the clock is behind); completing it too")
    func changedHereIsModifiedNow() throws {
        let fixture = try StoreFixture()
        // 2026-12-02T00:00:00Z
        let store = try fixture.open(now: { Date(timeIntervalSince1970: 1_796_169_600) })
        let calendar = try store.defaultCalendarForNewReminders().identifier
        var reminder = Reminder(calendarIdentifier: calendar, title: "Renew", externalKey: "renew@example.org",
                                origin: ICalendarOrigin(sequence: 2, lastModified: 1_796_000_000))
        try store.save(reminder)
        #expect(try store.reminder(identifier: reminder.identifier).origin?.lastModified == 1_796_000_000, "a first save keeps it")
        reminder.title = "Renew the lease"
        try store.save(reminder)
        #expect(try store.reminder(identifier: reminder.identifier).origin == ICalendarOrigin(sequence: 2, lastModified: 1_796_169_600))
        // A second change within the same second is still later than the first.
        try store.complete(reminder.identifier)
        #expect(try store.reminder(identifier: reminder.identifier).origin?.lastModified == 1_796_169_601)

        // A LAST-MODIFIED ahead of this machine's clock (2026-12-03T00:00:00Z): one second later still.
        var event = Event(calendarIdentifier: calendar, title: "Review", start: try StoreFixture.zoned("2026-12-01T10:00:00"),
                          end: try StoreFixture.zoned("2026-12-01T11:00:00"), externalKey: "review@example.org",
                          origin: ICalendarOrigin(sequence: 0, lastModified: 1_796_256_000))
        try store.save(event)
        event.title = "Review, moved"
        try store.save(event)
        #expect(try store.event(identifier: event.identifier).origin?.lastModified == 1_796_256_001)
    }

    @Test("a reminder's origin round-trips; a negative SEQUENCE is refused")
    func reminderOrigin() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let calendar = try store.defaultCalendarForNewReminders().identifier
        let reminder = Reminder(calendarIdentifier: calendar, title: "Renew", externalKey: "renew@example.org",
                                origin: ICalendarOrigin(sequence: 2, lastModified: nil, unmodelled: "X-CUSTOM:1\r\n"))
        try store.save(reminder)
        #expect(try store.reminder(identifier: reminder.identifier) == reminder)
        #expect(try store.reminders(.all) == [reminder])
        var negative = reminder
        negative.identifier = .random()
        negative.externalKey = nil
        negative.origin = ICalendarOrigin(sequence: -1)
        #expect(throws: StoreError.self) { try store.save(negative) }
    }
}

@Suite("Acknowledging an item's alarms (RFC 9074)")
struct AcknowledgeAlarmsTests {
    @Test("an item from outside has its time-based alarms answered at the time given, a later LAST-MODIFIED; a local item, a meeting and an earlier answer are left as they are")
    func acknowledge() throws {
        let fixture = try StoreFixture()
        // 2026-12-02T00:00:00Z
        let store = try fixture.open(now: { Date(timeIntervalSince1970: 1_796_169_600) })
        let calendar = try store.defaultCalendarForNewReminders().identifier
        let place = try StructuredLocation(title: "Office", latitude: 31.2304, longitude: 121.4737, radius: 70)
        let at = Date(timeIntervalSince1970: 1_796_169_000) // 2026-12-01T23:50:00Z
        let shared = Reminder(calendarIdentifier: calendar, title: "Bins", due: try StoreFixture.zoned("2026-12-02T08:00:00"),
                              alarms: [.relative(seconds: -600), .proximity(place, .leave)], externalKey: "bins@phone",
                              origin: ICalendarOrigin(sequence: 0, lastModified: 1_796_000_000))
        try store.save(shared)
        #expect(try store.acknowledgeAlarms(of: shared.identifier, at: at))
        let answered = try store.reminder(identifier: shared.identifier)
        #expect(answered.alarms.map(\.acknowledged) == [at, nil])
        #expect(answered.origin?.lastModified == 1_796_169_600)
        #expect(try !store.acknowledgeAlarms(of: shared.identifier, at: at.addingTimeInterval(-60)), "an earlier answer changes nothing")

        let local = Reminder(calendarIdentifier: calendar, title: "Local", due: try StoreFixture.zoned("2026-12-02T08:00:00"), alarms: [.relative(seconds: 0)])
        try store.save(local)
        #expect(try !store.acknowledgeAlarms(of: local.identifier, at: at))
        let meeting = Event(calendarIdentifier: calendar, title: "Review", start: try StoreFixture.zoned("2026-12-02T10:00:00"),
                            end: try StoreFixture.zoned("2026-12-02T11:00:00"), alarms: [.relative(seconds: -600)], externalKey: "review@example.org",
                            origin: ICalendarOrigin(sequence: 0, unmodelled: "ORGANIZER:mailto:a@example.org\r\nATTENDEE:mailto:b@example.org\r\n"))
        try store.save(meeting)
        #expect(try !store.acknowledgeAlarms(of: meeting.identifier, at: at))
        #expect(try store.event(identifier: meeting.identifier).alarms.first?.acknowledged == nil)
    }
}

extension Thread {
    /// `body`'s result, computed on a thread of its own and waited for:
    /// what `body` holds is touched by that thread alone meanwhile.
    static func detachedResult<T>(_ body: @escaping () -> T) -> T {
        let handed = Mutex(HandedWork(body: body))
        let done = DispatchSemaphore(value: 0)
        Thread {
            handed.withLock { $0.result = $0.body() }
            done.signal()
        }.start()
        done.wait()
        return handed.withLock { $0.result! }
    }
}

/// Work handed to another thread by `Thread.detachedResult`, and its result.
private struct HandedWork<T>: @unchecked Sendable {
    let body: () -> T
    var result: T?
}
