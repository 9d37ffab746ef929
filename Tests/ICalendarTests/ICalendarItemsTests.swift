import CalendarModel
import Foundation
import ICalendar
import TestSupport
import Testing

@Suite("iCalendar components to Chime's items and back")
struct ICalendarItemsTests {
    static let calendar = ItemIdentifier("0123456789abcdef0123456789abcdef")!
    static let stamp = Date(timeIntervalSince1970: 1_796_169_600) // 2026-12-02T00:00:00Z

    /// A fixture of items/ as a VCALENDAR; fails when it is missing.
    static func fixture(_ name: String) throws -> ICalendarComponent {
        let path = PackagePaths.root + "/Tests/ICalendarTests/Fixtures/items/" + name
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let read = try ICalendarComponent.readUnmodelled(text)
        return try #require(read.components.first { $0.name == "VCALENDAR" })
    }

    static func read(_ name: String, floating: String? = nil) throws -> ICalendarItems.Result {
        ICalendarItems.read(calendar: try fixture(name), into: calendar, zones: IANAZoneResolver(floatingZone: floating))
    }

    /// `lines`, a VCALENDAR whose weekly series (`this-and-future.ics`) is cut
    /// once at 2026-12-15T10:00 Berlin, read as items: the result (with no
    /// problems), the series' entry and its one later part; the series
    /// before the cut ends with UNTIL.
    static func readSplit(_ lines: [String], sourceLocation: SourceLocation = #_sourceLocation) throws
        -> (ICalendarItems.Result, ICalendarItems.Entry, Event) {
        let reading = try ICalendarReader().read(Array((lines.joined(separator: "\r\n") + "\r\n").utf8))
        let result = ICalendarItems.read(calendar: try #require(reading.components.first, sourceLocation: sourceLocation),
                                         into: calendar, zones: IANAZoneResolver())
        #expect(result.problems.isEmpty, "\(result.problems)", sourceLocation: sourceLocation)
        let entry = try #require(result.entries.first, sourceLocation: sourceLocation)
        let event: Event? = if case .event(let event) = entry.item { event } else { nil }
        let series = try #require(event, "not an event", sourceLocation: sourceLocation)
        #expect(series.recurrenceRule?.rfc5545 == "FREQ=WEEKLY;UNTIL=20261215T085959Z", sourceLocation: sourceLocation)
        try #require(entry.followingSeries.count == 1, "\(entry.followingSeries.map(\.title))", sourceLocation: sourceLocation)
        return (result, entry, entry.followingSeries[0])
    }

    static func roundTrip(_ first: ICalendarItems.Result) -> (ICalendarComponent, ICalendarItems.Result, ICalendarComponent) {
        let exported = ICalendarItems.components(events: first.events, reminders: first.reminders, stamp: stamp)
        let again = ICalendarItems.read(calendar: exported, into: calendar, zones: IANAZoneResolver())
        let exportedAgain = ICalendarItems.components(events: again.events, reminders: again.reminders, stamp: stamp)
        return (exported, again, exportedAgain)
    }

    @Test("a Google recurring event keeps its rule, exception, zone, override and alarm")
    func googleRecurring() throws {
        let result = try Self.read("google-recurring.ics")
        #expect(result.problems.isEmpty)
        let entry = try #require(result.entries.first)
        guard case .event(let series) = entry.item else { Issue.record("not an event"); return }
        let nine = LocalDateTime(date: CivilDate(year: 2026, month: 12, day: 7)!, hour: 9)! // 2026-12-07T09:00
        #expect(series.start == .zoned(nine, zone: "Asia/Shanghai"))
        #expect(series.title == "Stand-up, daily")
        #expect(series.notes == "Line one\nLine two")
        #expect(series.location == "Room 4")
        #expect(series.externalKey == "standup@google.com")
        #expect(series.recurrenceRule?.rfc5545 == "FREQ=WEEKLY;BYDAY=MO")
        #expect(series.exceptionDates == [LocalDateTime(date: CivilDate(year: 2026, month: 12, day: 14)!, hour: 9)!]) // 2026-12-14T09:00
        #expect(series.alarms.map(\.trigger) == [.relative(seconds: -600)])
        #expect(series.origin?.sequence == 2)
        #expect(series.origin?.lastModified == 1_796_040_000) // 2026-11-30T12:00:00Z
        #expect(series.origin?.unmodelled.contains("X-GOOGLE-CONFERENCE:https://meet.example/abc\r\n") == true)
        #expect(series.origin?.unmodelled.contains("SUMMARY;LANGUAGE=en:") == true)
        let occurrence = try #require(entry.detached.first)
        #expect(occurrence.seriesIdentifier == series.identifier)
        #expect(occurrence.originalStart == LocalDateTime(date: CivilDate(year: 2026, month: 12, day: 21)!, hour: 9)!) // 2026-12-21T09:00
        #expect(occurrence.title == "Stand-up (moved)")
        #expect(occurrence.externalKey == nil)
    }

    @Test("importing the same file twice gives the same identifiers")
    func stableIdentifiers() throws {
        let first = try Self.read("google-recurring.ics")
        let second = try Self.read("google-recurring.ics")
        #expect(first == second)
        let other = ICalendarItems.read(calendar: try Self.fixture("google-recurring.ics"), into: ItemIdentifier("fedcba9876543210fedcba9876543210")!,
                                        zones: IANAZoneResolver())
        #expect(other.events.map(\.identifier) != first.events.map(\.identifier))
    }

    @Test("an Outlook event keeps attendees and X-MICROSOFT-CDO lines; an END alarm with REPEAT becomes three start offsets")
    func outlook() throws {
        let result = try Self.read("outlook.ics")
        #expect(result.problems.isEmpty)
        guard case .event(let meeting) = try #require(result.entries.first).item else { Issue.record("not an event"); return }
        #expect(meeting.start == .zoned(LocalDateTime(date: CivilDate(year: 2026, month: 12, day: 3)!, hour: 6)!, zone: "UTC")) // 2026-12-03T06:00Z
        let unmodelled = try #require(meeting.origin?.unmodelled)
        #expect(unmodelled.contains("ATTENDEE;CN=Ana;ROLE=REQ-PARTICIPANT"))
        #expect(unmodelled.contains("ORGANIZER;CN=\"Li, Wei\":mailto:wei@example.com"))
        #expect(unmodelled.contains("X-MICROSOFT-CDO-BUSYSTATUS:BUSY"))
        // One hour long, 15 minutes before the end: 45 minutes after the start, then 5 and 10 minutes later.
        #expect(meeting.alarms.map(\.trigger) == [.relative(seconds: 2700), .relative(seconds: 3000), .relative(seconds: 3300)])
        #expect(meeting.alarms[0].unmodelled.contains("ACTION:EMAIL"))
        guard case .event(let days) = result.entries[1].item else { Issue.record("not an event"); return }
        #expect(days.start == .date(CivilDate(year: 2026, month: 12, day: 24)!)) // 2026-12-24
        #expect(days.end == .date(CivilDate(year: 2026, month: 12, day: 25)!)) // 2026-12-25, inclusive
        #expect(days.structuredLocation == (try StructuredLocation(latitude: 31.2304, longitude: 121.4737)))
    }

    @Test("an iPhone location reminder becomes a leave alarm at the office; a completed one keeps its completion")
    func iphoneReminder() throws {
        let result = try Self.read("iphone-reminder.ics")
        #expect(result.problems.isEmpty)
        let reminders = result.reminders
        try #require(reminders.count == 2)
        let office = try StructuredLocation(title: "Office", latitude: 31.2304, longitude: 121.4737, radius: 100)
        #expect(reminders[0].alarms.map(\.trigger) == [.proximity(office, .leave), .relative(seconds: -1800)])
        #expect(reminders[0].priority == 1)
        #expect(reminders[0].due == .zoned(LocalDateTime(date: CivilDate(year: 2026, month: 12, day: 2)!, hour: 18)!, zone: "Asia/Shanghai"))
        #expect(reminders[1].isCompleted)
        #expect(reminders[1].completionDate == Date(timeIntervalSince1970: 1_796_031_000)) // 2026-11-30T09:30:00Z
    }

    @Test("a VTODO's LOCATION and URL are the reminder's location and link, written back as they came, an unknown parameter with them")
    func reminderLocationAndURL() throws {
        let lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN",
                     "BEGIN:VTODO", "UID:parcel@example.org", "DTSTAMP:20261201T000000Z", "SUMMARY:Pick up the parcel",
                     "LOCATION:Post office\\, 中山路", "URL:https://example.com/track?id=1", "DUE;TZID=Asia/Shanghai:20261208T170000",
                     "END:VTODO",
                     "BEGIN:VTODO", "UID:odd@example.org", "DTSTAMP:20261201T000000Z", "SUMMARY:Odd", "URL;X-KIND=a:https://example.com/",
                     "END:VTODO", "END:VCALENDAR"]
        let reading = try ICalendarReader().read(Array((lines.joined(separator: "\r\n") + "\r\n").utf8))
        let first = ICalendarItems.read(calendar: try #require(reading.components.first), into: Self.calendar, zones: IANAZoneResolver())
        #expect(first.problems.isEmpty)
        try #require(first.reminders.count == 2)
        #expect(first.reminders[0].location == "Post office, 中山路")
        #expect(first.reminders[0].url == "https://example.com/track?id=1")
        #expect(first.reminders[0].origin?.unmodelled.contains("LOCATION") == false)
        // A parameter the mapping does not know is kept with the line, as for events, and written back on it once.
        #expect(first.reminders[1].url == "https://example.com/")
        #expect(first.reminders[1].origin?.unmodelled.contains("URL;X-KIND=a:https://example.com/") == true)
        let (exported, again, exportedAgain) = Self.roundTrip(first)
        #expect(again.reminders == first.reminders)
        #expect(exportedAgain == exported)
        let parcel = try #require(exported.components.first { $0["UID"]?.value == "parcel@example.org" })
        #expect(parcel["LOCATION"]?.value == "Post office\\, 中山路")
        #expect(parcel["URL"]?.value == "https://example.com/track?id=1")
        let odd = try #require(exported.components.first { $0["UID"]?.value == "odd@example.org" })
        #expect(odd.properties(named: "URL").map { "\($0[parameter: "X-KIND"] ?? "-") \($0.value)" } == ["a https://example.com/"])
    }

    @Test("import, export, import gives equal items, and export, import, export the same components",
          arguments: ["google-recurring.ics", "outlook.ics", "iphone-reminder.ics"])
    func lossless(name: String) throws {
        let first = try Self.read(name)
        let (exported, again, exportedAgain) = Self.roundTrip(first)
        #expect(again.problems.isEmpty)
        #expect(again.events == first.events)
        #expect(again.reminders == first.reminders)
        #expect(exportedAgain == exported)
        #expect(exported["PRODID"]?.value == "-//Chime//Chime \(ChimeVersion.current)//EN")
    }

    @Test("an all-day event's end is exclusive again on export")
    func allDayEnd() throws {
        let (exported, _, _) = Self.roundTrip(try Self.read("outlook.ics"))
        let days = try #require(exported.components.first { $0["UID"]?.value == "holiday-1" })
        #expect(days["DTEND"]?.value == "20261226")
        #expect(days["DTEND"]?[parameter: "VALUE"] == "DATE")
    }

    @Test("an end at the second 01:00 of the night New York falls back is written in UTC, since its TZID form names the first, and reads back the same")
    func endInTheFold() throws {
        // 2027-11-07T01:30 EDT (05:30Z) for 30 minutes: the end is 01:00 EST (06:00Z), the later of the two 01:00s.
        let reading = try ICalendarReader().read(Array("""
            BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VEVENT\r\nUID:fold@test\r\nDTSTAMP:20261201T000000Z\r\n\
            DTSTART;TZID=America/New_York:20271107T013000\r\nDURATION:PT30M\r\nSUMMARY:Night shift handover\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n
            """.utf8))
        let first = ICalendarItems.read(calendar: try #require(reading.components.first), into: Self.calendar, zones: IANAZoneResolver())
        #expect(first.problems.isEmpty)
        let (exported, again, exportedAgain) = Self.roundTrip(first)
        let event = try #require(exported.components.first { $0.name == "VEVENT" })
        #expect(event["DTSTART"]?.value == "20271107T013000" && event["DTSTART"]?[parameter: "TZID"] == "America/New_York")
        #expect(event["DTEND"]?.value == "20271107T060000Z")
        #expect(again.problems.isEmpty, "\(again.problems)")
        let end = try #require(again.events.first?.end)
        #expect(try end.instant(machine: TimeZoneRules.utc) == 1_825_567_200) // 2027-11-07T06:00:00Z
        #expect(exportedAgain == exported)
    }

    @Test("components Chime cannot hold are problems naming the line and UID; the rest still reads")
    func problems() throws {
        let result = try Self.read("broken.ics")
        let uids = result.problems.map { $0.uid ?? "" }
        #expect(uids.contains("no-start"))
        #expect(uids.contains("bad-rule"))
        #expect(uids.contains("far-alarm"))
        #expect(uids.contains("split"))
        #expect(uids.contains("journal"))
        #expect(result.problems.allSatisfy { $0.line > 0 })
        #expect(result.problems.first { $0.uid == "no-start" }?.line == 3)
        // The event without a UID is given one from its content, the same on every read.
        let derived = try #require(result.entries.first?.uid)
        #expect(derived.hasPrefix("chime-") && derived.hasSuffix("@derived"))
        #expect(try Self.read("broken.ics").entries.first?.uid == derived)
    }

    @Test("export writes a repeating alarm as one VALARM with its REPEAT, and a kept parameter back on its property")
    func exportShape() throws {
        let (exported, _, _) = Self.roundTrip(try Self.read("outlook.ics"))
        let meeting = try #require(exported.components.first { $0["UID"]?.value == "040000008200E00074C5B7101A82E008" })
        let alarms = meeting.components(named: "VALARM")
        try #require(alarms.count == 1)
        #expect(alarms[0]["TRIGGER"]?.value == "PT45M")
        #expect(alarms[0]["REPEAT"]?.value == "2")
        #expect(alarms[0]["ACTION"]?.value == "EMAIL")
        let (google, _, _) = Self.roundTrip(try Self.read("google-recurring.ics"))
        let series = try #require(google.components.first { $0.name == "VEVENT" && $0["RECURRENCE-ID"] == nil })
        #expect(series.properties(named: "SUMMARY").count == 1)
        #expect(series["SUMMARY"]?.contentLine == "SUMMARY;LANGUAGE=en:Stand-up\\, daily")
        let occurrence = try #require(google.components.first { $0["RECURRENCE-ID"] != nil })
        #expect(occurrence["RECURRENCE-ID"]?.contentLine == "RECURRENCE-ID;TZID=Asia/Shanghai:20261221T090000")
        #expect(occurrence["UID"]?.value == "standup@google.com")
    }

    @Test("floating times take X-WR-TIMEZONE's zone when the calendar names one, and DURATION gives the end")
    func floatingAndDuration() throws {
        let event = ICalendarComponent(name: "VEVENT", properties: [
            ICalendarProperty(name: "UID", value: "f-1"),
            ICalendarProperty(name: "DTSTART", value: "20261201T235000"),
            ICalendarProperty(name: "DURATION", value: "PT20M"),
        ])
        let vcalendar = ICalendarComponent(name: "VCALENDAR", components: [event])
        let floating = ICalendarItems.read(calendar: vcalendar, into: Self.calendar, zones: IANAZoneResolver())
        let midnight = LocalDateTime(date: CivilDate(year: 2026, month: 12, day: 2)!, hour: 0, minute: 10)! // 2026-12-02T00:10
        #expect(floating.events.first?.end == .floating(midnight))
        let zoned = ICalendarItems.read(calendar: vcalendar, into: Self.calendar, zones: IANAZoneResolver(floatingZone: "Asia/Shanghai"))
        #expect(zoned.events.first?.end == .zoned(midnight, zone: "Asia/Shanghai"))
    }

    @Test("an occurrence whose series is missing is a plain event that writes its UID and RECURRENCE-ID back; a VTODO occurrence stays with its master")
    func orphansAndTodoOccurrences() throws {
        let orphan = ICalendarComponent(name: "VEVENT", properties: [
            ICalendarProperty(name: "UID", value: "invite-1"),
            ICalendarProperty(name: "RECURRENCE-ID", value: "20261210T020000Z"),
            ICalendarProperty(name: "DTSTART", value: "20261210T030000Z"),
            ICalendarProperty(name: "DTEND", value: "20261210T040000Z"),
        ])
        let todo = ICalendarComponent(name: "VTODO", properties: [
            ICalendarProperty(name: "UID", value: "t-1"), ICalendarProperty(name: "DUE", value: "20261210T020000Z"),
            ICalendarProperty(name: "RRULE", value: "FREQ=DAILY"),
        ])
        var todoOccurrence = todo
        todoOccurrence.properties = [ICalendarProperty(name: "UID", value: "t-1"), ICalendarProperty(name: "RECURRENCE-ID", value: "20261211T020000Z"),
                                     ICalendarProperty(name: "SUMMARY", value: "Only this one")]
        let vcalendar = ICalendarComponent(name: "VCALENDAR", components: [orphan, todo, todoOccurrence])
        let result = ICalendarItems.read(calendar: vcalendar, into: Self.calendar, zones: IANAZoneResolver())
        #expect(result.problems.isEmpty)
        #expect(result.events.count == 1)
        #expect(result.events.first?.externalKey == "invite-1#20261210T020000", "keyed apart from a series of that UID")
        let exported = ICalendarItems.components(events: result.events, reminders: result.reminders, stamp: Self.stamp)
        let event = try #require(exported.components.first { $0.name == "VEVENT" })
        #expect(event["UID"]?.value == "invite-1")
        #expect(event["RECURRENCE-ID"]?.value == "20261210T020000Z")
        let todos = exported.components(named: "VTODO")
        #expect(todos.count == 2)
        #expect(todos.last?["SUMMARY"]?.value == "Only this one")
        #expect(todos.first?.components(named: "VTODO").isEmpty == true)
    }

    @Test("a THISANDFUTURE override ends the series before it with UNTIL and starts a new one that takes the later exceptions and occurrences")
    func thisAndFuture() throws {
        let result = try Self.read("this-and-future.ics")
        #expect(result.problems.isEmpty)
        let entry = try #require(result.entries.first)
        guard case .event(let series) = entry.item else { Issue.record("not an event"); return }
        // 2026-12-15T10:00 Berlin is 09:00Z; the series ends a second before.
        #expect(series.recurrenceRule?.rfc5545 == "FREQ=WEEKLY;UNTIL=20261215T085959Z")
        #expect(series.exceptionDates == [LocalDateTime(date: CivilDate(year: 2026, month: 12, day: 8)!, hour: 10)!]) // 2026-12-08T10:00
        let later = try #require(entry.followingSeries.first)
        #expect(later.externalKey == "weekly-1#20261215T100000", "keyed by UID and cut, so that the store imports it again as unchanged")
        #expect(later.title == "Review (afternoons)")
        #expect(later.recurrenceRule?.rfc5545 == "FREQ=WEEKLY")
        #expect(later.exceptionDates == [LocalDateTime(date: CivilDate(year: 2026, month: 12, day: 22)!, hour: 14)!]) // 2026-12-22T14:00, moved with it
        let occurrence = try #require(entry.detached.first)
        #expect(occurrence.seriesIdentifier == later.identifier)
        #expect(occurrence.originalStart == LocalDateTime(date: CivilDate(year: 2026, month: 12, day: 29)!, hour: 14)!) // 2026-12-29T14:00 on the later part's clock
        let (exported, again, exportedAgain) = Self.roundTrip(result)
        #expect(again.problems.isEmpty)
        #expect(again.events == result.events)
        #expect(exportedAgain == exported)
        let late = try #require(exported.components.first { $0["SUMMARY"]?.value == "Review (late)" })
        #expect(late["RECURRENCE-ID"]?.value == "20261229T100000")
        #expect(late["UID"]?.value == "weekly-1")
    }

    /// The icalendar fuzz target found that a second override at the same
    /// cut split the series again: two parts with one identifier, and the
    /// occurrence after the cut written after each, twice as many on every
    /// import and export.
    @Test("a THISANDFUTURE override given twice for one cut is one override: its later revision stands, in the file or not")
    func thisAndFutureTwice() throws {
        let text = try String(contentsOfFile: PackagePaths.root + "/Tests/ICalendarTests/Fixtures/items/this-and-future.ics", encoding: .utf8)
        let lines = text.split(whereSeparator: \.isNewline).map(String.init)
        let earlier = ["BEGIN:VEVENT", "UID:weekly-1", "DTSTAMP:20261201T000000Z", "SEQUENCE:1",
                       "RECURRENCE-ID;RANGE=THISANDFUTURE;TZID=Europe/Berlin:20261215T100000",
                       "DTSTART;TZID=Europe/Berlin:20261215T090000", "DTEND;TZID=Europe/Berlin:20261215T100000",
                       "SUMMARY:Review (mornings)", "END:VEVENT"]
        let later = ["BEGIN:VEVENT", "UID:weekly-1", "DTSTAMP:20261201T000000Z", "SEQUENCE:3",
                     "RECURRENCE-ID;RANGE=THISANDFUTURE;TZID=Europe/Berlin:20261215T100000",
                     "DTSTART;TZID=Europe/Berlin:20261215T160000", "DTEND;TZID=Europe/Berlin:20261215T170000",
                     "SUMMARY:Review (evenings)", "END:VEVENT"]
        // The fixture's own override has no SEQUENCE (0): the latest revision comes first, the earliest last.
        let file = Array(lines.dropLast()) + later + earlier + ["END:VCALENDAR"]
        let (result, entry, part) = try Self.readSplit(file)
        #expect(part.title == "Review (evenings)")
        #expect(part.externalKey == "weekly-1#20261215T100000")
        #expect(part.exceptionDates == [LocalDateTime(date: CivilDate(year: 2026, month: 12, day: 22)!, hour: 16)!]) // 2026-12-22T16:00, moved with it
        let occurrence = try #require(entry.detached.first)
        #expect(entry.detached.count == 1)
        #expect(occurrence.seriesIdentifier == part.identifier)
        #expect(occurrence.originalStart == LocalDateTime(date: CivilDate(year: 2026, month: 12, day: 29)!, hour: 16)!) // 2026-12-29T16:00 on the part's clock
        let (exported, again, exportedAgain) = Self.roundTrip(result)
        #expect(exported.components.filter { $0["SUMMARY"]?.value == "Review (late)" }.count == 1)
        #expect(exported.components.filter { $0["RECURRENCE-ID"]?[parameter: "RANGE"] == "THISANDFUTURE" }.count == 1)
        #expect(again.problems.isEmpty)
        #expect(again.events == result.events)
        #expect(exportedAgain == exported)
    }

    /// A THISANDFUTURE override may name its cut in UTC, and give its start
    /// in UTC too. The later part counts its occurrences on its own clock
    /// (its start's zone); its cut was read as written, so with a cut of
    /// 09:00Z for 10:00 Berlin, an occurrence override after it was put an
    /// hour off the part's occurrence, and written back an hour later than
    /// read: one hour more on every import and export (a fuzz finding).
    @Test("a THISANDFUTURE override that names its cut in UTC keeps the occurrences after it where they are, round trip after round trip",
          arguments: [
              // Its start in the series' zone: the part's clock is Berlin's.
              (["DTSTART;TZID=Europe/Berlin:20261215T140000", "DTEND;TZID=Europe/Berlin:20261215T150000"],
               "RECURRENCE-ID;TZID=Europe/Berlin:20261229T100000", 14, "RECURRENCE-ID;TZID=Europe/Berlin:20261229T100000"),
              // Its start in UTC: the part's clock is UTC's; 13:00Z is 14:00 Berlin.
              (["DTSTART:20261215T130000Z", "DTEND:20261215T140000Z"],
               "RECURRENCE-ID:20261229T090000Z", 13, "RECURRENCE-ID:20261229T090000Z"),
          ])
    func thisAndFutureCutInUTC(start: [String], occurrenceID: String, partHour: Int, exportedID: String) throws {
        let text = try String(contentsOfFile: PackagePaths.root + "/Tests/ICalendarTests/Fixtures/items/this-and-future.ics", encoding: .utf8)
        var lines = text.split(whereSeparator: \.isNewline).map(String.init)
        let cut = try #require(lines.firstIndex(of: "RECURRENCE-ID;RANGE=THISANDFUTURE;TZID=Europe/Berlin:20261215T100000"))
        lines[cut] = "RECURRENCE-ID;RANGE=THISANDFUTURE:20261215T090000Z" // 2026-12-15T10:00 in Berlin
        lines.replaceSubrange((cut + 1)...(cut + 2), with: start)
        lines[try #require(lines.firstIndex(of: "RECURRENCE-ID;TZID=Europe/Berlin:20261229T100000"))] = occurrenceID
        let (result, entry, part) = try Self.readSplit(lines)
        #expect(part.start.wallClock == LocalDateTime(date: CivilDate(year: 2026, month: 12, day: 15)!, hour: partHour)!)
        // 2026-12-22T14:00 Berlin (13:00Z), excluded, moved with it.
        #expect(part.exceptionDates == [LocalDateTime(date: CivilDate(year: 2026, month: 12, day: 22)!, hour: partHour)!])
        let occurrence = try #require(entry.detached.first)
        #expect(entry.detached.count == 1)
        #expect(occurrence.seriesIdentifier == part.identifier)
        // 2026-12-29T14:00 Berlin (13:00Z) on the part's clock: the occurrence it replaces.
        #expect(occurrence.originalStart == LocalDateTime(date: CivilDate(year: 2026, month: 12, day: 29)!, hour: partHour)!)
        let (exported, again, exportedAgain) = Self.roundTrip(result)
        let late = try #require(exported.components.first { $0["SUMMARY"]?.value == "Review (late)" })
        let written = try #require(late["RECURRENCE-ID"])
        let tzid = written[parameter: "TZID"].map { ";TZID=" + $0 } ?? ""
        #expect("RECURRENCE-ID\(tzid):\(written.value)" == exportedID)
        #expect(again.problems.isEmpty)
        #expect(again.events == result.events)
        #expect(exportedAgain == exported)
    }

    @Test("RFC 9074 PROXIMITY takes its place from a VLOCATION's geo: URL; a VTODO's start-related offset becomes one from DUE")
    func rfc9074AndTodoOffsets() throws {
        let vlocation = ICalendarComponent(name: "VLOCATION", properties: [
            ICalendarProperty(name: "UID", value: "loc-1"), ICalendarProperty(name: "NAME", value: "Home"),
            ICalendarProperty(name: "URL", value: "geo:52.52,13.405;u=250"),
        ])
        let proximity = ICalendarComponent(name: "VALARM", properties: [
            ICalendarProperty(name: "ACTION", value: "DISPLAY"), ICalendarProperty(name: "PROXIMITY", value: "ARRIVE"),
        ], components: [vlocation])
        let before = ICalendarComponent(name: "VALARM", properties: [
            ICalendarProperty(name: "ACTION", value: "DISPLAY"), ICalendarProperty(name: "TRIGGER", value: "PT0S"),
        ])
        let todo = ICalendarComponent(name: "VTODO", properties: [
            ICalendarProperty(name: "UID", value: "t-2"), ICalendarProperty(name: "DTSTAMP", value: "20261201T000000Z"),
            ICalendarProperty(name: "DTSTART", value: "20261210T080000Z"),
            ICalendarProperty(name: "DUE", value: "20261210T100000Z"),
        ], components: [proximity, before])
        let result = ICalendarItems.read(calendar: ICalendarComponent(name: "VCALENDAR", components: [todo]), into: Self.calendar, zones: IANAZoneResolver())
        #expect(result.problems.isEmpty)
        let reminder = try #require(result.reminders.first)
        let home = try StructuredLocation(title: "Home", latitude: 52.52, longitude: 13.405, radius: 250)
        // At DTSTART, two hours before DUE.
        #expect(reminder.alarms.map(\.trigger) == [.proximity(home, .enter), .relative(seconds: -7200)])
        let (_, again, _) = Self.roundTrip(result)
        #expect(again.reminders == result.reminders)
        let noDue = ICalendarComponent(name: "VTODO", properties: [ICalendarProperty(name: "UID", value: "t-3")], components: [before])
        let refused = ICalendarItems.read(calendar: ICalendarComponent(name: "VCALENDAR", components: [noDue]), into: Self.calendar, zones: IANAZoneResolver())
        #expect(refused.problems.map(\.uid) == ["t-3"])
    }

    @Test("items made in Chime export with UIDs of their own, DISPLAY alarms and a TRIGGER on a location alarm")
    func chimeMadeItems() throws {
        let office = try StructuredLocation(title: "Office", latitude: 31.2304, longitude: 121.4737, radius: 150)
        let reminder = Reminder(identifier: ItemIdentifier("00000000000000000000000000000001")!, calendarIdentifier: Self.calendar,
                                title: "Leave", alarms: [.proximity(office, .leave)])
        let exported = ICalendarItems.components(events: [], reminders: [reminder], stamp: Self.stamp)
        let todo = try #require(exported.components.first)
        #expect(todo["UID"]?.value == "00000000000000000000000000000001@chime")
        #expect(todo["DTSTAMP"]?.value == "20261202T000000Z")
        let alarm = try #require(todo.components(named: "VALARM").first)
        #expect(alarm["TRIGGER"]?.value == "19760401T005545Z")
        #expect(alarm["ACTION"]?.value == "DISPLAY")
        #expect(alarm["X-APPLE-PROXIMITY"]?.value == "DEPART")
        #expect(alarm["X-APPLE-STRUCTURED-LOCATION"]?.contentLine == "X-APPLE-STRUCTURED-LOCATION;VALUE=URI;X-APPLE-RADIUS=150;X-TITLE=Office:geo:31.2304,121.4737")
        let back = ICalendarItems.read(calendar: exported, into: Self.calendar, zones: IANAZoneResolver())
        #expect(back.reminders.first?.alarms.map(\.trigger) == [.proximity(office, .leave)])
    }
}
