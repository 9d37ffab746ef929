@testable import CalDAVSync
import CalendarModel
import CalendarStore
import Foundation
import HTTPDownload
import TestSupport
import Testing

/// A server with a calendar the phone fills, a Chime store whose calendar
/// "Phone" is mapped to it, and a sync run on demand.
private final class SyncRig {
    let server: CalDAVServer
    let fixture: StoreFixture
    let store: CalendarStore
    let state: SyncState
    /// The collection as the phone reaches it, and as Chime does.
    let calendarURL: String
    let collectionURL: String
    let calendar: ItemCalendar
    /// Requests the last sync sent.
    var requests = 0
    /// Between Chime and the server when the rig was given rules for one.
    let proxy: FaultyProxy?
    /// The Retry-After waits the syncs asked for (recorded, not slept).
    final class Waits { var seconds: [Double] = [] }
    let waits = Waits()

    /// `proxyRules`: Chime reaches the collection through a FaultyProxy that
    /// fails as they say (the phone still talks to the server directly).
    init(_ kind: CalDAVServer.Kind, proxyRules: [String]? = nil) throws {
        let server = try CalDAVServer(kind)
        let direct = try server.makeCalendar("Phone")
        let proxy = try proxyRules.map { try FaultyProxy(upstream: server.base, rules: $0) }
        self.server = server
        self.proxy = proxy
        calendarURL = direct
        collectionURL = proxy.map { $0.base + direct.dropFirst(server.base.count) } ?? direct
        fixture = try StoreFixture(zone: "Europe/Berlin")
        // 2027-01-01T00:00:00Z
        store = try fixture.open(now: { Date(timeIntervalSince1970: 1_798_761_600) })
        calendar = ItemCalendar(title: "Phone")
        try store.save(calendar)
        state = try SyncState(store: store)
        try state.save(SyncState.Account(name: "test", address: server.base, user: server.user, passwordCommand: nil))
        try state.save(SyncState.Collection(account: "test", url: collectionURL, calendar: calendar.identifier, displayName: "Phone",
                                            components: ["VEVENT", "VTODO"], isReadOnly: false))
    }

    var collection: SyncState.Collection { get throws { try #require(try state.collections().first) } }

    @discardableResult
    func sync() throws -> SyncEngine.Outcome {
        let waits = self.waits
        let engine = SyncEngine(store: store, state: state, credentials: server.user.map { HTTPCredentials(user: $0, password: server.password ?? "") },
                                timeLimit: 20, wait: { waits.seconds.append($0) })
        let outcome = try engine.sync(try collection)
        requests = engine.requestCount
        return outcome
    }

    var items: CalendarItems { get throws { try store.items(of: calendar.identifier) } }

    func reminder(_ uid: String) throws -> Reminder? { try items.reminders.first { $0.externalKey == uid } }

    func put(_ text: String) throws -> String { try server.put(text.replacingOccurrences(of: "\n", with: "\r\n"), in: calendarURL) }
    func list() throws -> [String] { try server.phone(["list", calendarURL]).split(separator: "\n").map(String.init) }
}

extension SyncRig {
    /// The phone's to-do, synced, then edited here (its notes) and deleted
    /// on the phone: the outcome of the sync that meets both.
    func editHereDeleteThere() throws -> SyncEngine.Outcome {
        let url = try put(todo("Put the bins out"))
        try sync()
        var local = try #require(try reminder("bins@phone"))
        local.notes = "The green one too"
        try store.save(local)
        _ = try server.phone(["delete", url])
        return try sync()
    }

    /// The edit of `editHereDeleteThere` stands: kept here, and on the
    /// server as the one resource; the next sync has nothing to do.
    func expectEditKept(_ outcome: SyncEngine.Outcome, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(outcome.removed == 0 && outcome.restored == 1 && outcome.uploaded == 1, "\(outcome)", sourceLocation: sourceLocation)
        #expect(try reminder("bins@phone")?.notes == "The green one too", sourceLocation: sourceLocation)
        let listed = try list()
        #expect(listed.count == 1, sourceLocation: sourceLocation)
        #expect(try server.get(try #require(listed.first)).contains("DESCRIPTION:The green one too"), sourceLocation: sourceLocation)
        let next = try sync()
        #expect(next.uploaded == 0 && next.downloaded == 0 && next.removed == 0 && next.conflicts == 0, sourceLocation: sourceLocation)
    }
}

private let weekly = """
    BEGIN:VCALENDAR
    VERSION:2.0
    PRODID:-//phone//EN
    BEGIN:VEVENT
    UID:standup@phone
    DTSTAMP:20261201T080000Z
    DTSTART:20270104T090000Z
    DTEND:20270104T091500Z
    RRULE:FREQ=WEEKLY;COUNT=4
    SUMMARY:Stand-up
    END:VEVENT
    BEGIN:VEVENT
    UID:standup@phone
    DTSTAMP:20261201T080000Z
    RECURRENCE-ID:20270111T090000Z
    DTSTART:20270111T100000Z
    DTEND:20270111T101500Z
    SUMMARY:Stand-up (moved)
    END:VEVENT
    END:VCALENDAR
    """

private func todo(_ summary: String, uid: String = "bins@phone", extra: String = "") -> String {
    """
    BEGIN:VCALENDAR
    VERSION:2.0
    PRODID:-//phone//EN
    BEGIN:VTODO
    UID:\(uid)
    DTSTAMP:20261201T080000Z
    DUE:20270105T170000Z
    SUMMARY:\(summary)
    \(extra)BEGIN:VALARM
    ACTION:DISPLAY
    DESCRIPTION:\(summary)
    TRIGGER;RELATED=END:-PT15M
    END:VALARM
    END:VTODO
    END:VCALENDAR
    """
}

@Suite("Two-way sync against Radicale and Xandikos")
struct SyncEngineTests {
    @Test("a first sync brings the phone's event with its override and its to-do with its RELATED=END alarm", arguments: CalDAVServer.Kind.allCases)
    func firstSync(kind: CalDAVServer.Kind) throws {
        let rig = try SyncRig(kind)
        _ = try rig.put(weekly)
        _ = try rig.put(todo("Put the bins out"))
        let outcome = try rig.sync()
        #expect(outcome.downloaded == 2 && outcome.skipped.isEmpty && outcome.uploaded == 0)
        // Radicale answers the sync-collection with the texts asked for in it; Xandikos with ETags only, and a multiget follows.
        #expect(rig.requests == (kind == .radicale ? 1 : 2))
        let items = try rig.items
        let series = try #require(items.events.first)
        #expect(items.events.count == 1)
        #expect(series.event.title == "Stand-up" && series.event.externalKey == "standup@phone")
        #expect(series.detached.map(\.title) == ["Stand-up (moved)"])
        let reminder = try #require(try rig.reminder("bins@phone"))
        #expect(reminder.title == "Put the bins out")
        #expect(reminder.alarms.map(\.trigger) == [.relative(seconds: -900)])
        #expect(try rig.state.resources(of: rig.calendarURL).map(\.uid).sorted() == ["bins@phone", "standup@phone"])
        #expect(try rig.collection.syncToken?.isEmpty == false)
    }

    @Test("a phone edit and a phone delete come down; with nothing changed the next sync is one request", arguments: CalDAVServer.Kind.allCases)
    func phoneChanges(kind: CalDAVServer.Kind) throws {
        let rig = try SyncRig(kind)
        let event = try rig.put(weekly)
        _ = try rig.put(todo("Put the bins out"))
        try rig.sync()
        _ = try rig.put(todo("Put the bins out, both of them"))
        _ = try rig.server.phone(["delete", event])
        let outcome = try rig.sync()
        #expect(outcome.downloaded == 1 && outcome.removed == 1 && outcome.skipped.isEmpty)
        #expect(try rig.items.events.isEmpty)
        #expect(try rig.reminder("bins@phone")?.title == "Put the bins out, both of them")
        #expect(try rig.state.resources(of: rig.calendarURL).map(\.uid) == ["bins@phone"])
        let quiet = try rig.sync()
        #expect(rig.requests == 1)
        #expect(quiet.downloaded == 0 && quiet.removed == 0 && quiet.uploaded == 0 && quiet.deletedOnServer == 0)
    }

    @Test("a collection of 10,000 resources comes down whole in one sync; one remote change then costs two requests and one resource")
    func tenThousandResources() throws {
        let rig = try SyncRig(.xandikos)
        try rig.server.seed(10_000, in: rig.calendarURL)
        let first = try rig.sync()
        #expect(first.downloaded == 10_000 && first.skipped.isEmpty && first.removed == 0)
        // Xandikos gives no texts in a sync-collection answer: the listing, then multigets of 100 each.
        #expect(rig.requests == 1 + 10_000 / 100, "\(rig.requests) requests")
        let items = try rig.items
        #expect(items.events.count == 5_000 && items.reminders.count == 5_000)
        let titles = Set(items.events.map(\.event.title) + items.reminders.map(\.title))
        #expect(titles == Set((0..<10_000).map { "Item \($0)" }))
        #expect(items.events.allSatisfy { $0.event.alarms.map(\.trigger) == [.relative(seconds: -600)] })
        #expect(items.reminders.allSatisfy { $0.alarms.map(\.trigger) == [.relative(seconds: -600)] })
        #expect(try rig.state.resources(of: rig.calendarURL).count == 10_000)

        // The phone renames one to-do: only it comes down.
        _ = try rig.put("""
            BEGIN:VCALENDAR
            VERSION:2.0
            PRODID:-//phone//EN
            BEGIN:VTODO
            UID:item-00001@bulk
            DTSTAMP:20261202T080000Z
            DUE:20270202T090100Z
            SUMMARY:Item 1, renamed
            END:VTODO
            END:VCALENDAR

            """)
        let second = try rig.sync()
        #expect(second.downloaded == 1 && second.removed == 0 && second.uploaded == 0)
        #expect(rig.requests == 2, "\(rig.requests) requests")
        #expect(try rig.reminder("item-00001@bulk")?.title == "Item 1, renamed")
        #expect(try rig.items.reminders.count == 5_000)
        _ = try rig.sync()
        #expect(rig.requests == 1)
    }

    @Test("a Chime add, edit and delete go up, and the phone sees each", arguments: CalDAVServer.Kind.allCases)
    func chimeChanges(kind: CalDAVServer.Kind) throws {
        let rig = try SyncRig(kind)
        try rig.sync()
        var reminder = Reminder(calendarIdentifier: rig.calendar.identifier, title: "Call the plumber")
        try rig.store.save(reminder)
        let added = try rig.sync()
        #expect(added.uploaded == 1 && added.downloaded == 0)
        let url = try #require(try rig.list().first)
        #expect(try rig.list().count == 1)
        #expect(try rig.server.get(url).contains("SUMMARY:Call the plumber"))
        // The uploaded item keeps its identity: it is not brought back as a second one.
        #expect(try rig.items.reminders.map(\.identifier) == [reminder.identifier])

        reminder = try rig.store.reminder(identifier: reminder.identifier)
        reminder.title = "Call the plumber again"
        try rig.store.save(reminder)
        let edited = try rig.sync()
        #expect(edited.uploaded == 1 && edited.conflicts == 0)
        #expect(try rig.server.get(url).contains("SUMMARY:Call the plumber again"))

        try rig.store.removeReminder(reminder.identifier)
        let removed = try rig.sync()
        #expect(removed.deletedOnServer == 1)
        let left = try rig.list()
        #expect(left.isEmpty, "\(left)")
        #expect(try rig.state.resources(of: rig.calendarURL).isEmpty)
    }

    @Test("Chinese-calendar rules (RSCALE) go up as they are where the server takes them (Xandikos); where it answers 400 (Radicale), as their dates with the rule kept aside, and a phone's edit brings the rule back",
          arguments: CalDAVServer.Kind.allCases)
    func chineseCalendarRule(kind: CalDAVServer.Kind) throws {
        let rig = try SyncRig(kind)
        try rig.sync()
        // 妈妈生日 on 农历三月初八: 2027-04-14, 2028-04-02, 2029-04-21; 中秋 (八月十五): 2027-09-15, 2028-10-03.
        var birthday = Reminder(calendarIdentifier: rig.calendar.identifier, title: "妈妈生日")
        birthday.due = .date(try #require(CivilDate(year: 2027, month: 4, day: 14)))
        birthday.recurrenceRule = try RecurrenceRule(rfc5545: "RSCALE=CHINESE;FREQ=YEARLY;SKIP=BACKWARD")
        try rig.store.save(birthday)
        let festival = Event(calendarIdentifier: rig.calendar.identifier, title: "中秋", start: .date(try #require(CivilDate(year: 2027, month: 9, day: 15))),
                             end: .date(try #require(CivilDate(year: 2027, month: 9, day: 15))),
                             recurrenceRule: try RecurrenceRule(rfc5545: "RSCALE=CHINESE;FREQ=YEARLY"))
        _ = try rig.store.save(festival)
        try rig.store.save(Reminder(calendarIdentifier: rig.calendar.identifier, title: "Call the plumber"))
        let first = try rig.sync()
        #expect(first.uploaded == 3 && first.skipped.isEmpty, "\(first.skipped)")
        let texts = try rig.list().map { try rig.server.get($0) }
        let festivalText = try #require(texts.first { $0.contains("SUMMARY:中秋") })
        let birthdayText = try #require(texts.first { $0.contains("SUMMARY:妈妈生日") })
        switch kind {
        case .radicale:
            // Radicale's parser knows no RSCALE: the two go up as dates, the rule kept aside.
            #expect(first.writtenAsDates == 2)
            #expect(AccountSync.Report(account: "test", calendar: "Phone", result: .success(first)).line
                    == "test/Phone: 3 uploaded, 0 deleted on the server, 0 downloaded, 0 removed, 0 conflicts, "
                    + "2 with a Chinese-calendar rule written as dates (the server does not take RSCALE)")
            // (Radicale writes the kept rule back as TEXT, its ';' escaped: `RSCALE=CHINESE\;FREQ=YEARLY`.)
            #expect(!festivalText.contains("\nRRULE") && festivalText.contains("X-CHIME-RRULE;X-CHIME-FROM=20270915:RSCALE=CHINESE"), "\(festivalText)")
            #expect(festivalText.contains("RDATE;VALUE=DATE:20281003,20290922,"), "\(festivalText)")
            #expect(birthdayText.contains("X-CHIME-RRULE;X-CHIME-FROM=20270414:RSCALE=CHINESE") && birthdayText.contains("RDATE;VALUE=DATE:20280402,20290421,"), "\(birthdayText)")
        case .xandikos:
            #expect(first.writtenAsDates == 0)
            #expect(festivalText.contains("RRULE:RSCALE=CHINESE;FREQ=YEARLY") && birthdayText.contains("RRULE:RSCALE=CHINESE;FREQ=YEARLY;SKIP=BACKWARD"))
        }
        // Nothing changed: nothing goes up again, and the items are as they were made.
        #expect(try rig.sync().uploaded == 0)
        let kept = try #require(try rig.items.reminders.first { $0.title == "妈妈生日" })
        #expect(kept.recurrenceRule?.rfc5545 == "RSCALE=CHINESE;FREQ=YEARLY;SKIP=BACKWARD")
        // The phone renames the festival: it comes down with its rule, and no dates beside it.
        let url = try #require(try rig.list().first { try rig.server.get($0).contains("SUMMARY:中秋") })
        let edited = try rig.server.get(url).replacingOccurrences(of: "SUMMARY:中秋\n", with: "SUMMARY:中秋节\n")
        #expect(edited.contains("SUMMARY:中秋节"))
        _ = try rig.server.put(edited, in: rig.calendarURL)
        let down = try rig.sync()
        #expect(down.downloaded == 1 && down.conflicts == 0, "\(down.skipped)")
        let renamed = try #require(try rig.items.events.first { $0.event.title == "中秋节" }).event
        #expect(renamed.recurrenceRule?.rfc5545 == "RSCALE=CHINESE;FREQ=YEARLY")
        #expect(renamed.extraDates.isEmpty)
        #expect(renamed.origin?.keepsProperty(named: "X-CHIME-RRULE") == false)
        // And the birthday, a reminder (whose RDATEs Chime holds as kept lines), likewise.
        let birthdayURL = try #require(try rig.list().first { try rig.server.get($0).contains("SUMMARY:妈妈生日") })
        _ = try rig.server.put(try rig.server.get(birthdayURL).replacingOccurrences(of: "SUMMARY:妈妈生日\n", with: "SUMMARY:妈妈的生日\n"),
                               in: rig.calendarURL)
        #expect(try rig.sync().downloaded == 1)
        let renamedBirthday = try #require(try rig.items.reminders.first { $0.title == "妈妈的生日" })
        #expect(renamedBirthday.recurrenceRule?.rfc5545 == "RSCALE=CHINESE;FREQ=YEARLY;SKIP=BACKWARD")
        #expect(renamedBirthday.origin?.keepsProperty(named: "RDATE") == false && renamedBirthday.origin?.keepsProperty(named: "X-CHIME-RRULE") == false)
        #expect(try rig.items.reminders.count == 2 && rig.items.events.count == 1)
        // What came down is what Chime holds: the next sync sends nothing.
        let quiet = try rig.sync()
        #expect(quiet.uploaded == 0 && quiet.downloaded == 0)
    }

    @Test("a phone that moves the start of a series written as dates leaves none of the old start's dates behind; a date it adds stays")
    func movedStartOfTheGregorianForm() throws {
        let rig = try SyncRig(.radicale)
        try rig.sync()
        // 中秋 (八月十五) from 2027-09-15; moved on the phone to 八月十六, 2027-09-16, whose years go 2028-10-04, 2029-09-23.
        let festival = Event(calendarIdentifier: rig.calendar.identifier, title: "中秋", start: .date(try #require(CivilDate(year: 2027, month: 9, day: 15))),
                             end: .date(try #require(CivilDate(year: 2027, month: 9, day: 15))),
                             recurrenceRule: try RecurrenceRule(rfc5545: "RSCALE=CHINESE;FREQ=YEARLY"))
        _ = try rig.store.save(festival)
        #expect(try rig.sync().writtenAsDates == 1)
        let url = try #require(try rig.list().first)
        let written = try rig.server.get(url)
        #expect(written.contains("X-CHIME-RRULE;X-CHIME-FROM=20270915:RSCALE=CHINESE"), "\(written)")
        // The phone moves the first day and keeps the dates as they were, with one more of its own (2027-12-25).
        let moved = written.replacingOccurrences(of: "DTSTART;VALUE=DATE:20270915", with: "DTSTART;VALUE=DATE:20270916")
            .replacingOccurrences(of: "DTEND;VALUE=DATE:20270916", with: "DTEND;VALUE=DATE:20270917")
            .replacingOccurrences(of: "RDATE;VALUE=DATE:20281003,", with: "RDATE;VALUE=DATE:20271225,20281003,")
        #expect(moved.contains("DTSTART;VALUE=DATE:20270916") && moved.contains("20271225,20281003"), "\(written)")
        _ = try rig.server.put(moved, in: rig.calendarURL)
        #expect(try rig.sync().downloaded == 1)
        let event = try #require(try rig.items.events.first).event
        #expect(event.start == .date(try #require(CivilDate(year: 2027, month: 9, day: 16))))
        #expect(event.recurrenceRule?.rfc5545 == "RSCALE=CHINESE;FREQ=YEARLY")
        #expect(event.extraDates == [try #require(LocalDateTime(parsing: "2027-12-25T00:00:00"))], "\(event.extraDates.prefix(5))")
        let days = try rig.store.recurrence(ofEvent: event).occurrences().prefix(4).map(\.day.description)
        #expect(days == ["2027-09-16", "2027-12-25", "2028-10-04", "2029-09-23"])
        // What came down is what Chime holds: the next sync sends nothing.
        let quiet = try rig.sync()
        #expect(quiet.uploaded == 0 && quiet.downloaded == 0)
    }

    @Test("a server that refuses RSCALE with 403 and CalDAV's valid-calendar-data (RFC 4791) gets the dates too, and the calendar stays writable")
    func chineseCalendarRuleRefusedWith403() throws {
        let rig = try SyncRig(.radicale, proxyRules: ["0:norscale"])
        try rig.sync()
        let festival = Event(calendarIdentifier: rig.calendar.identifier, title: "中秋", start: .date(try #require(CivilDate(year: 2027, month: 9, day: 15))),
                             end: .date(try #require(CivilDate(year: 2027, month: 9, day: 15))),
                             recurrenceRule: try RecurrenceRule(rfc5545: "RSCALE=CHINESE;FREQ=YEARLY"))
        _ = try rig.store.save(festival)
        let outcome = try rig.sync()
        #expect(outcome.uploaded == 1 && outcome.writtenAsDates == 1 && outcome.skipped.isEmpty && !outcome.becameReadOnly, "\(outcome)")
        #expect(try rig.collection.isReadOnly == false)
        let text = try rig.server.get(try #require(try rig.list().first))
        #expect(text.contains("RDATE;VALUE=DATE:20281003,") && text.contains("X-CHIME-RRULE;X-CHIME-FROM=20270915:RSCALE=CHINESE"))
        // A 403 without a precondition is the owner taking write away (SyncCommandTests.readOnlyCollection).
    }

    @Test("Done on the desktop completes the phone's to-do on the server", arguments: CalDAVServer.Kind.allCases)
    func doneGoesUp(kind: CalDAVServer.Kind) throws {
        let rig = try SyncRig(kind)
        let url = try rig.put(todo("Put the bins out"))
        try rig.sync()
        let reminder = try #require(try rig.reminder("bins@phone"))
        _ = try rig.store.complete(reminder.identifier)
        let outcome = try rig.sync()
        #expect(outcome.uploaded == 1 && outcome.conflicts == 0)
        let text = try rig.server.get(url)
        #expect(text.contains("STATUS:COMPLETED"), "\(text)")
        #expect(text.contains("UID:bins@phone"))
    }

    @Test("edited on both sides: the server refuses with 412, its version is kept, the local one is kept as a conflict",
          arguments: CalDAVServer.Kind.allCases)
    func bothEdited(kind: CalDAVServer.Kind) throws {
        let rig = try SyncRig(kind)
        let url = try rig.put(todo("Put the bins out"))
        try rig.sync()
        var local = try #require(try rig.reminder("bins@phone"))
        local.title = "Put the bins out (Chime)"
        try rig.store.save(local)
        _ = try rig.put(todo("Put the bins out (phone)"))
        let outcome = try rig.sync()
        #expect(outcome.conflicts == 1 && outcome.uploaded == 0 && outcome.downloaded == 1)
        #expect(try rig.server.get(url).contains("SUMMARY:Put the bins out (phone)"))
        #expect(try rig.reminder("bins@phone")?.title == "Put the bins out (phone)")
        let conflict = try #require(try rig.state.conflicts().first)
        #expect(conflict.uid == "bins@phone")
        #expect(conflict.local.contains("SUMMARY:Put the bins out (Chime)"))
        // Settled: the next sync uploads nothing and finds no conflict.
        let next = try rig.sync()
        #expect(next.conflicts == 0 && next.uploaded == 0)
    }

    @Test("an item made in Chime, edited on both sides apart: the merge keeps the identifier Chime gave it (and printed)")
    func mergeKeepsIdentifiers() throws {
        let rig = try SyncRig(.radicale)
        var made = Reminder(calendarIdentifier: rig.calendar.identifier, title: "Put the bins out")
        made.due = ItemTime.zoned(LocalDateTime(date: CivilDate(year: 2027, month: 1, day: 5)!, hour: 17)!, zone: "UTC")
        made.externalKey = "made@chime"
        made.alarms = [Alarm(trigger: .relative(seconds: -600))]
        try rig.store.save(made)
        #expect(try rig.sync().uploaded == 1)
        var local = try #require(try rig.reminder("made@chime"))
        #expect(local.identifier == made.identifier)
        local.notes = "The green one too"
        try rig.store.save(local)
        _ = try rig.put(todo("Put the bins out tonight", uid: "made@chime"))
        let outcome = try rig.sync()
        #expect(outcome.conflicts == 0 && outcome.merged == 1, "\(outcome)")
        let merged = try #require(try rig.reminder("made@chime"))
        #expect(merged.title == "Put the bins out tonight" && merged.notes == "The green one too")
        #expect(merged.identifier == made.identifier)
    }

    @Test("edited on both sides in different properties: merged against the base, the merge goes up, no conflict", arguments: CalDAVServer.Kind.allCases)
    func bothEditedApart(kind: CalDAVServer.Kind) throws {
        let rig = try SyncRig(kind)
        let url = try rig.put(todo("Put the bins out"))
        try rig.sync()
        var local = try #require(try rig.reminder("bins@phone"))
        local.notes = "The green one too"
        local.priority = 1
        try rig.store.save(local)
        // The phone renames it (and, as todo() does, its alarm's text).
        _ = try rig.put(todo("Put the bins out tonight"))
        let outcome = try rig.sync()
        #expect(outcome.conflicts == 0 && outcome.merged == 1 && outcome.uploaded == 1, "\(outcome)")
        #expect(try rig.state.conflicts().isEmpty)
        let merged = try #require(try rig.reminder("bins@phone"))
        #expect(merged.title == "Put the bins out tonight")
        #expect(merged.notes == "The green one too" && merged.priority == 1)
        let server = try rig.server.get(url)
        #expect(server.contains("SUMMARY:Put the bins out tonight") && server.contains("DESCRIPTION:The green one too")
                && server.contains("PRIORITY:1"), "\(server)")
        let next = try rig.sync()
        #expect(next.conflicts == 0 && next.uploaded == 0 && next.downloaded == 0)
    }

    @Test("a dismissal here against the phone's edit of the same to-do and its alarm goes onto the server's copy, no conflict", arguments: CalDAVServer.Kind.allCases)
    func dismissalAgainstAnEdit(kind: CalDAVServer.Kind) throws {
        let rig = try SyncRig(kind)
        let url = try rig.put(todo("Put the bins out"))
        try rig.sync()
        let local = try #require(try rig.reminder("bins@phone"))
        let answered = Date(timeIntervalSince1970: 1_799_167_500) // 2027-01-05T16:45:00Z
        #expect(try rig.store.acknowledgeAlarms(of: local.identifier, at: answered))
        // The phone renames it, and, as todo() does, its alarm's text with it: the VALARM changed on both sides.
        _ = try rig.put(todo("Put the bins out tonight"))
        let outcome = try rig.sync()
        #expect(outcome.conflicts == 0 && outcome.merged == 1 && outcome.uploaded == 1, "\(outcome)")
        #expect(try rig.state.conflicts().isEmpty)
        let server = try rig.server.get(url)
        #expect(server.contains("SUMMARY:Put the bins out tonight") && server.contains("DESCRIPTION:Put the bins out tonight")
                && server.contains("ACKNOWLEDGED:20270105T164500Z"), "\(server)")
        let merged = try #require(try rig.reminder("bins@phone"))
        #expect(merged.title == "Put the bins out tonight" && merged.alarms.first?.acknowledged == answered)
    }

    @Test("deleted on the phone, edited here: the edit stands and goes back up as the item", arguments: CalDAVServer.Kind.allCases)
    func phoneDeleteAgainstLocalEdit(kind: CalDAVServer.Kind) throws {
        let rig = try SyncRig(kind)
        let outcome = try rig.editHereDeleteThere()
        #expect(AccountSync.Report(account: "test", calendar: "Phone", result: .success(outcome)).line
                == "test/Phone: 1 uploaded, 0 deleted on the server, 0 downloaded, 0 removed, 0 conflicts, 1 edited here and deleted there, kept")
        try rig.expectEditKept(outcome)
    }

    @Test("deleted here, edited on the phone: the edit stands and comes back down", arguments: CalDAVServer.Kind.allCases)
    func localDeleteAgainstPhoneEdit(kind: CalDAVServer.Kind) throws {
        let rig = try SyncRig(kind)
        let url = try rig.put(todo("Put the bins out"))
        try rig.sync()
        let local = try #require(try rig.reminder("bins@phone"))
        try rig.store.removeReminder(local.identifier)
        _ = try rig.put(todo("Put the bins out tonight"))
        let outcome = try rig.sync()
        #expect(outcome.deletedOnServer == 0, "\(outcome)")
        #expect(try rig.server.get(url).contains("SUMMARY:Put the bins out tonight"))
        #expect(try rig.reminder("bins@phone")?.title == "Put the bins out tonight")
        let next = try rig.sync()
        #expect(next.uploaded == 0 && next.deletedOnServer == 0 && next.downloaded == 0)
    }

    @Test("a token the server no longer takes falls back to the full listing and ends in the same state", arguments: CalDAVServer.Kind.allCases)
    func invalidToken(kind: CalDAVServer.Kind) throws {
        let rig = try SyncRig(kind)
        let event = try rig.put(weekly)
        _ = try rig.put(todo("Put the bins out"))
        try rig.sync()
        var collection = try rig.collection
        collection.syncToken = kind == .radicale ? "http://radicale.org/ns/sync/0123456789abcdef" : "0123456789abcdef"
        try rig.state.save(collection)
        _ = try rig.put(todo("Put the bins out, both of them"))
        _ = try rig.server.phone(["delete", event])
        let outcome = try rig.sync()
        #expect(outcome.fellBack)
        #expect(outcome.downloaded == 1 && outcome.removed == 1)
        #expect(try rig.items.events.isEmpty)
        #expect(try rig.reminder("bins@phone")?.title == "Put the bins out, both of them")
        let after = try rig.collection.syncToken
        #expect(after != nil && after != collection.syncToken)
        let quiet = try rig.sync()
        #expect(!quiet.fellBack && rig.requests == 1)
    }

    @Test("a collection that suddenly lists empty removes nothing until confirmed", arguments: CalDAVServer.Kind.allCases)
    func suddenlyEmpty(kind: CalDAVServer.Kind) throws {
        let rig = try SyncRig(kind)
        let event = try rig.put(weekly)
        let bins = try rig.put(todo("Put the bins out"))
        try rig.sync()
        let token = try rig.collection.syncToken
        _ = try rig.server.phone(["delete", event])
        _ = try rig.server.phone(["delete", bins])
        let held = try rig.sync()
        #expect(held.heldEmpty && held.removed == 0)
        #expect(try rig.items.count == 2)
        #expect(try rig.collection.syncToken == token)
        let engine = SyncEngine(store: rig.store, state: rig.state,
                                credentials: rig.server.user.map { HTTPCredentials(user: $0, password: rig.server.password ?? "") }, timeLimit: 20)
        engine.allowsEmptying = true
        let confirmed = try engine.sync(try rig.collection)
        #expect(!confirmed.heldEmpty && confirmed.removed == 2)
        #expect(try rig.items.count == 0)
    }

    @Test("a resource Chime cannot read is skipped with a report, and the rest syncs", arguments: CalDAVServer.Kind.allCases)
    func brokenResource(kind: CalDAVServer.Kind) throws {
        let rig = try SyncRig(kind)
        _ = try rig.put(todo("Broken", uid: "broken@phone", extra: "PRIORITY:42\n"))
        _ = try rig.put(todo("Put the bins out"))
        let outcome = try rig.sync()
        #expect(outcome.downloaded == 1)
        #expect(outcome.skipped.count == 1)
        #expect(outcome.skipped.first?.contains("PRIORITY") == true)
        #expect(try rig.items.reminders.map(\.externalKey) == ["bins@phone"])
        #expect(try rig.collection.syncToken != nil)
    }
}

extension SyncEngineTests {
    @Test("with nothing changed here since the last sync, the next one exports nothing to look for local changes; an edit, a move out of the calendar or a removal here makes it look",
          arguments: CalDAVServer.Kind.allCases)
    func localChangesFromTheChangeLog(kind: CalDAVServer.Kind) throws {
        let rig = try SyncRig(kind)
        _ = try rig.put(todo("Put the bins out"))
        #expect(try rig.sync().examinedLocalItems)
        #expect(try rig.sync().examinedLocalItems == false)
        // A change in a calendar no collection maps to is none of this one's.
        let other = ItemCalendar(title: "Other")
        try rig.store.save(other)
        try rig.store.save(Reminder(calendarIdentifier: other.identifier, title: "Not shared"))
        #expect(try rig.sync().examinedLocalItems == false)

        var reminder = try #require(try rig.reminder("bins@phone"))
        reminder.title = "Put the bins out, both of them"
        try rig.store.save(reminder)
        let edited = try rig.sync()
        #expect(edited.examinedLocalItems && edited.uploaded == 1)
        #expect(try rig.sync().examinedLocalItems == false)

        let plumber = Reminder(calendarIdentifier: rig.calendar.identifier, title: "Call the plumber")
        try rig.store.save(plumber)
        let added = try rig.sync()
        #expect(added.examinedLocalItems && added.uploaded == 1)
        // Its UID was written back to it after the upload: the next sync looks once more and finds nothing.
        let settled = try rig.sync()
        #expect(settled.uploaded == 0)
        #expect(try rig.sync().examinedLocalItems == false)

        var moved = try rig.store.reminder(identifier: plumber.identifier)
        moved.calendarIdentifier = other.identifier
        try rig.store.save(moved)
        let movedOut = try rig.sync()
        #expect(movedOut.examinedLocalItems && movedOut.deletedOnServer == 1)

        try rig.store.removeReminder(reminder.identifier)
        let removed = try rig.sync()
        #expect(removed.examinedLocalItems && removed.deletedOnServer == 1)
        #expect(try rig.list().isEmpty)
    }
}

@Suite("Sync against a server that is busy or dies mid-sync (Radicale behind a faulty proxy)")
struct SyncFaultTests {
    @Test("a 503 with a Retry-After of 2 s is waited out and the request sent again; the sync ends as an undisturbed one")
    func retryAfterIsHonoured() throws {
        let rig = try SyncRig(.radicale, proxyRules: ["1:503:2"])
        _ = try rig.put(todo("Put the bins out"))
        let outcome = try rig.sync()
        #expect(outcome.downloaded == 1)
        #expect(rig.waits.seconds == [2])
        // The refused sync-collection, and itself again, with the texts in it.
        #expect(rig.requests == 2)
    }

    @Test("a Retry-After longer than the bound is not waited out: the sync fails naming it, stores no token, and the next one works")
    func longRetryAfterEndsTheSync() throws {
        let rig = try SyncRig(.radicale, proxyRules: ["1:503:3600"])
        _ = try rig.put(todo("Put the bins out"))
        #expect { try rig.sync() } throws: { error in
            "\(error)".contains("HTTP 503") && "\(error)".contains("again in 3600 s")
        }
        #expect(rig.waits.seconds.isEmpty)
        #expect(try rig.collection.syncToken == nil)
        #expect(try rig.sync().downloaded == 1)
    }

    @Test("a connection dropped in the middle of the download leaves the old token and no item; the next sync brings each once")
    func droppedConnectionResumesCleanly() throws {
        // The first sync: 1, the sync-collection (texts and all). The second: 2, the sync-collection,
        // dropped as by a server killed mid-answer.
        let rig = try SyncRig(.radicale, proxyRules: ["2:drop"])
        for uid in ["bins@phone", "plants@phone", "post@phone"] { _ = try rig.put(todo("Chore \(uid)", uid: uid)) }
        try rig.sync()
        let token = try rig.collection.syncToken
        _ = try rig.put(todo("Put the bins out, both of them"))
        _ = try rig.put(todo("Buy stamps", uid: "stamps@phone"))
        #expect(throws: CalDAVError.self) { try rig.sync() }
        #expect(try rig.collection.syncToken == token)
        #expect(try rig.items.reminders.count == 3)
        #expect(try rig.reminder("bins@phone")?.title == "Chore bins@phone")

        let resumed = try rig.sync()
        #expect(resumed.downloaded == 2)
        let reminders = try rig.items.reminders
        #expect(reminders.count == 4)
        #expect(Set(reminders.compactMap(\.externalKey)).count == 4)
        #expect(try rig.reminder("bins@phone")?.title == "Put the bins out, both of them")
        #expect(try rig.sync().downloaded == 0)
    }
}

extension SyncFaultTests {
    @Test("an edit here of what the phone deleted, where the server answers the PUT 404 rather than 412, goes up again as new")
    func editOfDeletedAnswered404() throws {
        // 1: the first sync's sync-collection; 2: the second sync's PUT with If-Match, answered 404.
        let rig = try SyncRig(.radicale, proxyRules: ["2:404"])
        try rig.expectEditKept(try rig.editHereDeleteThere())
    }
}

extension SyncFaultTests {
    @Test("a server that copies a control character into its XML (which cannot hold it) does not fail the collection: the item reads, the character as U+FFFD")
    func controlCharacterInTheServersXML() throws {
        // 1: the sync-collection with the texts, its SUMMARY: lines given a raw BEL.
        let rig = try SyncRig(.radicale, proxyRules: ["1:control"])
        _ = try rig.put(todo("Put the bins out"))
        _ = try rig.put(todo("Water the plants", uid: "plants@phone"))
        let outcome = try rig.sync()
        #expect(outcome.downloaded == 2 && outcome.skipped.isEmpty)
        let title = try rig.reminder("bins@phone")?.title
        #expect(title == "\u{FFFD}Put the bins out", "\(String(describing: title?.unicodeScalars.map { $0.value }))")
        #expect(try rig.reminder("plants@phone")?.title == "\u{FFFD}Water the plants")
    }
}

extension SyncFaultTests {
    @Test("a resource listed without its text is fetched by a multiget, and one the multiget no longer finds (404) is skipped and named", arguments: CalDAVServer.Kind.allCases)
    func goneBeforeTheMultiget(kind: CalDAVServer.Kind) throws {
        let rig = try SyncRig(kind, proxyRules: ["1:phantom"])
        _ = try rig.put(todo("Put the bins out"))
        let outcome = try rig.sync()
        #expect(outcome.downloaded == 1)
        #expect(outcome.skipped.count == 1 && outcome.skipped.first?.contains("phantom.ics: not in the multiget's answer") == true,
                "\(outcome.skipped)")
        // The sync-collection, then the multiget of the one listed without a text.
        #expect(rig.requests == 2)
        #expect(try rig.reminder("bins@phone")?.title == "Put the bins out")
        #expect(try rig.state.resources(of: rig.collectionURL).map(\.uid) == ["bins@phone"])
    }
}

extension SyncFaultTests {
    @Test("a server without sync-collection (501) is synced by its ctag and ETags: a first sync, a change, and a quiet sync that lists nothing", arguments: CalDAVServer.Kind.allCases)
    func withoutSyncCollection(kind: CalDAVServer.Kind) throws {
        let rig = try SyncRig(kind, proxyRules: ["0:nosync"])
        let bins = try rig.put(todo("Put the bins out"))
        _ = try rig.put(todo("Water the plants", uid: "plants@phone"))
        let first = try rig.sync()
        #expect(first.downloaded == 2 && first.fellBack)
        _ = try rig.put(todo("Water the plants twice", uid: "plants@phone"))
        _ = try rig.server.phone(["delete", bins])
        _ = try rig.put(todo("Buy stamps", uid: "stamps@phone"))
        let changed = try rig.sync()
        #expect(changed.downloaded == 2 && changed.removed == 1, "\(changed)")
        #expect(try rig.items.reminders.compactMap(\.externalKey).sorted() == ["plants@phone", "stamps@phone"])
        #expect(try rig.reminder("plants@phone")?.title == "Water the plants twice")
        // The refused REPORT, then the ctag unchanged: nothing listed.
        let quiet = try rig.sync()
        #expect(quiet.downloaded == 0 && quiet.removed == 0)
        #expect(rig.requests == 2)
    }
}
