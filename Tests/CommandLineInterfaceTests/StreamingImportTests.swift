import CalendarModel
import CalendarStore
import Foundation
import TestSupport
import Testing

/// `chime import` reads a file in two passes and maps it a component at a
/// time (never holding the whole tree): what that could get wrong.
@Suite("chime import, a component at a time")
struct StreamingImportTests {
    static func file(_ scratch: Scratch, _ name: String, _ components: [String]) throws -> String {
        let path = scratch.folder + "/" + name
        let lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Chime//test//EN"] + components + ["END:VCALENDAR"]
        try (lines.joined(separator: "\r\n") + "\r\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// `count` one-off events on consecutive days from 2020-01-01, none in December 2026.
    static func fillers(_ count: Int) -> [String] {
        (0..<count).flatMap { day -> [String] in
            let start = LocalDateTime(date: CivilDate(year: 2020, month: 1, day: 1)!.adding(days: day))!
            let stamp = start.basicFormat
            return ["BEGIN:VEVENT", "UID:filler-\(day)@chime.test", "DTSTAMP:20261201T000000Z", "DTSTART:\(stamp)Z", "SUMMARY:Filler \(day)",
                    "END:VEVENT"]
        }
    }

    static let december = Date(timeIntervalSince1970: 1_796_083_200)..<Date(timeIntervalSince1970: 1_798_761_600) // 2026-12-01T00:00:00Z ..< 2027-01-01T00:00:00Z

    static func starts(_ scratch: Scratch, in range: Range<Date> = december) throws -> [String] {
        try scratch.store().events(overlapping: range).map { event in
            guard case .zoned(let time, let zone, let fold) = event.start else { return "\(event.title) \(event.start)" }
            return "\(event.title) " + RFC3339.text(try TimeZoneRules.named(zone).resolve(time, fold: fold).instant, in: .utc)
        }.sorted()
    }

    @Test("an occurrence 2,000 components before its series, at the other end of the file, is that series' moved occurrence")
    func occurrenceFarBeforeItsSeries() throws {
        let scratch = Scratch()
        let moved = ["BEGIN:VEVENT", "UID:standup@chime.test", "DTSTAMP:20261201T000000Z", "RECURRENCE-ID:20261208T090000Z",
                     "DTSTART:20261208T100000Z", "DTEND:20261208T103000Z", "SUMMARY:Stand-up (moved)", "END:VEVENT"]
        let series = ["BEGIN:VEVENT", "UID:standup@chime.test", "DTSTAMP:20261201T000000Z", "DTSTART:20261201T090000Z",
                      "DTEND:20261201T093000Z", "RRULE:FREQ=WEEKLY;COUNT=3", "SUMMARY:Stand-up", "END:VEVENT"]
        let path = try Self.file(scratch, "far.ics", moved + Self.fillers(2_000) + series)
        let imported = scratch.ok("import", path)
        #expect(imported.text.hasSuffix(": 2001 added, 0 updated, 0 unchanged"), "\(imported.text)")
        #expect(try Self.starts(scratch) == ["Stand-up (moved) 2026-12-08T10:00:00+00:00", "Stand-up 2026-12-01T09:00:00+00:00",
                                             "Stand-up 2026-12-15T09:00:00+00:00"])
        let again = scratch.ok("import", path)
        #expect(again.text.hasSuffix(": 0 added, 0 updated, 2001 unchanged"), "\(again.text)")
    }

    @Test("a broken last component, after 300 sound ones, stops the import with nothing written; --check writes nothing either")
    func faultInTheLastComponent() throws {
        let scratch = Scratch()
        scratch.ok("calendars")
        scratch.add("event", "Already here", "--start", "2026-12-02T10:00")
        let counter = try scratch.changeCounter()
        let broken = ["BEGIN:VEVENT", "UID:no-start@chime.test", "DTSTAMP:20261201T000000Z", "SUMMARY:No start", "END:VEVENT"]
        let path = try Self.file(scratch, "last.ics", Self.fillers(300) + broken)
        // 3 header lines and 6 a filler: the broken VEVENT begins on line 1804.
        try scratch.refuses(["import", path], status: 65, mentioning: ["last.ics:1804: VEVENT no-start@chime.test: has no DTSTART", "nothing imported"])
        #expect(scratch.run("import", "--check", path).status == 65)
        #expect(try scratch.changeCounter() == counter, "a refused import wrote to the store")
        let everything = Date(timeIntervalSince1970: 1_577_836_800)..<Date(timeIntervalSince1970: 1_830_297_600) // 2020-01-01T00:00:00Z ..< 2028-01-01T00:00:00Z
        #expect(try scratch.store().events(overlapping: everything).map(\.title) == ["Already here"])
    }

    @Test("a line that cannot be read inside an event, which the first look skims, is still reported with its line, and nothing is written")
    func unreadableLineInAnEvent() throws {
        let scratch = Scratch()
        scratch.add("event", "Already here", "--start", "2026-12-02T10:00")
        let broken = ["BEGIN:VEVENT", "UID:unclosed@chime.test", "DTSTAMP:20261201T000000Z", "DTSTART:20261201T090000Z",
                      "SUMMARY;CN=\"unclosed:Review", "END:VEVENT"]
        // 3 header lines and 6 a filler: the broken SUMMARY is line 68.
        let path = try Self.file(scratch, "unclosed.ics", Self.fillers(10) + broken)
        try scratch.refuses(["import", path], status: 65, mentioning: ["unclosed.ics:68: VEVENT unclosed@chime.test:", "nothing imported"])
        let checked = scratch.run("import", "--check", path)
        #expect(checked.status == 65 && checked.errors.joined(separator: "\n").contains("unclosed.ics:68: VEVENT unclosed@chime.test:"), "\(checked.errors)")
        let skipped = scratch.ok("import", "--skip-broken", path)
        #expect(skipped.text.hasSuffix(": 10 added, 0 updated, 0 unchanged"), "\(skipped.text)")
        #expect(skipped.errors.joined(separator: "\n").contains("skipped \(path):68"), "\(skipped.errors)")
    }

    @Test("a file of 2,500 events is written in pieces while it is read: a moved occurrence and a revision 2,500 components from their series still land on it, and the file again changes nothing")
    func piecesKeepWhatTheWholeFileSays() throws {
        let scratch = Scratch()
        let series = ["BEGIN:VEVENT", "UID:standup@chime.test", "DTSTAMP:20261201T000000Z", "DTSTART:20261201T090000Z",
                      "DTEND:20261201T093000Z", "RRULE:FREQ=WEEKLY;COUNT=3", "SUMMARY:Stand-up", "END:VEVENT"]
        let moved = ["BEGIN:VEVENT", "UID:standup@chime.test", "DTSTAMP:20261201T000000Z", "RECURRENCE-ID:20261208T090000Z",
                     "DTSTART:20261208T100000Z", "DTEND:20261208T103000Z", "SUMMARY:Stand-up (moved)", "END:VEVENT"]
        func offsite(_ sequence: Int, _ title: String) -> [String] {
            ["BEGIN:VEVENT", "UID:offsite@chime.test", "DTSTAMP:20261201T000000Z", "SEQUENCE:\(sequence)", "DTSTART:20261210T090000Z",
             "DTEND:20261210T170000Z", "SUMMARY:\(title)", "END:VEVENT"]
        }
        let path = try Self.file(scratch, "pieces.ics", series + offsite(2, "Offsite") + Self.fillers(2_500) + moved + offsite(1, "Offsite (draft)"))
        let imported = scratch.ok("import", path)
        #expect(imported.text.hasSuffix("pieces.ics: 2502 events, 0 reminders into 'Personal': 2502 added, 0 updated, 0 unchanged"), "\(imported.text)")
        #expect(try Self.starts(scratch) == ["Offsite 2026-12-10T09:00:00+00:00", "Stand-up (moved) 2026-12-08T10:00:00+00:00",
                                             "Stand-up 2026-12-01T09:00:00+00:00", "Stand-up 2026-12-15T09:00:00+00:00"])
        let store = try scratch.store()
        let stored = try store.items(of: try store.calendar(named: "Personal").identifier)
        #expect(stored.events.count == 2_502 && stored.events.map(\.detached.count).reduce(0, +) == 1)
        let counter = try scratch.changeCounter()
        let again = scratch.ok("import", path)
        #expect(again.text.hasSuffix(": 0 added, 0 updated, 2502 unchanged"), "\(again.text)")
        #expect(try scratch.changeCounter() == counter, "importing the same file again wrote to the store")
        let checked = scratch.ok("import", "--check", path)
        #expect(checked.text.hasSuffix("pieces.ics: 2502 events, 0 reminders would go to 'Personal'"), "\(checked.text)")
    }

    @Test("a broken component after two pieces were written rolls them back with the rest: nothing is written, and --skip-broken writes all but it")
    func faultAfterPiecesWereWritten() throws {
        let scratch = Scratch()
        scratch.add("event", "Already here", "--start", "2026-12-02T10:00")
        let counter = try scratch.changeCounter()
        let broken = ["BEGIN:VEVENT", "UID:no-start@chime.test", "DTSTAMP:20261201T000000Z", "SUMMARY:No start", "END:VEVENT"]
        let path = try Self.file(scratch, "late-fault.ics", Self.fillers(2_500) + broken + Self.fillers(1))
        // 3 header lines and 6 a filler: the broken VEVENT begins on line 15004.
        try scratch.refuses(["import", path], status: 65,
                            mentioning: ["late-fault.ics:15004: VEVENT no-start@chime.test: has no DTSTART", "nothing imported"])
        #expect(try scratch.changeCounter() == counter, "a refused import wrote to the store")
        let everything = Date(timeIntervalSince1970: 1_577_836_800)..<Date(timeIntervalSince1970: 1_830_297_600) // 2020-01-01T00:00:00Z ..< 2028-01-01T00:00:00Z
        #expect(try scratch.store().events(overlapping: everything).map(\.title) == ["Already here"])
        let skipped = scratch.run("import", "--skip-broken", path)
        #expect(skipped.status == 0)
        #expect(skipped.text.hasSuffix(": 2500 added, 0 updated, 0 unchanged"), "\(skipped.text)")
        #expect(skipped.errors.joined(separator: "\n").contains("skipped \(path):15004"), "\(skipped.errors)")
        let store = try scratch.store()
        #expect(try store.items(of: try store.calendar(named: "Personal").identifier).events.count == 2_501)
    }

    @Test("an item the store refuses, in the third piece, after two were written in the same transaction (without savepoints of their own): 65 naming it, nothing written")
    func storeRefusalAfterPiecesWereWritten() throws {
        let scratch = Scratch()
        scratch.add("event", "Already here", "--start", "2026-12-02T10:00")
        let counter = try scratch.changeCounter()
        // It reads and maps; only the store finds it too costly to expand.
        let costly = ["BEGIN:VEVENT", "UID:costly@chime.test", "DTSTAMP:20261201T000000Z", "DTSTART:20261201T090000Z",
                      "RRULE:FREQ=SECONDLY;COUNT=900000000", "SUMMARY:Costly", "END:VEVENT"]
        let path = try Self.file(scratch, "refused.ics", Self.fillers(2_500) + costly)
        try scratch.refuses(["import", path], status: 65, mentioning: ["costly@chime.test", "too costly to expand"])
        #expect(try scratch.changeCounter() == counter, "a refused import wrote to the store")
        let everything = Date(timeIntervalSince1970: 1_577_836_800)..<Date(timeIntervalSince1970: 1_830_297_600) // 2020-01-01T00:00:00Z ..< 2028-01-01T00:00:00Z
        #expect(try scratch.store().events(overlapping: everything).map(\.title) == ["Already here"])
    }

    @Test("two files of more than a piece, imported at once into an empty calendar, that give the same UIDs: the second's pieces find the first's items and update the one it revises")
    func twoFilesOfTheSameUIDs() throws {
        let scratch = Scratch()
        let revised = Self.fillers(1_200).joined(separator: "\n")
            .replacingOccurrences(of: "UID:filler-1100@chime.test\nDTSTAMP:20261201T000000Z",
                                  with: "UID:filler-1100@chime.test\nDTSTAMP:20261201T000000Z\nSEQUENCE:1")
            .replacingOccurrences(of: "SUMMARY:Filler 1100\n", with: "SUMMARY:Filler 1100 (revised)\n")
            .components(separatedBy: "\n")
        #expect(revised.contains("SEQUENCE:1") && revised.contains("SUMMARY:Filler 1100 (revised)"))
        let first = try Self.file(scratch, "first.ics", Self.fillers(1_200))
        let second = try Self.file(scratch, "second.ics", revised)
        let imported = scratch.ok("import", first, second)
        #expect(imported.text.contains("first.ics: 1200 events, 0 reminders into 'Personal': 1200 added, 0 updated, 0 unchanged"), "\(imported.text)")
        #expect(imported.text.contains("second.ics: 1200 events, 0 reminders into 'Personal': 0 added, 1 updated, 1199 unchanged"), "\(imported.text)")
        let store = try scratch.store()
        let stored = try store.items(of: try store.calendar(named: "Personal").identifier).events
        #expect(stored.count == 1_200)
        #expect(stored.filter { $0.event.title.hasPrefix("Filler 1100") }.map(\.event.title) == ["Filler 1100 (revised)"])
    }

    @Test("one file of two VCALENDARs of more than a piece each, into an empty calendar, that give the same UIDs: one copy of each, the later VCALENDAR's where it is newer")
    func twoCalendarsOfTheSameUIDs() throws {
        let scratch = Scratch()
        let path = scratch.folder + "/twice.ics"
        func calendar(_ components: [String]) -> [String] {
            ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Chime//test//EN"] + components + ["END:VCALENDAR"]
        }
        let revised = Self.fillers(1_100).map { $0 == "SUMMARY:Filler 5" ? "SUMMARY:Filler 5 (revised)\r\nSEQUENCE:3" : $0 }
        try ((calendar(Self.fillers(1_100)) + calendar(revised)).joined(separator: "\r\n") + "\r\n").write(toFile: path, atomically: true, encoding: .utf8)
        let imported = scratch.ok("import", path)
        #expect(imported.text.contains("1100 added"), "\(imported.text)")
        let store = try scratch.store()
        let stored = try store.items(of: try store.calendar(named: "Personal").identifier).events
        #expect(stored.count == 1_100)
        #expect(stored.first { $0.event.externalKey == "filler-5@chime.test" }?.event.title == "Filler 5 (revised)")
        #expect(stored.filter { $0.event.title.hasSuffix("(revised)") }.count == 1)
    }

    @Test("a VTIMEZONE after the events that use its TZID still gives their times")
    func zoneDefinedAfterItsItems() throws {
        let scratch = Scratch()
        let event = ["BEGIN:VEVENT", "UID:meeting@chime.test", "DTSTAMP:20261201T000000Z", "DTSTART;TZID=Office Time:20261203T090000",
                     "DTEND;TZID=Office Time:20261203T100000", "SUMMARY:Meeting", "END:VEVENT"]
        let zone = ["BEGIN:VTIMEZONE", "TZID:Office Time", "BEGIN:STANDARD", "DTSTART:19700101T000000", "TZOFFSETFROM:+0530",
                    "TZOFFSETTO:+0530", "TZNAME:IST", "END:STANDARD", "END:VTIMEZONE"]
        scratch.ok("import", try Self.file(scratch, "zone-after.ics", event + zone))
        // 09:00 at +05:30 is 03:30 UTC.
        #expect(try Self.starts(scratch) == ["Meeting 2026-12-03T03:30:00+00:00"])
    }

    @Test("a calendar name after the items, and a reminder before the first event, choose the calendar as they would before them")
    func contextAfterTheItems() throws {
        let scratch = Scratch()
        let todo = ["BEGIN:VTODO", "UID:todo@chime.test", "DTSTAMP:20261201T000000Z", "DUE:20261203T090000Z", "SUMMARY:Send notes", "END:VTODO"]
        let event = ["BEGIN:VEVENT", "UID:late-name@chime.test", "DTSTAMP:20261201T000000Z", "DTSTART:20261203T090000Z",
                     "DTEND:20261203T100000Z", "SUMMARY:Planning", "END:VEVENT"]
        let named = scratch.ok("import", try Self.file(scratch, "late-name.ics", Self.fillers(3) + event + ["X-WR-CALNAME:Work"]))
        #expect(named.text.contains("into 'Work' (new): 4 added"), "\(named.text)")
        scratch.ok("calendar", "add", "Tasks")
        let store = try scratch.store()
        try store.setDefaultCalendar(try store.calendar(named: "Tasks").identifier, forEvents: false, forReminders: true)
        let mixed = scratch.ok("import", try Self.file(scratch, "mixed.ics", todo + event.map { $0 == "UID:late-name@chime.test" ? "UID:mixed@chime.test" : $0 }))
        // A file of events goes to the default calendar, not the reminders' one, whichever item comes first.
        #expect(mixed.text.contains("1 event, 1 reminder into 'Personal': 2 added"), "\(mixed.text)")
        #expect(scratch.ok("import", try Self.file(scratch, "todo.ics", todo)).text.contains("into 'Tasks'"))
    }
}
