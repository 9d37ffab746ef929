import CalendarModel
import Foundation
import ICalendar
import Testing

/// Inputs the `icalendar` fuzz target (contrib/fuzz) found wrong, each kept
/// in Fuzz/corpus/icalendar too.
@Suite("iCalendar items: what fuzzing found")
struct ICalendarItemsFuzzFindingsTests {
    static let calendar = ItemIdentifier("fedcba9876543210fedcba9876543210")!
    static let stamp = Date(timeIntervalSince1970: 1_796_169_600) // 2026-12-02T00:00:00Z

    static func items(_ text: String) throws -> ICalendarItems.Result {
        let reading = try ICalendarReader().read(text)
        let vcalendar = try #require(reading.components.first { $0.name == "VCALENDAR" })
        return ICalendarItems.read(calendar: vcalendar, into: calendar, zones: IANAZoneResolver())
    }

    @Test("a VTODO nested in a VTODO stays inside it on export, so importing the export adds no reminder")
    func nestedTodoIsNotHoisted() throws {
        let first = try Self.items("BEGIN:VCALENDAR\nBEGIN:VTODO\nBEGIN:VTODO\r\nEND:VTODO\r\nEND:VTODO")
        #expect(first.reminders.count == 1)
        let exported = ICalendarItems.components(events: [], reminders: first.reminders, stamp: Self.stamp)
        #expect(exported.components.map(\.name) == ["VTODO"])
        #expect(exported.components.first?.components.map(\.name) == ["VTODO"])
        let again = ICalendarItems.read(calendar: exported, into: Self.calendar, zones: IANAZoneResolver())
        #expect(again.problems.isEmpty)
        #expect(again.reminders.map(\.identifier) == first.reminders.map(\.identifier))
    }
}

extension ICalendarItemsFuzzFindingsTests {
    @Test("two RDATEs with parameters Chime does not know export as one list, so each round trip keeps the same dates")
    func keptSecondRDateIsNotWrittenAgain() throws {
        let first = try Self.items("BEGIN:VCALENDAR\nBEGIN:VEVENT\r\nUID:rdates@chime.test\nDTSTART;X-A=1:20261201\n"
                                   + "RDATE;X-B=2:20261203\nRDATE;X-C=3:20261205\nEND:VEVENT\r\nEND:VCALENDAR")
        let dates = [CivilDate(year: 2026, month: 12, day: 3)!, CivilDate(year: 2026, month: 12, day: 5)!] // 2026-12-03, 2026-12-05
        #expect(first.events.first?.extraDates.map(\.date) == dates)
        var events = first.events
        for _ in 1...2 {
            let exported = ICalendarItems.components(events: events, reminders: [], stamp: Self.stamp)
            #expect(exported.components.first?.properties(named: "RDATE").map(\.value) == ["20261203,20261205"])
            let again = ICalendarItems.read(calendar: exported, into: Self.calendar, zones: IANAZoneResolver())
            #expect(again.problems.isEmpty)
            #expect(again.events.first?.extraDates.map(\.date) == dates)
            events = again.events
        }
    }
}

extension ICalendarItemsFuzzFindingsTests {
    @Test("an override holding a component with a UID of its own is still exported with the series' UID")
    func nestedUIDIsNotTheOverridesUID() throws {
        let first = try Self.items("""
            BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:weekly-1\r\nDTSTART;TZID=Europe/Berlin:20261201T100000\r\nRRULE:FREQ=WEEKLY;COUNT=3\r\nEND:VEVENT\r
            BEGIN:VEVENT\r\nUID:weekly-1\r\nRECURRENCE-ID;TZID=Europe/Berlin:20261208T100000\r\nDTSTART;TZID=Europe/Berlin:20261208T140000\r
            BEGIN:VJOURNAL\r\nUID:journal-1\r\nEND:VJOURNAL\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n
            """)
        #expect(first.problems.isEmpty)
        let exported = ICalendarItems.components(events: first.events, reminders: [], stamp: Self.stamp)
        #expect(exported.components.map { $0["UID"]?.value } == ["weekly-1", "weekly-1"])
        let again = ICalendarItems.read(calendar: exported, into: Self.calendar, zones: IANAZoneResolver())
        #expect(again.problems.isEmpty)
        #expect(again.events.count == first.events.count)
    }
}

extension ICalendarItemsFuzzFindingsTests {
    @Test("a kept RECURRENCE-ID's TZID is not lent to the UTC time written for it, so the export reads back without problems")
    func keptTZIDIsNotLentToAUTCTime() throws {
        let first = try Self.items("""
            BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:weekly-1\r\nDTSTART:20261201T100000Z\r\nRRULE:FREQ=WEEKLY;COUNT=3\r\nEND:VEVENT\r
            BEGIN:VEVENT\r\nUID:weekly-1\r\nRECURRENCE-ID;X-NOTE=1;TZID=Nowhere/Unknown:20261208T100000Z\r\nDTSTART:20261208T140000Z\r
            END:VEVENT\r\nEND:VCALENDAR\r\n
            """)
        #expect(first.problems.isEmpty)
        let exported = ICalendarItems.components(events: first.events, reminders: [], stamp: Self.stamp)
        let recurrenceID = try #require(exported.components.compactMap { $0["RECURRENCE-ID"] }.first)
        #expect(recurrenceID[parameter: "TZID"] == nil)
        let again = ICalendarItems.read(calendar: exported, into: Self.calendar, zones: IANAZoneResolver())
        #expect(again.problems.isEmpty)
        #expect(again.events.count == first.events.count)
    }

    @Test("a kept TRIGGER's RELATED=END is not lent to the start-based offset written for it, so each round trip rings at the same moment")
    func keptRelatedIsNotLentToAStartBasedTrigger() throws {
        // 2026-12-03T06:00Z–07:00Z; the alarm rings 90 minutes after the end, 08:30Z.
        let first = try Self.items("""
            BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:review-1\r\nDTSTART:20261203T060000Z\r\nDTEND:20261203T070000Z\r\nSUMMARY:Review\r
            BEGIN:VALARM\r\nTRIGGER;RELATED=END;X-NOTE=kept:PT1H30M\r\nACTION:DISPLAY\r\nDESCRIPTION:Soon\r\nEND:VALARM\r
            END:VEVENT\r\nEND:VCALENDAR\r\n
            """)
        #expect(first.problems.isEmpty)
        #expect(first.events.first?.alarms.first?.trigger == .relative(seconds: 9_000))
        var events = first.events
        for round in 1...2 {
            let exported = ICalendarItems.components(events: events, reminders: [], stamp: Self.stamp)
            let again = ICalendarItems.read(calendar: exported, into: Self.calendar, zones: IANAZoneResolver())
            #expect(again.problems.isEmpty)
            #expect(again.events.first?.alarms.first?.trigger == .relative(seconds: 9_000), "round \(round)")
            events = again.events
        }
    }

    @Test("a UID with backslashes, commas and semicolons is escaped on export as it was unescaped on import, so round trips keep it")
    func uidIsEscapedAsText() throws {
        let first = try Self.items("""
            BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\\\\b\\,c\\;d\r\nDTSTART:20261203T060000Z\r\nSUMMARY:Review\r\nEND:VEVENT\r
            BEGIN:VTODO\r\nUID:t\\\\1\r\nSUMMARY:Task\r\nEND:VTODO\r\nEND:VCALENDAR\r\n
            """)
        #expect(first.problems.isEmpty)
        #expect(first.events.first?.externalKey == "a\\b,c;d")
        #expect(first.reminders.first?.externalKey == "t\\1")
        var (events, reminders) = (first.events, first.reminders)
        for round in 1...2 {
            let exported = ICalendarItems.components(events: events, reminders: reminders, stamp: Self.stamp)
            let again = ICalendarItems.read(calendar: exported, into: Self.calendar, zones: IANAZoneResolver())
            #expect(again.problems.isEmpty)
            #expect(again.events.map(\.externalKey) == ["a\\b,c;d"], "round \(round)")
            #expect(again.reminders.map(\.externalKey) == ["t\\1"], "round \(round)")
            (events, reminders) = (again.events, again.reminders)
        }
    }
}

extension ICalendarItemsFuzzFindingsTests {
    @Test("a VTODO with a RECURRENCE-ID nested in a VTODO of another UID stays inside it, so the export names no missing series")
    func nestedOccurrenceOfAnotherUIDIsNotHoisted() throws {
        let text = "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:outer-1\r\nSUMMARY:Outer\r\n"
            + "BEGIN:VTODO\r\nUID:inner-1\r\nRECURRENCE-ID:20261208T100000Z\r\nEND:VTODO\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        let first = try Self.items(text)
        #expect(first.problems.isEmpty)
        var reminders = first.reminders
        for _ in 1...2 {
            let exported = ICalendarItems.components(events: [], reminders: reminders, stamp: Self.stamp)
            #expect(exported.components.map { $0["UID"]?.value } == ["outer-1"])
            #expect(exported.components.first?.components.map { $0["UID"]?.value } == ["inner-1"])
            let again = ICalendarItems.read(calendar: exported, into: Self.calendar, zones: IANAZoneResolver())
            #expect(again.problems.isEmpty)
            #expect(again.reminders.map(\.externalKey) == ["outer-1"])
            reminders = again.reminders
        }
    }

    @Test("a VTODO occurrence the file nested in its own series goes beside the series on export and joins it again on import")
    func nestedOccurrenceOfTheSameUIDJoinsItsSeries() throws {
        let text = "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:weekly-todo\r\nDUE:20261201T100000Z\r\nRRULE:FREQ=WEEKLY;COUNT=3\r\n"
            + "BEGIN:VTODO\r\nUID:weekly-todo\r\nRECURRENCE-ID:20261208T100000Z\r\nSUMMARY:Moved\r\nEND:VTODO\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        let first = try Self.items(text)
        let exported = ICalendarItems.components(events: [], reminders: first.reminders, stamp: Self.stamp)
        #expect(exported.components.map { $0["UID"]?.value } == ["weekly-todo", "weekly-todo"])
        #expect(exported.components.last?["RECURRENCE-ID"]?.value == "20261208T100000Z")
        let again = ICalendarItems.read(calendar: exported, into: Self.calendar, zones: IANAZoneResolver())
        #expect(again.problems.isEmpty)
        #expect(again.reminders.count == 1)
    }
}

extension ICalendarItemsFuzzFindingsTests {
    /// A reminder whose kept lines hold a 100 % that is not its own: an X-
    /// property whose name ends in PERCENT-COMPLETE, and a kept occurrence's.
    static let keptHundreds = """
        BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:call-1\r\nSUMMARY:Call back\r\nX-WR-PERCENT-COMPLETE:100\r
        RRULE:FREQ=WEEKLY;COUNT=3\r\nDUE:20261123T093000Z\r
        BEGIN:VTODO\r\nUID:call-1\r\nRECURRENCE-ID:20261130T093000Z\r\nPERCENT-COMPLETE:100\r\nEND:VTODO\r
        END:VTODO\r\nEND:VCALENDAR\r\n
        """

    @Test("exporting an open reminder keeps another property's 100 % and a kept occurrence's whole, so its export reads back the same")
    func openReminderKeepsOtherHundreds() throws {
        let first = try Self.items(Self.keptHundreds)
        #expect(first.problems.isEmpty)
        #expect(first.reminders.map(\.isCompleted) == [false])
        var reminders = first.reminders
        for _ in 1...2 {
            let exported = ICalendarItems.components(events: [], reminders: reminders, stamp: Self.stamp)
            let todo = try #require(exported.components.first)
            #expect(todo.properties(named: "X-WR-PERCENT-COMPLETE").map(\.value) == ["100"])
            #expect(todo.properties(named: "RECURRENCE-ID").isEmpty)
            // The kept occurrence goes beside its series, whole.
            #expect(exported.components.dropFirst().map { $0["RECURRENCE-ID"]?.value } == ["20261130T093000Z"])
            #expect(exported.components.dropFirst().map { $0["PERCENT-COMPLETE"]?.value } == ["100"])
            let again = ICalendarItems.read(calendar: exported, into: Self.calendar, zones: IANAZoneResolver())
            #expect(again.problems.isEmpty)
            #expect(again.reminders.map(\.origin?.unmodelled) == first.reminders.map(\.origin?.unmodelled))
            reminders = again.reminders
        }
    }

    @Test("a reminder reopened in Chime leaves out its own 100 % however it was written, and nothing else", arguments: [
        "PERCENT-COMPLETE:100", "PERCENT-COMPLETE: 100", "PERCENT-COMPLETE;X-FROM=phone:100", "percent-complete:100",
    ])
    func reopenedReminderLeavesOutItsHundred(line: String) throws {
        let text = Self.keptHundreds.replacingOccurrences(of: "SUMMARY:Call back\r\n", with: "SUMMARY:Call back\r\n\(line)\r\n")
        let first = try Self.items(text)
        #expect(first.problems.isEmpty)
        var reminder = try #require(first.reminders.first)
        #expect(reminder.isCompleted)
        reminder.isCompleted = false
        let reminders = [reminder]
        let exported = ICalendarItems.components(events: [], reminders: reminders, stamp: Self.stamp)
        let todo = try #require(exported.components.first)
        #expect(todo.properties(named: "PERCENT-COMPLETE").isEmpty)
        #expect(todo.properties(named: "X-WR-PERCENT-COMPLETE").map(\.value) == ["100"])
        #expect(exported.components.dropFirst().map { $0["PERCENT-COMPLETE"]?.value } == ["100"])
        let again = ICalendarItems.read(calendar: exported, into: Self.calendar, zones: IANAZoneResolver())
        #expect(again.problems.isEmpty)
        #expect(again.reminders.map(\.isCompleted) == [false])
    }

    @Test("a reminder completed in Chime says 100 % where its file kept a lower one, and stays completed; one that kept none gets none", arguments: [
        ("PERCENT-COMPLETE:50", ["100"]), ("PERCENT-COMPLETE;X-FROM=phone:0", ["100"]), ("PERCENT-COMPLETE: 100", [" 100"]),
        ("X-NOTHING:1", []),
    ])
    func completedReminderSaysHundred(line: String, expected: [String]) throws {
        let text = Self.keptHundreds.replacingOccurrences(of: "SUMMARY:Call back\r\n", with: "SUMMARY:Call back\r\n\(line)\r\n")
        let first = try Self.items(text)
        #expect(first.problems.isEmpty)
        var reminder = try #require(first.reminders.first)
        reminder.isCompleted = true
        reminder.completionDate = Self.stamp
        var reminders = [reminder]
        for _ in 1...2 {
            let exported = ICalendarItems.components(events: [], reminders: reminders, stamp: Self.stamp)
            let todo = try #require(exported.components.first)
            #expect(todo["STATUS"]?.value == "COMPLETED")
            #expect(todo.properties(named: "PERCENT-COMPLETE").map(\.value) == expected)
            // Another property's 100 and the kept occurrence's stay as they were.
            #expect(todo.properties(named: "X-WR-PERCENT-COMPLETE").map(\.value) == ["100"])
            #expect(exported.components.dropFirst().map { $0["PERCENT-COMPLETE"]?.value } == ["100"])
            let again = ICalendarItems.read(calendar: exported, into: Self.calendar, zones: IANAZoneResolver())
            #expect(again.problems.isEmpty)
            #expect(again.reminders.map(\.isCompleted) == [true])
            reminders = again.reminders
        }
    }
}

extension ICalendarItemsFuzzFindingsTests {
    /// A weekly series from 2026-12-01 10:00 in Berlin with the THISANDFUTURE overrides given as (RECURRENCE-ID, DTSTART).
    static func split(_ overrides: [(String, String)], exdates: String = "20261222T100000") -> String {
        var text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:weekly-1\r\nDTSTAMP:20261201T000000Z\r\n"
            + "DTSTART;TZID=Europe/Berlin:20261201T100000\r\nDTEND;TZID=Europe/Berlin:20261201T110000\r\nRRULE:FREQ=WEEKLY\r\n"
            + "EXDATE;TZID=Europe/Berlin:\(exdates)\r\nSUMMARY:Review\r\nEND:VEVENT\r\n"
        for (recurrenceID, start) in overrides {
            text += "BEGIN:VEVENT\r\nUID:weekly-1\r\nDTSTAMP:20261201T000000Z\r\n"
                + "RECURRENCE-ID;RANGE=THISANDFUTURE;TZID=Europe/Berlin:\(recurrenceID)\r\n"
                + "DTSTART;TZID=Europe/Berlin:\(start)\r\nSUMMARY:Moved\r\nEND:VEVENT\r\n"
        }
        return text + "END:VCALENDAR\r\n"
    }

    /// Exports `items` and reads them back twice: no problems, the same items each time.
    static func roundTrips(_ first: ICalendarItems.Result) {
        var events = first.events
        for _ in 1...2 {
            let exported = ICalendarItems.components(events: events, reminders: [], stamp: Self.stamp)
            let again = ICalendarItems.read(calendar: exported, into: Self.calendar, zones: IANAZoneResolver())
            #expect(again.problems.isEmpty, "\(again.problems)")
            #expect(again.events.count == events.count)
            events = again.events
        }
    }

    @Test("a THISANDFUTURE cut before the series' start is a problem, not a thousand-year shift carried into the next cut's rule")
    func cutBeforeTheStartIsAProblem() throws {
        // 1023-06-07 is no occurrence of a series from 2026; as a cut it
        // shifted the rest by 1003 years and the next cut's UNTIL to year 10050.
        let first = try Self.items(Self.split([("10230607T100000", "20261214T140000"), ("20461215T100000", "20461215T150000")]))
        #expect(first.problems.map(\.reason) == ["cuts the series at 1023-06-07T10:00:00, before its start 2026-12-01T10:00:00"])
        #expect(first.problems.map(\.line) == [11])
        #expect(first.events.map(\.start.wallClock.description) == ["2026-12-01T10:00:00", "2046-12-15T15:00:00"])
        #expect(first.events.first?.recurrenceRule?.rfc5545 == "FREQ=WEEKLY;UNTIL=20461215T085959Z")
        Self.roundTrips(first)
    }

    @Test("a cut whose shifted clock passes year 9999 is a problem, and the parts before it export and read back clean")
    func cutPastYear9999IsAProblem() throws {
        // The first override moves the series to the last weeks of 9999, the second cut falls after them.
        let first = try Self.items(Self.split([("20261208T100000", "99991201T100000"), ("20270202T100000", "20270202T120000")],
                                              exdates: "20261222T100000,20270112T100000"))
        #expect(first.problems.map(\.line) == [18])
        #expect(first.problems.first?.reason.contains("year 9999") == true, "\(first.problems)")
        #expect(first.events.map(\.start.wallClock.description) == ["2026-12-01T10:00:00", "9999-12-01T10:00:00"])
        // The moved exception dates: 2026-12-22 is 9999-12-15, 2027-01-12 would be in year 10000 and is no date of the part.
        #expect(first.events.last?.exceptionDates.map(\.description) == ["9999-12-15T10:00:00"])
        Self.roundTrips(first)
    }
}
