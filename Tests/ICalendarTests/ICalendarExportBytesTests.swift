import CalendarModel
import Foundation
@testable import ICalendar
import Testing

/// The export's exact bytes for items that use every property it writes,
/// kept lines lending parameters and components it keeps: the output is
/// pinned here so that a faster writer can be told from a different one.
@Suite("iCalendar export bytes")
struct ICalendarExportBytesTests {
    static let calendar = ItemIdentifier("0123456789abcdef0123456789abcdef")!
    static let stamp = Date(timeIntervalSince1970: 1_796_169_600) // 2026-12-02T00:00:00Z

    static func local(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0) -> LocalDateTime {
        LocalDateTime(date: CivilDate(year: year, month: month, day: day)!, hour: hour, minute: minute, second: second)!
    }

    static func identifier(_ last: Int) -> ItemIdentifier {
        ItemIdentifier(String(repeating: "0", count: 30) + String(format: "%02x", last))!
    }

    /// A series with everything an event can carry, one detached occurrence,
    /// an occurrence whose series is not exported, and three plain events
    /// (all day, floating, UTC) made in Chime.
    static func events() throws -> [Event] {
        let berlin = "Europe/Berlin"
        let place = try StructuredLocation(title: "Alexanderplatz 1; Berlin", latitude: 52.5219, longitude: 13.4132, radius: 70)
        let notes = "Agenda:\n1. Überblick über das Quartal, mit Zahlen; Fragen\r\n2. 周会 — Rückblick und Ausblick auf die nächsten Wochen (bitte vorbereiten)\n3. Sonstiges\\Offenes"
        let series = Event(
            identifier: identifier(1), calendarIdentifier: calendar, title: "Stand-up; weekly, with Müller — 周会",
            location: "Room 4.12, Berlin", structuredLocation: place, notes: notes, url: "https://example.com/meet?id=1&x=2",
            start: .zoned(local(2026, 3, 2, 9, 30), zone: berlin), end: .zoned(local(2026, 3, 2, 10, 0), zone: berlin),
            recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=WEEKLY;BYDAY=MO,WE;COUNT=20"),
            exceptionDates: [local(2026, 3, 4, 9, 30), local(2026, 3, 9, 9, 30)], extraDates: [local(2026, 3, 7, 11, 0)],
            alarms: [
                Alarm(identifier: identifier(0x41), trigger: .relative(seconds: -900), missedWindow: 600,
                      unmodelled: "ACTION:AUDIO\r\nATTACH;FMTTYPE=audio/basic:ftp://example.com/pub/sounds/bell-01.aud\r\nREPEAT:2\r\nDURATION:PT5M\r\n"),
                Alarm(identifier: identifier(0x42), trigger: .relative(seconds: -600)),
                Alarm(identifier: identifier(0x43), trigger: .relative(seconds: -300)),
                Alarm(identifier: identifier(0x44), trigger: .absolute(Date(timeIntervalSince1970: 1_772_438_400)), dwell: 120),
                Alarm(identifier: identifier(0x45), trigger: .proximity(place, .enter), dwell: 300, firesOnFirstFix: true),
            ],
            externalKey: "team,sync\\1@example.com",
            origin: ICalendarOrigin(sequence: 3, lastModified: 1_772_000_000, unmodelled: """
                SUMMARY;LANGUAGE=de:Stand-up\r
                DTSTART;X-KEPT=yes;TZID=Asia/Shanghai:20260302T093000\r
                ATTENDEE;CN="Mei, L";ROLE=REQ-PARTICIPANT;X-NOTE="a ^'quoted^' ^^ line^nbreak":mailto:mei@example.com\r
                EXDATE;X-SOURCE=outlook:20260304T093000\r
                EXDATE:20260309T093000\r
                X-LONG-KEPT:\(String(repeating: "long kept value ", count: 8))with ümlauts at the fold\r
                BEGIN:X-KEPT-COMPONENT\r
                X-INSIDE:1\r
                END:X-KEPT-COMPONENT\r

                """))
        let moved = Event(
            identifier: identifier(2), calendarIdentifier: calendar, title: "Stand-up (moved)",
            start: .zoned(local(2026, 3, 11, 10, 0), zone: berlin), end: .zoned(local(2026, 3, 11, 10, 30), zone: berlin),
            origin: ICalendarOrigin(sequence: 1, unmodelled: "RECURRENCE-ID;X-RANGE-NOTE=kept:20260311T093000\r\n"),
            seriesIdentifier: identifier(1), originalStart: local(2026, 3, 11, 9, 30))
        let orphan = Event(
            identifier: identifier(3), calendarIdentifier: calendar, title: "Occurrence of a series not exported",
            start: .zoned(local(2026, 4, 1, 14, 0), zone: "America/New_York"), end: .zoned(local(2026, 4, 1, 15, 0), zone: "America/New_York"),
            externalKey: "elsewhere@example.com", seriesIdentifier: identifier(99), originalStart: local(2026, 4, 1, 13, 0))
        let allDay = Event(identifier: identifier(4), calendarIdentifier: calendar, title: "Holiday",
                           start: .date(CivilDate(year: 2026, month: 12, day: 24)!), end: .date(CivilDate(year: 2026, month: 12, day: 26)!),
                           exceptionDates: [], alarms: [Alarm(identifier: identifier(0x46), trigger: .relative(seconds: 32_400))])
        let floating = Event(identifier: identifier(5), calendarIdentifier: calendar, title: "Wake up",
                             start: .floating(local(2026, 6, 1, 7, 0)), end: .floating(local(2026, 6, 1, 7, 15)),
                             recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=DAILY;UNTIL=20260630"), extraDates: [local(2026, 7, 4, 8, 0)])
        let utc = Event(identifier: identifier(6), calendarIdentifier: calendar, title: "Call",
                        start: .zoned(local(2026, 5, 5, 16, 0), zone: "UTC"), end: .zoned(local(2026, 5, 5, 16, 45), zone: "UTC"),
                        exceptionDates: [])
        return [series, moved, orphan, allDay, floating, utc]
    }

    /// A completed repeating reminder with a kept occurrence and a kept
    /// 100 %, and a reopened one whose kept 100 % is dropped.
    static func reminders() throws -> [Reminder] {
        let done = Reminder(
            identifier: identifier(7), calendarIdentifier: calendar, title: "Pay rent, monthly", notes: "Transfer to account; ref 42",
            priority: 5, start: .zoned(local(2026, 1, 1, 9, 0), zone: "America/New_York"), due: .zoned(local(2026, 1, 1, 17, 0), zone: "America/New_York"),
            isCompleted: true, completionDate: Date(timeIntervalSince1970: 1_767_300_000),
            recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=MONTHLY;BYMONTHDAY=1"),
            alarms: [Alarm(identifier: identifier(0x47), trigger: .relative(seconds: -3600))],
            externalKey: "rent@example.com",
            origin: ICalendarOrigin(sequence: 0, lastModified: 1_767_200_000, unmodelled: """
                PERCENT-COMPLETE:100\r
                CATEGORIES:Home,Money\r
                BEGIN:VTODO\r
                UID:rent@example.com\r
                RECURRENCE-ID;TZID=America/New_York:20260201T170000\r
                SUMMARY:Pay rent (February)\r
                END:VTODO\r

                """))
        let reopened = Reminder(
            identifier: identifier(8), calendarIdentifier: calendar, title: "Call back",
            due: .date(CivilDate(year: 2026, month: 2, day: 3)!),
            origin: ICalendarOrigin(sequence: 2, unmodelled: "PERCENT-COMPLETE:100\r\nX-KEPT:yes\r\n"))
        return [done, reopened]
    }

    /// What `events()` and `reminders()` export as, line by line (each ends in CR LF).
    static let expected = #"""
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//Chime//Chime \#(ChimeVersion.current)//EN
        BEGIN:VEVENT
        UID:team\,sync\\1@example.com
        DTSTAMP:20261202T000000Z
        DTSTART;TZID=Europe/Berlin;X-KEPT=yes:20260302T093000
        DTEND;TZID=Europe/Berlin:20260302T100000
        SUMMARY;LANGUAGE=de:Stand-up\; weekly\, with Müller — 周会
        DESCRIPTION:Agenda:\n1. Überblick über das Quartal\, mit Zahlen\; Fragen\
         n2. 周会 — Rückblick und Ausblick auf die nächsten Wochen (bitte vor
         bereiten)\n3. Sonstiges\\Offenes
        LOCATION:Room 4.12\, Berlin
        GEO:52.5219;13.4132
        X-APPLE-STRUCTURED-LOCATION;VALUE=URI;X-APPLE-RADIUS=70;X-TITLE="Alexanderp
         latz 1; Berlin":geo:52.5219,13.4132
        URL:https://example.com/meet?id=1&x=2
        RRULE:FREQ=WEEKLY;COUNT=20;BYDAY=MO,WE
        RDATE;TZID=Europe/Berlin:20260307T110000
        EXDATE;TZID=Europe/Berlin;X-SOURCE=outlook:20260304T093000,20260309T093000
        SEQUENCE:3
        LAST-MODIFIED:20260225T061320Z
        ATTENDEE;CN="Mei, L";ROLE=REQ-PARTICIPANT;X-NOTE=a ^'quoted^' ^^ line^nbrea
         k:mailto:mei@example.com
        X-LONG-KEPT:long kept value long kept value long kept value long kept value
          long kept value long kept value long kept value long kept value with üml
         auts at the fold
        BEGIN:VALARM
        TRIGGER:-PT15M
        X-CHIME-MISSED-WINDOW:PT10M
        ACTION:AUDIO
        ATTACH;FMTTYPE=audio/basic:ftp://example.com/pub/sounds/bell-01.aud
        REPEAT:2
        DURATION:PT5M
        END:VALARM
        BEGIN:VALARM
        TRIGGER;VALUE=DATE-TIME:20260302T080000Z
        X-CHIME-DWELL:PT2M
        ACTION:DISPLAY
        DESCRIPTION:Reminder
        END:VALARM
        BEGIN:VALARM
        X-APPLE-PROXIMITY:ARRIVE
        X-APPLE-STRUCTURED-LOCATION;VALUE=URI;X-APPLE-RADIUS=70;X-TITLE="Alexanderp
         latz 1; Berlin":geo:52.5219,13.4132
        X-CHIME-DWELL:PT5M
        X-CHIME-FIRST-FIX:TRUE
        TRIGGER;VALUE=DATE-TIME:19760401T005545Z
        ACTION:DISPLAY
        DESCRIPTION:Reminder
        END:VALARM
        BEGIN:X-KEPT-COMPONENT
        X-INSIDE:1
        END:X-KEPT-COMPONENT
        END:VEVENT
        BEGIN:VEVENT
        UID:team\,sync\\1@example.com
        DTSTAMP:20261202T000000Z
        DTSTART;TZID=Europe/Berlin:20260311T100000
        DTEND;TZID=Europe/Berlin:20260311T103000
        RECURRENCE-ID;TZID=Europe/Berlin;X-RANGE-NOTE=kept:20260311T093000
        SUMMARY:Stand-up (moved)
        SEQUENCE:1
        END:VEVENT
        BEGIN:VEVENT
        UID:00000000000000000000000000000004@chime
        DTSTAMP:20261202T000000Z
        DTSTART;VALUE=DATE:20261224
        DTEND;VALUE=DATE:20261227
        SUMMARY:Holiday
        BEGIN:VALARM
        TRIGGER:PT9H
        ACTION:DISPLAY
        DESCRIPTION:Reminder
        END:VALARM
        END:VEVENT
        BEGIN:VEVENT
        UID:00000000000000000000000000000005@chime
        DTSTAMP:20261202T000000Z
        DTSTART:20260601T070000
        DTEND:20260601T071500
        SUMMARY:Wake up
        RRULE:FREQ=DAILY;UNTIL=20260630
        RDATE:20260704T080000
        END:VEVENT
        BEGIN:VEVENT
        UID:00000000000000000000000000000006@chime
        DTSTAMP:20261202T000000Z
        DTSTART:20260505T160000Z
        DTEND:20260505T164500Z
        SUMMARY:Call
        END:VEVENT
        BEGIN:VEVENT
        UID:elsewhere@example.com
        DTSTAMP:20261202T000000Z
        DTSTART;TZID=America/New_York:20260401T140000
        DTEND;TZID=America/New_York:20260401T150000
        SUMMARY:Occurrence of a series not exported
        END:VEVENT
        BEGIN:VTODO
        UID:rent@example.com
        DTSTAMP:20261202T000000Z
        DTSTART;TZID=America/New_York:20260101T090000
        DUE;TZID=America/New_York:20260101T170000
        SUMMARY:Pay rent\, monthly
        DESCRIPTION:Transfer to account\; ref 42
        PRIORITY:5
        STATUS:COMPLETED
        COMPLETED:20260101T204000Z
        RRULE:FREQ=MONTHLY;BYMONTHDAY=1
        LAST-MODIFIED:20251231T165320Z
        PERCENT-COMPLETE:100
        CATEGORIES:Home,Money
        BEGIN:VALARM
        TRIGGER;RELATED=END:-PT1H
        ACTION:DISPLAY
        DESCRIPTION:Reminder
        END:VALARM
        END:VTODO
        BEGIN:VTODO
        UID:rent@example.com
        RECURRENCE-ID;TZID=America/New_York:20260201T170000
        SUMMARY:Pay rent (February)
        END:VTODO
        BEGIN:VTODO
        UID:00000000000000000000000000000008@chime
        DTSTAMP:20261202T000000Z
        DUE;VALUE=DATE:20260203
        SUMMARY:Call back
        SEQUENCE:2
        X-KEPT:yes
        END:VTODO
        END:VCALENDAR
        """#.replacingOccurrences(of: "\n", with: "\r\n") + "\r\n"

    @Test("export writes the same bytes for items with every property, kept lines and kept components, straight or through the tree")
    func richItems() throws {
        let (events, reminders) = (try Self.events(), try Self.reminders())
        let straight = try ICalendarItems.text(events: events, reminders: reminders, stamp: Self.stamp)
        #expect(String(decoding: straight, as: UTF8.self) == Self.expected)
        let tree = ICalendarItems.components(events: events, reminders: reminders, stamp: Self.stamp)
        #expect(try ICalendarWriter.write(tree) == straight)
        #expect(try ICalendarReader().read(straight).components == [tree])
    }

    @Test("the calendar's own properties follow PRODID and its VTIMEZONEs come before the items, for the zones they use")
    func calendarParts() throws {
        let (events, reminders) = (try Self.events(), try Self.reminders())
        let name = ICalendarProperty(name: "X-WR-CALNAME", value: "Work")
        func zone(_ tzid: String, _ years: ClosedRange<Int>) -> ICalendarComponent? {
            ICalendarComponent(name: "VTIMEZONE", properties: [ICalendarProperty(name: "TZID", value: tzid),
                                                               ICalendarProperty(name: "X-YEARS", value: "\(years.lowerBound)-\(years.upperBound)")])
        }
        let bytes = try ICalendarItems.text(events: events, reminders: reminders, stamp: Self.stamp, properties: [name], vtimezone: zone)
        let lines = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n")
        #expect(Array(lines[0..<12]) == [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Chime//Chime \(ChimeVersion.current)//EN", "X-WR-CALNAME:Work",
            "BEGIN:VTIMEZONE", "TZID:America/New_York", "X-YEARS:2026-2026", "END:VTIMEZONE",
            "BEGIN:VTIMEZONE", "TZID:Europe/Berlin", "X-YEARS:2026-2026", "END:VTIMEZONE",
        ])
        #expect(lines[12] == "BEGIN:VEVENT")
        let tree = ICalendarItems.components(events: events, reminders: reminders, stamp: Self.stamp, properties: [name], vtimezone: zone)
        #expect(try ICalendarWriter.write(tree) == bytes)
    }

    /// `count` copies of the rich events under identifiers of their own
    /// (each copy's series, occurrence and orphan), with an event in
    /// Shanghai in 2020 first and one in 2030 last, so that the two halves
    /// of a concurrent write use the same zone over different years.
    static func manyEvents(_ count: Int) throws -> [Event] {
        func copy(_ event: Event, _ index: Int) -> Event {
            var copy = event
            copy.identifier = ItemIdentifier(high: UInt64(index + 1), low: event.identifier.low)
            copy.seriesIdentifier = event.seriesIdentifier.map { ItemIdentifier(high: UInt64(index + 1), low: $0.low) }
            return copy
        }
        func shanghai(_ year: Int, _ last: Int) -> Event {
            Event(identifier: identifier(last), calendarIdentifier: calendar, title: "Trip \(year)",
                  start: .zoned(local(year, 5, 1, 9), zone: "Asia/Shanghai"), end: .zoned(local(year, 5, 1, 10), zone: "Asia/Shanghai"))
        }
        let rich = try events()
        return [shanghai(2020, 0xA0)] + (0..<count).flatMap { index in rich.map { copy($0, index) } } + [shanghai(2030, 0xA1)]
    }

    @Test("written in two halves at once, a calendar is byte for byte the one written whole, with one VTIMEZONE a zone over the years of both halves")
    func concurrentHalves() throws {
        let (events, reminders) = (try Self.manyEvents(40), try Self.reminders())
        func zone(_ tzid: String, _ years: ClosedRange<Int>) -> ICalendarComponent? {
            ICalendarComponent(name: "VTIMEZONE", properties: [ICalendarProperty(name: "TZID", value: tzid),
                                                               ICalendarProperty(name: "X-YEARS", value: "\(years.lowerBound)-\(years.upperBound)")])
        }
        let whole = try ICalendarItems.text(events: events, reminders: reminders, stamp: Self.stamp, vtimezone: zone, concurrentPieces: .max)
        let halves = try ICalendarItems.text(events: events, reminders: reminders, stamp: Self.stamp, vtimezone: zone, concurrentPieces: 2)
        #expect(halves == whole)
        let text = String(decoding: halves, as: UTF8.self)
        #expect(text.contains("TZID:Asia/Shanghai\r\nX-YEARS:2020-2030\r\n"))
        #expect(text.components(separatedBy: "BEGIN:VTIMEZONE").count - 1 == 3, "one VTIMEZONE a zone: Shanghai, Berlin, New York")
        #expect(text.components(separatedBy: "BEGIN:VEVENT").count - 1 == events.count)
        #expect(try ICalendarReader().read(halves).components == [ICalendarItems.components(events: events, reminders: reminders,
                                                                                            stamp: Self.stamp, vtimezone: zone)])
    }

    @Test("written in two halves at once, the refusal is the one a write of the whole meets first, in either half")
    func concurrentRefusal() throws {
        var events = try Self.manyEvents(10)
        func broken(_ url: String) -> Event {
            Event(identifier: Self.identifier(0xB0 + url.count % 16), calendarIdentifier: Self.calendar, title: "Broken", url: url,
                  start: .floating(Self.local(2026, 1, 1, 9)), end: .floating(Self.local(2026, 1, 1, 10)))
        }
        let lineBreak = ICalendarWriteError(component: "VEVENT", property: "URL",
                                            reason: "the value holds a line break, which a content line cannot (TEXT writes it as \\n)")
        let bell = ICalendarWriteError(component: "VEVENT", property: "URL",
                                       reason: "the value holds the control character U+0007, which no content line may (TEXT writes it as U+FFFD)")
        events.append(broken("https://example.com/\u{07}bell"))
        #expect(throws: bell) { try ICalendarItems.text(events: events, reminders: [], stamp: Self.stamp, concurrentPieces: 2) }
        events.insert(broken("https://example.com/\nnext"), at: 1)
        #expect(throws: lineBreak) { try ICalendarItems.text(events: events, reminders: [], stamp: Self.stamp, concurrentPieces: .max) }
        #expect(throws: lineBreak) { try ICalendarItems.text(events: events, reminders: [], stamp: Self.stamp, concurrentPieces: 2) }
    }

    @Test("a URL with a line break is refused naming the event's URL, as the writer refuses it")
    func refusal() throws {
        let event = Event(identifier: Self.identifier(9), calendarIdentifier: Self.calendar, title: "Broken",
                          url: "https://example.com/\nnext", start: .floating(Self.local(2026, 1, 1, 9)), end: .floating(Self.local(2026, 1, 1, 10)))
        let expected = ICalendarWriteError(component: "VEVENT", property: "URL",
                                           reason: "the value holds a line break, which a content line cannot (TEXT writes it as \\n)")
        #expect(throws: expected) { try ICalendarItems.text(events: [event], reminders: [], stamp: Self.stamp) }
        #expect(throws: expected) { try ICalendarWriter.write(ICalendarItems.components(events: [event], reminders: [], stamp: Self.stamp)) }
    }
}
