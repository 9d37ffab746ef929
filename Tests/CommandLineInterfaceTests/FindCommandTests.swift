import CalendarModel
import CommandLineInterface
import Foundation
import Testing

/// `chime find WORD…` (now = Tuesday 2026-12-01T08:00:00+08:00, machine in Asia/Shanghai).
@Suite("chime find")
struct FindCommandTests {
    @Test("find lists every item whose title, location or notes hold the words, ignoring case, accents and width, past ones too")
    func findsByTitleLocationAndNotes() throws {
        let scratch = Scratch()
        let dentist = scratch.add("event", "Dentist", "--start", "2026-12-10T15:00")
        let call = scratch.add("reminder", "Call the DENTÍST", "--due", "2026-12-24")
        let checkup = scratch.add("event", "Checkup", "--start", "2025-06-01T10:00", "--location", "ｄｅｎｔｉｓｔ office")
        let forms = scratch.add("reminder", "Forms", "--notes", "for the dentist")
        scratch.add("event", "Gym", "--start", "2026-12-02T18:00", "--notes", "dent")
        let run = scratch.ok("find", "dentist")
        #expect(run.output == [
            "event     Sun 2025-06-01 10:00  Checkup  [\(checkup)]",
            "event     Thu 2026-12-10 15:00  Dentist  [\(dentist)]",
            "reminder  Thu 2026-12-24        Call the DENTÍST  [\(call)]",
            "reminder  anytime               Forms  [\(forms)]",
        ])
        #expect(run.errors.isEmpty)
        #expect(scratch.ok("find", "Dentíst").output == run.output)
        #expect(scratch.ok("find", "ＤＥＮＴＩＳＴ").output == run.output)
    }

    @Test("every word must match, in any field and any order; a word with spaces is its words")
    func everyWordMatches() throws {
        let scratch = Scratch()
        let lunch = scratch.add("event", "Lunch with the team", "--start", "2026-12-04T12:00", "--location", "Canteen")
        #expect(scratch.ok("find", "team", "lunch").output == ["event     Fri 2026-12-04 12:00  Lunch with the team  [\(lunch)]"])
        #expect(scratch.ok("find", "canteen lunch").output.count == 1)
        let none = scratch.run("find", "team", "dinner")
        #expect(none.status == 1)
        #expect(none.output.isEmpty)
        #expect(none.errors == ["chime find: nothing matches 'team dinner'"])
    }

    @Test("a repeating event is listed once, a detached occurrence as its series, a completed reminder as done, in Chinese too")
    func seriesOccurrencesAndCompleted() throws {
        let scratch = Scratch()
        let series = scratch.add("event", "周会", "--start", "2026-11-30T10:00", "--repeat", "FREQ=WEEKLY;COUNT=4")
        scratch.ok("edit", series, "--occurrence", "2026-12-07T10:00", "--title", "周会 (改到会议室B)")
        let done = scratch.add("reminder", "预约会议室", "--due", "2026-11-30")
        scratch.ok("complete", done)
        #expect(scratch.ok("find", "会议室").output == [
            "event     Mon 2026-11-30 10:00  周会 (repeats)  [\(series)]",
            "reminder  Mon 2026-11-30        预约会议室 (done Tue 12-01)  [\(done)]",
        ])
        #expect(scratch.ok("find", "周会").output == ["event     Mon 2026-11-30 10:00  周会 (repeats)  [\(series)]"])
    }

    @Test("--calendar narrows the search; an unknown calendar is not found")
    func calendarFilter() throws {
        let scratch = Scratch()
        scratch.ok("calendar", "add", "Work")
        let home = scratch.add("reminder", "Renew passport")
        let work = scratch.add("reminder", "Renew badge", "--calendar", "Work")
        #expect(scratch.ok("find", "renew").output.count == 2)
        #expect(scratch.ok("find", "renew", "--calendar", "Work").output == ["reminder  anytime               Renew badge  [\(work)]"])
        #expect(scratch.ok("find", "renew", "--calendar", "Personal").output == ["reminder  anytime               Renew passport  [\(home)]"])
        let unknown = scratch.run("find", "renew", "--calendar", "Nope")
        #expect(unknown.status == 66)
    }

    @Test("--json writes the items as list does, and an empty answer still exits 1")
    func json() throws {
        let scratch = Scratch()
        scratch.add("event", "Dentist", "--start", "2026-12-10T15:00", "--location", "Clinic")
        let found = try scratch.ok("find", "clinic", "--json").json()
        let events = try #require(found["events"] as? [[String: Any]])
        #expect(events.map { $0["title"] as? String } == ["Dentist"])
        #expect(events.first?["start"] as? String == "2026-12-10T15:00:00+08:00")
        #expect((found["reminders"] as? [Any])?.isEmpty == true)
        let none = scratch.run("find", "zoo", "--json")
        #expect(none.status == 1)
        #expect(try none.json()["events"] as? [Any] != nil)
        #expect(none.errors.isEmpty)
    }

    @Test("a reminder takes --location and --url: shown, in JSON, found, exported as LOCATION and URL, edited away")
    func reminderLocationAndURL() throws {
        let scratch = Scratch()
        let parcel = scratch.add("reminder", "Pick up the parcel", "--due", "2026-12-08 17:00", "--location", "Post office, 中山路",
                                 "--url", "https://example.com/track")
        #expect(scratch.ok("show", parcel).output.filter { $0.hasPrefix("Location") || $0.hasPrefix("URL") }
                == ["Location: Post office, 中山路", "URL:      https://example.com/track"])
        let json = try scratch.ok("show", parcel, "--json").json()
        #expect(json["location"] as? String == "Post office, 中山路" && json["url"] as? String == "https://example.com/track")
        #expect(scratch.ok("find", "中山路").output == ["reminder  Tue 2026-12-08 17:00  Pick up the parcel  [\(parcel)]"])
        let exported = scratch.ok("export").text
        #expect(exported.contains("\r\nLOCATION:Post office\\, 中山路\r\n") && exported.contains("\r\nURL:https://example.com/track\r\n"))
        scratch.ok("edit", parcel, "--location", "", "--url", "none")
        let edited = try scratch.ok("show", parcel, "--json").json()
        #expect(edited["location"] as? String == "" && edited["url"] is NSNull)
        try scratch.refuses(["add", "reminder", "Odd", "--url", "not a url"], status: 65, mentioning: ["--url 'not a url'"])
    }

    @Test("find with no words is a usage error")
    func noWords() throws {
        let scratch = Scratch()
        scratch.add("reminder", "Anything")
        try scratch.refuses(["find"], status: 64, mentioning: ["say what to find"])
        try scratch.refuses(["find", " "], status: 64, mentioning: ["say what to find"])
    }
}
