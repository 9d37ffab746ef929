import CalendarExchange
import CalendarModel
import CalendarStore
import CommandLineInterface
import Foundation
import SQLiteDatabase
import TestSupport
import Testing

@Suite("chime import and chime export")
struct ImportExportTests {
    static func fixture(_ name: String) -> String { PackagePaths.root + "/Tests/ICalendarTests/Fixtures/" + name }

    static let itemFixtures = ["items/google-recurring.ics", "items/outlook.ics", "items/iphone-reminder.ics", "items/this-and-future.ics",
                               "items/this-and-future-until.ics", "oracle/weekly-exdate-berlin-dst.ics"]

    @Test("importing a file again changes nothing, and an export imported into a new store exports the same text")
    func idempotentAndLossless() throws {
        let scratch = Scratch()
        for name in Self.itemFixtures { scratch.ok("import", Self.fixture(name)) }
        let counter = try scratch.changeCounter()
        for name in Self.itemFixtures {
            let again = scratch.ok("import", Self.fixture(name))
            #expect(again.text.contains(" 0 added, 0 updated"), "\(name): \(again.text)")
        }
        #expect(try scratch.changeCounter() == counter, "a second import of the same files wrote to the store")

        let first = scratch.folder + "/first.ics"
        scratch.ok("export", "--output", first)
        let other = Scratch()
        other.ok("import", first)
        let second = other.folder + "/second.ics"
        other.ok("export", "--output", second)
        func withoutStamps(_ path: String) throws -> [String] {
            try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\r\n").filter { !$0.hasPrefix("DTSTAMP:") }
        }
        #expect(try withoutStamps(first) == withoutStamps(second))
        let again = other.ok("import", first)
        #expect(again.text.hasSuffix(": 0 added, 0 updated, 11 unchanged"), "\(again.text)")
    }

    @Test("an export reads without an error in Python's icalendar (CRLF, 75-octet lines, a VTIMEZONE per TZID) and in libical")
    func exportPassesOracles() throws {
        let scratch = Scratch()
        for name in Self.itemFixtures { scratch.ok("import", Self.fixture(name)) }
        let file = scratch.folder + "/export.ics"
        scratch.ok("export", "--output", file)
        let permissions = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
        let icalendar = try Oracles.icalendarCheck(file, strict: true)
        #expect(icalendar.passed, "\(icalendar.problems)")
        let libical = try Oracles.libicalCheck(file)
        #expect(libical.passed, "\(libical.problems)")
    }

    @Test("the occurrences of imported calendars are those recurring-ical-events lists, DST changes, EXDATEs and moved occurrences included")
    func occurrencesAgreeWithOracle() throws {
        var agreed = 0
        for name in Self.itemFixtures {
            let scratch = Scratch()
            scratch.ok("import", Self.fixture(name))
            let expected = try Oracles.expand(Self.fixture(name), from: "2025-01-01", to: "2028-01-01")
            let store = try scratch.store()
            let range = Date(timeIntervalSince1970: RFC3339.instant("2025-01-01T00:00:00Z")!)..<Date(timeIntervalSince1970: RFC3339.instant("2028-01-01T00:00:00Z")!)
            let events = try store.events(overlapping: range)
            let ours = try events.map { event -> Oracles.Moment in
                switch event.start {
                case .date(let day): return .date(day)
                case .floating(let time): return .floating(time)
                case .zoned(let time, let zone, let fold): return .instant(try TimeZoneRules.named(zone).resolve(time, fold: fold).instant)
                }
            }
            #expect(ours.map(\.description).sorted() == expected.map(\.start.description).sorted(), "\(name)")
            if ours.count == expected.count { agreed += ours.count }
        }
        #expect(agreed >= 20, "only \(agreed) occurrences compared")
    }

    @Test("Outlook's VTIMEZONEs under TZIDs of their own, with rules 'since 1601', are the IANA zones they agree with over the items' years, through chime import and --check (surveyed) and a plan without a writer (a subscription's, a sync's), with recurring-ical-events' occurrences")
    func outlookCustomZones() throws {
        let file = Self.fixture("zones/outlook-custom.ics")
        let expected = try Oracles.expand(file, from: "2025-01-01", to: "2028-01-01").map(\.start.description).sorted()
        #expect(expected.count == 10)
        let range = Date(timeIntervalSince1970: RFC3339.instant("2025-01-01T00:00:00Z")!)..<Date(timeIntervalSince1970: RFC3339.instant("2028-01-01T00:00:00Z")!)
        func zonesAndStarts(_ store: CalendarStore) throws -> (zones: Set<String>, starts: [String]) {
            var zones: Set<String> = []
            let starts = try store.events(overlapping: range).map { event -> String in
                guard case .zoned(let time, let zone, let fold) = event.start else { return "not zoned: \(event.start)" }
                zones.insert(zone)
                return Oracles.Moment.instant(try TimeZoneRules.named(zone).resolve(time, fold: fold).instant).description
            }
            return (zones, starts.sorted())
        }
        let scratch = Scratch()
        #expect(scratch.run("import", "--check", file).status == 0)
        scratch.ok("import", file)
        let imported = try zonesAndStarts(try scratch.store())
        #expect(imported.zones == ["Europe/Berlin", "America/New_York"])
        #expect(imported.starts == expected)
        let exported = scratch.ok("export").text
        #expect(exported.contains("TZID:Europe/Berlin") && exported.contains("TZID:America/New_York"), "\(exported)")
        #expect(!exported.contains("POSIX:"), "\(exported)")

        let store = try CalendarStore(path: ":memory:", machineTimeZone: .utc)
        let plan = try CalendarImport.plan(try CalendarImport.bytes(of: file), source: file, defaultCalendar: try store.defaultCalendarForNewEvents(),
                                           store: store)
        #expect(plan.faults.isEmpty)
        _ = try CalendarImport.apply([plan], store: store)
        let planned = try zonesAndStarts(store)
        #expect(planned.zones == ["Europe/Berlin", "America/New_York"])
        #expect(planned.starts == expected)
    }

    @Test("a broken component stops the import with its file, line and UID and writes nothing; --skip-broken imports the rest; --check writes nothing")
    func brokenFiles() throws {
        let scratch = Scratch()
        scratch.ok("calendars")
        scratch.add("event", "Already here", "--start", "2026-12-02T10:00")
        let broken = Self.fixture("items/broken.ics")
        try scratch.refuses(["import", broken], status: 65, mentioning: ["broken.ics:3: VEVENT no-start: has no DTSTART", "nothing imported"])
        let check = scratch.run("import", "--check", broken)
        #expect(check.status == 65)
        #expect(check.text.contains("would go to 'Personal'"))
        let counter = try scratch.changeCounter()
        #expect(scratch.run("import", "--check", Self.fixture("items/outlook.ics")).status == 0)
        #expect(try scratch.changeCounter() == counter, "--check wrote to the store")
        let skipped = scratch.ok("import", "--skip-broken", broken)
        #expect(skipped.errors.contains { $0.contains("skipped") && $0.contains("VJOURNAL journal") })
        #expect(skipped.text.contains("1 added"))
    }

    @Test("an extra date (RDATE) at a time of its own is shown with the event, and --occurrence finds it by its date or its time; notes show line by line")
    func extraDateOccurrences() throws {
        let scratch = Scratch()
        let file = try scratch.calendarFile("extra.ics", [
            "BEGIN:VEVENT", "UID:extra@test", "DTSTAMP:20261201T000000Z", "DTSTART;TZID=Europe/London:20270105T100000",
            "DTEND;TZID=Europe/London:20270105T110000", "RDATE;TZID=Europe/London:20270116T140000", "SUMMARY:Fitting",
            "DESCRIPTION:Bring the shoes\\nand the belt", "END:VEVENT",
        ])
        scratch.ok("import", file)
        let id = try #require(try scratch.store().events(overlapping: Date.distantPast..<Date.distantFuture).first?.identifier.short)
        let shown = scratch.ok("show", id).output
        #expect(shown.contains("Also:     2027-01-16T14:00:00"), "\(shown)")
        #expect(shown.contains("Notes:    Bring the shoes") && shown.contains("          and the belt"), "\(shown)")
        for given in ["2027-01-16", "2027-01-16T14:00"] {
            let occurrence = scratch.ok("show", id, "--occurrence", given).output
            #expect(occurrence.contains { $0.hasPrefix("Start:") && $0.contains("Sat 2027-01-16 14:00 Europe/London") }, "\(given): \(occurrence)")
        }
        try scratch.refuses(["show", id, "--occurrence", "2027-01-17"], status: 66, mentioning: ["has no occurrence starting 2027-01-17T10:00:00"])
    }

    @Test("a NUL in a UID and a BEL in a title are imported as U+FFFD (the import and --check warn by line), and the export holds no control character")
    func controlCharacters() throws {
        let scratch = Scratch()
        let file = scratch.folder + "/control.ics"
        var bytes = Array("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VTODO\r\nUID:8C3A4F1E-".utf8)
        bytes += [0x00, 0x00] + Array("x\r\nDTSTAMP:20261201T000000Z\r\nSUMMARY:ring".utf8) + [0x07]
        bytes += Array("\r\nDUE:20261202T085000Z\r\nEND:VTODO\r\nEND:VCALENDAR\r\n".utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        let checked = scratch.ok("import", "--check", file)
        #expect(checked.errors.contains { $0.contains("control.ics:5") && $0.contains("control characters") }, "\(checked.errors)")
        #expect(checked.errors.contains { $0.contains("control.ics:7") }, "\(checked.errors)")
        let imported = scratch.ok("import", file)
        #expect(imported.text.contains("1 added"), "\(imported.text)")
        // The import itself says what it read leniently, as --check does.
        #expect(imported.errors == checked.errors, "\(imported.errors)")
        let exported = scratch.folder + "/export.ics"
        scratch.ok("export", "--output", exported)
        let text = try Data(contentsOf: URL(fileURLWithPath: exported))
        #expect(!text.contains { $0 < 0x20 && $0 != 0x0D && $0 != 0x0A }, "a control character was exported")
        let written = String(decoding: text, as: UTF8.self)
        #expect(written.contains("UID:8C3A4F1E-\u{FFFD}\u{FFFD}x\r\n"))
        #expect(written.contains("SUMMARY:ring\u{FFFD}\r\n"))
        #expect(scratch.ok("import", exported).text.contains("0 added, 0 updated, 1 unchanged"))
        let icalendar = try Oracles.icalendarCheck(exported, strict: true)
        #expect(icalendar.passed, "\(icalendar.problems)")
    }

    @Test("a missing file is 66 and an endless or oversized input is refused without creating the store")
    func missingAndBadInput() throws {
        let scratch = Scratch()
        let missing = scratch.run("import", scratch.folder + "/nothere.ics")
        #expect(missing.status == 66)
        #expect(missing.errors.joined().contains("nothere.ics"))
        let notCalendar = scratch.folder + "/notes.txt"
        try "just some notes\n".write(toFile: notCalendar, atomically: true, encoding: .utf8)
        let refused = scratch.run("import", notCalendar)
        #expect(refused.status == 65)
        #expect(refused.errors.joined().contains("no VCALENDAR"))
        #expect(!FileManager.default.fileExists(atPath: scratch.path), "a refused first import created the store")
    }

    @Test("a first import makes its store beside the path and puts it there whole: only the store (0600) is left in the folder, and what killed first imports left is gone; a refused one leaves no store, nor the default location's folders it made")
    func firstImportPutsTheStoreInPlaceWhole() throws {
        let scratch = Scratch()
        let file = scratch.folder + "/work.ics"
        try """
        BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VEVENT\r\nUID:a@test\r\nDTSTAMP:20261201T000000Z\r\n\
        DTSTART;TZID=Asia/Shanghai:20261203T090000\r\nDTEND;TZID=Asia/Shanghai:20261203T100000\r\nSUMMARY:Planning\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n
        """.write(toFile: file, atomically: true, encoding: .utf8)
        // What a first import killed by a signal left (a process that is gone: past the largest pid), and one still under way.
        let abandoned = [".chime.db.importing-4194305", ".chime.db.importing-4194305-wal", ".chime.db.importing-4194305-shm"]
        let underWay = ".chime.db.importing-\(getppid())"
        for name in abandoned + [underWay] { try Data("x".utf8).write(to: URL(fileURLWithPath: scratch.folder + "/" + name)) }
        #expect(scratch.ok("import", file).text.hasSuffix("work.ics: 1 event, 0 reminders into 'Personal': 1 added, 0 updated, 0 unchanged"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.folder).sorted() == [underWay, "chime.db", "work.ics"])
        try FileManager.default.removeItem(atPath: scratch.folder + "/" + underWay)
        var info = stat()
        #expect(stat(scratch.path, &info) == 0 && info.st_mode & 0o777 == 0o600, "mode \(String(info.st_mode & 0o777, radix: 8))")
        #expect(scratch.ok("list", "events").text.contains("Planning"))
        // Built with its rollback journal in memory, the store is WAL once a command has opened it.
        var asItIs = DatabaseOptions(access: .readOnly)
        asItIs.journalMode = nil
        #expect(try Database(path: scratch.path, options: asItIs).journalMode == "wal")
        #expect(scratch.ok("import", file).text.hasSuffix(": 0 added, 0 updated, 1 unchanged"))

        let broken = scratch.folder + "/broken.ics"
        try "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:b@test\r\nSUMMARY:No start\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            .write(toFile: broken, atomically: true, encoding: .utf8)
        let home = scratch.folder + "/home"
        let refused = CapturedRun(["import", broken], environment: ["XDG_DATA_HOME": home + "/data"])
        #expect(refused.status == 65)
        #expect(refused.errors.joined(separator: "\n").contains("nothing imported"), "\(refused.errors)")
        #expect(!FileManager.default.fileExists(atPath: home), "a refused first import left the default location's folders")
        let imported = CapturedRun(["import", file], environment: ["XDG_DATA_HOME": home + "/data"])
        #expect(imported.status == 0, "\(imported.errors)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: home + "/data/chime") == ["chime.db"])
        #expect(stat(home + "/data/chime", &info) == 0 && info.st_mode & 0o777 == 0o700)
    }

    @Test("a file naming its calendar in X-WR-CALNAME goes to that calendar, made if missing; --calendar overrides it")
    func calendarChoice() throws {
        let scratch = Scratch()
        let file = scratch.folder + "/work.ics"
        try """
        BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nX-WR-CALNAME:Work\r\nBEGIN:VEVENT\r\nUID:a@test\r\nDTSTAMP:20261201T000000Z\r\n\
        DTSTART;TZID=Asia/Shanghai:20261203T090000\r\nDTEND;TZID=Asia/Shanghai:20261203T100000\r\nSUMMARY:Planning\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n
        """.write(toFile: file, atomically: true, encoding: .utf8)
        #expect(scratch.ok("import", file).text.contains("into 'Work' (new)"))
        #expect(scratch.ok("calendars").text.contains("Work"))
        #expect(scratch.ok("import", "--calendar", "Elsewhere", file).text.contains("into 'Elsewhere' (new): 1 added"))
        let exported = scratch.ok("export", "--calendar", "Work").text
        #expect(exported.contains("X-WR-CALNAME:Work\r"))
        #expect(exported.contains("SUMMARY:Planning\r"))
    }
}

extension ImportExportTests {
    @Test("a file of reminders alone, naming no calendar, goes to the default calendar for reminders")
    func remindersOnlyFile() throws {
        let scratch = Scratch()
        scratch.ok("calendar", "add", "Tasks")
        let store = try scratch.store()
        try store.setDefaultCalendar(try store.calendar(named: "Tasks").identifier, forEvents: false, forReminders: true)
        #expect(scratch.ok("import", Self.fixture("items/iphone-reminder.ics")).text.contains("into 'Tasks'"))
        #expect(scratch.ok("import", Self.fixture("items/outlook.ics")).text.contains("into 'Personal'"))
    }
}

extension ImportExportTests {
    @Test("chime export ID… writes just the named items and reads no other: a damaged item elsewhere stops a whole export, not that one")
    func exportByIdentifierReadsOnlyThose() throws {
        let scratch = Scratch()
        scratch.ok("calendar", "add", "Work")
        let planning = scratch.add("event", "Planning", "--start", "2026-12-03T09:00", "--tz", "UTC", "--calendar", "Work")
        let dentist = scratch.add("event", "Dentist", "--start", "2026-12-04T15:00", "--tz", "UTC")
        let milk = scratch.add("reminder", "Buy milk")
        let broken = scratch.add("event", "Stand-up", "--start", "2026-12-02T09:30", "--tz", "UTC", "--repeat", "FREQ=DAILY")

        let named = scratch.ok("export", milk, planning).text
        #expect(named.contains("SUMMARY:Planning\r"))
        #expect(named.contains("SUMMARY:Buy milk\r"))
        #expect(!named.contains("SUMMARY:Dentist\r"))
        #expect(!named.contains("SUMMARY:Stand-up\r"))
        #expect(!named.contains("X-WR-CALNAME"), "items exported by ID name no calendar")
        // Events before reminders, as a whole export orders them.
        let planningAt = try #require(named.range(of: "SUMMARY:Planning")).lowerBound
        let milkAt = try #require(named.range(of: "SUMMARY:Buy milk")).lowerBound
        #expect(planningAt < milkAt)

        // A rule no reader parses, written past every check: reading that row fails.
        try Database(path: scratch.path).execute("UPDATE items SET rrule = 'NOT A RULE' WHERE id LIKE ?", [broken + "%"])
        let whole = scratch.run("export")
        #expect(whole.status != 0, "a whole export read the damaged item and still succeeded")
        let alone = scratch.ok("export", dentist).text
        #expect(alone.contains("SUMMARY:Dentist\r"))
        #expect(!alone.contains("SUMMARY:Planning\r"))
    }
}

extension ImportExportTests {
    @Test("an occurrence sent without its series (an invitation to one) imports as an event of its own and exports as it came; the series, imported later, takes its place")
    func occurrenceWithoutSeries() throws {
        let scratch = Scratch()
        let moved = ["BEGIN:VEVENT", "UID:standup@chime.test", "DTSTAMP:20261201T000000Z", "RECURRENCE-ID:20261208T090000Z",
                     "DTSTART:20261208T100000Z", "DTEND:20261208T103000Z", "SUMMARY:Stand-up (moved)", "END:VEVENT"]
        let invitation = try scratch.calendarFile("invitation.ics", moved)
        let first = scratch.ok("import", invitation)
        #expect(first.text.hasSuffix(": 1 added, 0 updated, 0 unchanged"), "\(first.text)")
        let again = scratch.ok("import", invitation)
        #expect(again.text.hasSuffix(": 0 added, 0 updated, 1 unchanged"), "\(again.text)")
        let december = Date(timeIntervalSince1970: 1_796_083_200)..<Date(timeIntervalSince1970: 1_798_761_600) // 2026-12-01T00:00:00Z ..< 2027-01-01T00:00:00Z
        func starts() throws -> [String] {
            try scratch.store().events(overlapping: december).map { event in
                guard case .zoned(let time, let zone, let fold) = event.start else { return "\(event.start)" }
                return "\(event.title) " + RFC3339.text(try TimeZoneRules.named(zone).resolve(time, fold: fold).instant, in: .utc)
            }.sorted()
        }
        #expect(try starts() == ["Stand-up (moved) 2026-12-08T10:00:00+00:00"])
        let exported = scratch.folder + "/export.ics"
        scratch.ok("export", "--output", exported)
        let text = try String(contentsOfFile: exported, encoding: .utf8)
        #expect(text.contains("\r\nUID:standup@chime.test\r\n") && text.contains("\r\nRECURRENCE-ID:20261208T090000Z\r\n"), "\(text)")

        let series = ["BEGIN:VEVENT", "UID:standup@chime.test", "DTSTAMP:20261201T000000Z", "DTSTART:20261201T090000Z",
                      "DTEND:20261201T093000Z", "RRULE:FREQ=WEEKLY;COUNT=3", "SUMMARY:Stand-up", "END:VEVENT"]
        scratch.ok("import", try scratch.calendarFile("series.ics", series + moved))
        #expect(try starts() == ["Stand-up (moved) 2026-12-08T10:00:00+00:00", "Stand-up 2026-12-01T09:00:00+00:00", "Stand-up 2026-12-15T09:00:00+00:00"])
        // A series sent without that occurrence shows it unmoved: the lone copy does not linger beside it.
        scratch.ok("import", invitation)
        scratch.ok("import", try scratch.calendarFile("plain.ics", series.map { $0 == "DTSTAMP:20261201T000000Z" ? "DTSTAMP:20261202T000000Z" : $0 }))
        #expect(try starts() == ["Stand-up 2026-12-01T09:00:00+00:00", "Stand-up 2026-12-08T09:00:00+00:00", "Stand-up 2026-12-15T09:00:00+00:00"])
    }

    @Test("an event whose UID is another's with '#' after it stays when that series is imported, though a component it keeps has a RECURRENCE-ID")
    func hashInUIDIsNotAPartOfTheSeries() throws {
        let scratch = Scratch()
        let notes = ["BEGIN:VEVENT", "UID:standup@chime.test#notes", "DTSTAMP:20261201T000000Z", "DTSTART:20261202T120000Z",
                     "SUMMARY:Stand-up notes", "BEGIN:X-CHIME-TEST", "RECURRENCE-ID:20261208T090000Z", "END:X-CHIME-TEST", "END:VEVENT"]
        let series = ["BEGIN:VEVENT", "UID:standup@chime.test", "DTSTAMP:20261201T000000Z", "DTSTART:20261201T090000Z",
                      "RRULE:FREQ=WEEKLY;COUNT=2", "SUMMARY:Stand-up", "END:VEVENT"]
        scratch.ok("import", try scratch.calendarFile("notes.ics", notes))
        let report = scratch.ok("import", try scratch.calendarFile("series.ics", series))
        #expect(report.text.hasSuffix(": 1 added, 0 updated, 0 unchanged"), "\(report.text)")
        let december = Date(timeIntervalSince1970: 1_796_083_200)..<Date(timeIntervalSince1970: 1_798_761_600) // 2026-12-01T00:00:00Z ..< 2027-01-01T00:00:00Z
        #expect(try scratch.store().events(overlapping: december).map(\.title).sorted() == ["Stand-up", "Stand-up", "Stand-up notes"])
    }

    @Test("a file giving an item or an occurrence twice keeps the later revision; an occurrence its series excludes, and a second SUMMARY, are left out")
    func revisionsInOneFile() throws {
        let scratch = Scratch()
        let path = scratch.folder + "/revisions.ics"
        // recurring-ical-events' issue 148 and 164: a series' two revisions, an edited occurrence the later one deletes, an occurrence twice.
        let lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Chime//test//EN",
                     "BEGIN:VEVENT", "UID:111", "DTSTAMP:20240707T214014Z", "DTSTART;VALUE=DATE:20240701", "SUMMARY:test123",
                     "RRULE:FREQ=WEEKLY;UNTIL=20240801;INTERVAL=2;BYDAY=MO", "SEQUENCE:1", "END:VEVENT",
                     "BEGIN:VEVENT", "UID:111", "RECURRENCE-ID;VALUE=DATE:20240715", "DTSTAMP:20240707T214014Z", "DTSTART;VALUE=DATE:20240702",
                     "SUMMARY:test123 - edited", "SEQUENCE:2", "END:VEVENT",
                     "BEGIN:VEVENT", "UID:111", "DTSTAMP:20240707T214014Z", "DTSTART;VALUE=DATE:20240701", "SUMMARY:test123",
                     "RRULE:FREQ=WEEKLY;UNTIL=20240801;INTERVAL=2;BYDAY=MO", "EXDATE;VALUE=DATE:20240715", "SEQUENCE:3", "END:VEVENT",
                     "BEGIN:VEVENT", "UID:222", "DTSTAMP:20240707T214014Z", "DTSTART;VALUE=DATE:20240401", "SUMMARY:other",
                     "SUMMARY;LANGUAGE=de:andere", "RRULE:FREQ=WEEKLY;COUNT=2", "END:VEVENT",
                     "BEGIN:VEVENT", "UID:222", "RECURRENCE-ID;VALUE=DATE:20240408", "DTSTAMP:20240707T214014Z", "DTSTART;VALUE=DATE:20240409",
                     "SUMMARY:other - first copy", "END:VEVENT",
                     "BEGIN:VEVENT", "UID:222", "RECURRENCE-ID;VALUE=DATE:20240408", "DTSTAMP:20240707T214014Z", "DTSTART;VALUE=DATE:20240409",
                     "SUMMARY:other - second copy", "END:VEVENT",
                     "END:VCALENDAR"]
        try (lines.joined(separator: "\r\n") + "\r\n").write(toFile: path, atomically: true, encoding: .utf8)
        let check = scratch.run("import", "--check", path)
        #expect(check.status == 0, "\(check.errors)")
        #expect(check.errors.contains { $0.contains("revisions.ics:12: VEVENT 111: is an occurrence its series excludes (EXDATE 2024-07-15T00:00:00): left out") },
                "\(check.errors)")
        #expect(check.errors.contains { $0.contains("revisions.ics:34: VEVENT 222: SUMMARY is given more than once (RFC 5545 allows one): "
                                                    + "the first is used, this one left out") }, "\(check.errors)")
        scratch.ok("import", path)
        let year = Date(timeIntervalSince1970: 1_704_067_200)..<Date(timeIntervalSince1970: 1_735_689_600) // 2024-01-01T00:00:00Z ..< 2025-01-01T00:00:00Z
        let events = try scratch.store().events(overlapping: year).map { "\($0.title) \($0.start)" }.sorted()
        #expect(events == ["other - second copy 2024-04-09", "other 2024-04-01", "test123 2024-07-01", "test123 2024-07-29"], "\(events)")
    }

    @Test("chime export then chime import into another store keeps each alarm's missed window, dwell and first-position choice")
    func alarmFieldsThroughTheCommands() throws {
        let home = Scratch()
        let rent = home.add("reminder", "Pay rent", "--due", "2026-12-05 17:00", "--alarm", "0", "--missed-window", "2h")
        let office = home.add("reminder", "Hand in the badge", "--alarm-arrive", "31.2304,121.4737,200", "--dwell", "5m",
                              "--first-position", "rings")
        let file = home.folder + "/out.ics"
        home.ok("export", rent, office, "-o", file)

        let laptop = Scratch()
        #expect(laptop.ok("import", file, "--calendar", "Home").text.contains("2 added"))
        let store = try laptop.store()
        let reminders = try store.items(of: try store.calendar(named: "Home").identifier).reminders
        let byTitle = Dictionary(uniqueKeysWithValues: reminders.map { ($0.title, $0) })
        let rentAlarm = try #require(byTitle["Pay rent"]?.alarms.first)
        #expect(rentAlarm.missedWindow == 7_200)
        let officeAlarm = try #require(byTitle["Hand in the badge"]?.alarms.first)
        #expect(officeAlarm.dwell == 300)
        #expect(officeAlarm.firesOnFirstFix)
        #expect(![rentAlarm, officeAlarm].contains { $0.unmodelled.contains("X-CHIME") }, "the X-CHIME properties are read into the alarm, not kept as text")
    }
}
