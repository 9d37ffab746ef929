import CalendarModel
import CalendarStore
import CommandLineInterface
import Foundation
import Testing

@Suite("chime show, edit, remove and complete")
struct ItemCommandTests {
    /// A workday stand-up from Tuesday 2026-12-01, 08:50–09:00 in Shanghai.
    func standUp(_ scratch: Scratch) -> String {
        scratch.add("event", "Stand-up", "--start", "2026-12-01T08:50", "--duration", "10m", "--alarm", "-5m",
                    "--repeat", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")
    }

    func week(_ scratch: Scratch, to: String = "2026-12-09") -> [String] {
        scratch.ok("list", "events", "--from", "2026-12-01", "--to", to).output
    }

    @Test("edit with --span this detaches one occurrence; remove with --span this makes an exception")
    func spanThis() throws {
        let scratch = Scratch()
        let series = standUp(scratch)
        let detached = scratch.ok("edit", series, "--occurrence", "2026-12-02", "--title", "Stand-up (late)",
                                  "--start", "2026-12-02 09:30").output.first ?? ""
        #expect(detached.count == 8 && detached != series)
        #expect(scratch.ok("remove", series, "--occurrence", "2026-12-03T08:50", "--span", "this").output
            == ["removed the occurrence of 'Stand-up' at 2026-12-03T08:50:00 [\(series)]"])
        #expect(week(scratch, to: "2026-12-04") == [
            "Tue 12-01 08:50–09:00  Stand-up  [\(series)]",
            "Wed 12-02 09:30–09:40  Stand-up (late)  [\(detached)]",
            "Fri 12-04 08:50–09:00  Stand-up  [\(series)]",
        ])
        let json = try scratch.ok("show", detached, "--json").json()
        #expect(json["seriesIdentifier"] as? String == (try scratch.ok("show", series, "--json").json()["identifier"] as? String))
        #expect(json["originalStart"] as? String == "2026-12-02T08:50:00+08:00")
        #expect((json["alarms"] as? [[String: Any]])?.first?["offsetSeconds"] as? Int == -300)
        let exceptions = try scratch.ok("show", series, "--json").json()["exceptionDates"] as? [String]
        #expect(exceptions == ["2026-12-03T08:50:00+08:00"])
    }

    @Test("edit and remove with --span future split and end the series")
    func spanFuture() throws {
        let scratch = Scratch()
        let series = standUp(scratch)
        let later = scratch.ok("edit", series, "--occurrence", "2026-12-04", "--span", "future", "--title", "Daily sync",
                               "--start", "2026-12-04T09:00").output.first ?? ""
        #expect(later.count == 8 && later != series)
        #expect(week(scratch) == [
            "Tue 12-01 08:50–09:00  Stand-up  [\(series)]",
            "Wed 12-02 08:50–09:00  Stand-up  [\(series)]",
            "Thu 12-03 08:50–09:00  Stand-up  [\(series)]",
            "Fri 12-04 09:00–09:10  Daily sync  [\(later)]",
            "Mon 12-07 09:00–09:10  Daily sync  [\(later)]",
            "Tue 12-08 09:00–09:10  Daily sync  [\(later)]",
            "Wed 12-09 09:00–09:10  Daily sync  [\(later)]",
        ])
        scratch.ok("remove", later, "--occurrence", "2026-12-08", "--span", "future")
        #expect(week(scratch).suffix(3) == [
            "Thu 12-03 08:50–09:00  Stand-up  [\(series)]",
            "Fri 12-04 09:00–09:10  Daily sync  [\(later)]",
            "Mon 12-07 09:00–09:10  Daily sync  [\(later)]",
        ])
        scratch.ok("remove", series)
        #expect(week(scratch) == [
            "Fri 12-04 09:00–09:10  Daily sync  [\(later)]",
            "Mon 12-07 09:00–09:10  Daily sync  [\(later)]",
        ])
    }

    @Test("edit changes fields, keeps the length when the start moves, and stops a repetition")
    func editFields() throws {
        let scratch = Scratch()
        let id = scratch.add("event", "Review", "--start", "2026-12-02T14:00", "--duration", "45m", "--repeat", "FREQ=DAILY")
        #expect(scratch.ok("edit", id, "--start", "2026-12-02T15:00", "--location", "Room 4", "--repeat", "none",
                           "--alarm-at", "2026-12-02T14:30").output == [id])
        let json = try scratch.ok("show", id, "--json").json()
        #expect(json["start"] as? String == "2026-12-02T15:00:00+08:00")
        #expect(json["end"] as? String == "2026-12-02T15:45:00+08:00")
        #expect(json["location"] as? String == "Room 4")
        #expect(json["recurrenceRule"] is NSNull)
        #expect((json["alarms"] as? [[String: Any]])?.first?["at"] as? String == "2026-12-02T06:30:00Z")
        scratch.ok("edit", id, "--no-alarms", "--end", "2026-12-02T17:00")
        let after = try scratch.ok("show", id, "--json").json()
        #expect((after["alarms"] as? [Any])?.isEmpty == true)
        #expect(after["end"] as? String == "2026-12-02T17:00:00+08:00")
        let reminder = scratch.add("reminder", "Call", "--due", "tomorrow 10:00")
        scratch.ok("edit", reminder, "--due", "2026-12-04", "--priority", "5", "--notes", "about the trip")
        let shown = scratch.ok("show", reminder).output
        #expect(shown.contains("Due:      Fri 2026-12-04"))
        #expect(shown.contains("Priority: 5 (medium)"))
        #expect(shown.contains("Notes:    about the trip"))
    }

    @Test("completing a repeating reminder completes this occurrence and makes the next one due")
    func completeRecurring() throws {
        let scratch = Scratch()
        let id = scratch.add("reminder", "Water plants", "--due", "2026-12-01 08:00", "--repeat", "FREQ=DAILY;UNTIL=20261202T000000Z")
        #expect(scratch.ok("complete", id).output
            == ["completed 'Water plants' due Tue 2026-12-01 08:00; next due Wed 2026-12-02 08:00 [\(id)]"])
        #expect(scratch.ok("list", "reminders").output == ["Wed 12-02 08:00        Water plants  [\(id)]"])
        let completed = scratch.ok("list", "reminders", "--completed").output
        #expect(completed.count == 1 && completed[0].hasPrefix("Tue 12-01 08:00        Water plants (done Tue 12-01)"))
        let json = try scratch.ok("complete", id, "--json").json()
        #expect(json["completedDue"] as? String == "2026-12-02T08:00:00+08:00")
        #expect(json["nextDue"] is NSNull)
        #expect((json["reminder"] as? [String: Any])?["completed"] as? Bool == true)
        #expect(scratch.ok("complete", id).output == ["'Water plants' was already completed [\(id)]"])
        #expect(scratch.ok("list", "reminders").output == ["No reminders."])
    }

    @Test("complete --occurrence completes the current occurrence once: run again it changes nothing; a later one is refused")
    func completeOccurrence() throws {
        // Today is Tuesday 2026-12-01 in Shanghai; the reminder is due daily at 08:00.
        let scratch = Scratch()
        let id = scratch.add("reminder", "Water plants", "--due", "2026-12-01 08:00", "--repeat", "daily")
        #expect(scratch.ok("complete", id, "--occurrence", "2026-12-01").output
            == ["completed 'Water plants' due Tue 2026-12-01 08:00; next due Wed 2026-12-02 08:00 [\(id)]"])
        // A script's retry: the same occurrence again changes nothing.
        #expect(scratch.ok("complete", id, "--occurrence", "2026-12-01").output
            == ["'Water plants': the occurrence 2026-12-01 is no longer pending (due now: Wed 2026-12-02 08:00); nothing changed [\(id)]"])
        let json = try scratch.ok("complete", id, "--occurrence", "2026-12-01T08:00", "--json").json()
        #expect(json["alreadyCompleted"] as? Bool == true && json["completedDue"] is NSNull)
        #expect(scratch.ok("list", "reminders", "--completed").output.count == 1)
        try scratch.refuses(["complete", id, "--occurrence", "2026-12-03"], status: 65, mentioning: ["is due 2026-12-02T08:00:00 first"])
        #expect(scratch.ok("complete", id, "--occurrence", "2026-12-02T08:00").output.first?.hasPrefix("completed 'Water plants' due Wed 2026-12-02") == true)
        let once = scratch.add("reminder", "Once", "--due", "2026-12-05 10:00")
        try scratch.refuses(["complete", once, "--occurrence", "2026-12-05"], status: 65, mentioning: ["'Once' does not repeat"])
    }

    @Test("identifiers may be abbreviated to a unique prefix; an ambiguous one is refused")
    func abbreviations() throws {
        let scratch = Scratch()
        let store = try scratch.store()
        let calendar = try store.defaultCalendarForNewReminders().identifier
        for suffix in ["1", "2"] {
            let identifier = try #require(ItemIdentifier("abc" + String(repeating: "0", count: 28) + suffix))
            try store.save(Reminder(identifier: identifier, calendarIdentifier: calendar, title: "R\(suffix)"))
        }
        try scratch.refuses(["show", "abc"], status: 65, mentioning: ["'abc' matches 2 items"])
        try scratch.refuses(["complete", "ABC0"], status: 65, mentioning: ["'ABC0' matches 2 items"])
        #expect(scratch.ok("show", "abc" + String(repeating: "0", count: 28) + "2").output.first == "Reminder: R2")
        let id = scratch.add("event", "Solo", "--start", "2026-12-02T10:00")
        #expect(scratch.ok("show", String(id.prefix(5))).output.first == "Event:    Solo")
        #expect(scratch.ok("show", id.uppercased()).output.first == "Event:    Solo")
    }

    @Test("refusals: unknown IDs and occurrences 66, wrong values 65, usage 64, and nothing written")
    func refusals() throws {
        let scratch = Scratch()
        let series = standUp(scratch)
        let reminder = scratch.add("reminder", "Task", "--due", "today")
        let plain = scratch.add("event", "Once", "--start", "2026-12-02T10:00")
        // 64 and 65 digits never start an identifier here: 'f' does not either, unless by chance.
        let unknown = [series, reminder, plain].contains { $0.hasPrefix("ff") } ? "eeee1234" : "ffff1234"
        for command in ["show", "complete", "remove"] {
            try scratch.refuses([command, unknown], status: 66, mentioning: ["no item '\(unknown)'"])
        }
        try scratch.refuses(["edit", unknown, "--title", "X"], status: 66, mentioning: ["no item '\(unknown)'"])
        try scratch.refuses(["show", "not-an-id"], status: 66, mentioning: ["'not-an-id'"])
        try scratch.refuses(["remove", series, "--occurrence", "2026-12-05"], status: 66, mentioning: ["2026-12-05T08:50:00"])
        try scratch.refuses(["edit", series, "--occurrence", "2026-12-01T09:00", "--title", "X"], status: 66, mentioning: ["2026-12-01T09:00:00"])
        try scratch.refuses(["remove", plain, "--occurrence", "2026-12-02"], status: 65, mentioning: ["does not repeat"])
        try scratch.refuses(["complete", plain], status: 65, mentioning: ["is an event"])
        try scratch.refuses(["edit", plain, "--start", "the day after"], status: 65, mentioning: ["--start", "'the day after'"])
        try scratch.refuses(["edit", plain, "--end", "2026-12-02T09:00"], status: 65, mentioning: ["--end '2026-12-02T09:00'", "before"])
        try scratch.refuses(["edit", plain, "--repeat", "FREQ=DAILY;BYHOUR=25"], status: 65, mentioning: ["--repeat 'FREQ=DAILY;BYHOUR=25'"])
        try scratch.refuses(["edit", plain, "--alarm-leave", "0,181"], status: 65, mentioning: ["--alarm-leave '0,181'", "longitude"])
        try scratch.refuses(["edit", reminder, "--priority", "urgent"], status: 65, mentioning: ["--priority 'urgent'"])
        try scratch.refuses(["edit", plain], status: 64, mentioning: ["nothing to change"])
        try scratch.refuses(["edit", plain, "--due", "today"], status: 64, mentioning: ["--due is for reminders"])
        try scratch.refuses(["edit", reminder, "--start", "today"], status: 64, mentioning: ["--start is for events"])
        try scratch.refuses(["edit", series, "--occurrence", "2026-12-02", "--repeat", "FREQ=DAILY"], status: 64, mentioning: ["--span future"])
        try scratch.refuses(["remove", series, "--span", "this"], status: 64, mentioning: ["--span needs --occurrence"])
        try scratch.refuses(["remove", series, "--occurrence", "2026-12-02", "--span", "all"], status: 65, mentioning: ["--span 'all'"])
        try scratch.refuses(["remove", reminder, "--occurrence", "today"], status: 64, mentioning: ["is a reminder"])
        try scratch.refuses(["show"], status: 64, mentioning: ["missing ID"])
        try scratch.refuses(["show", series, plain], status: 64, mentioning: ["unexpected argument"])
    }

    @Test("show prints every field")
    func show() {
        let scratch = Scratch()
        let id = scratch.add("event", "Dentist", "--start", "2026-12-03T16:00", "--tz", "Europe/London", "--location", "High St",
                             "--notes", "bring card", "--url", "https://dentist.example", "--alarm", "-1h", "--key", "d-1")
        let lines = scratch.ok("show", id).output
        #expect(lines.prefix(4) == [
            "Event:    Dentist",
            "Calendar: Personal",
            "Start:    Thu 2026-12-03 16:00 Europe/London",
            "End:      Thu 2026-12-03 17:00 Europe/London",
        ])
        for line in ["Location: High St", "URL:      https://dentist.example", "Notes:    bring card", "Alarm:    1h before", "Key:      d-1"] {
            #expect(lines.contains(line), "\(line)")
        }
        #expect(lines.last?.hasPrefix("ID:       \(id)") == true)
    }
}
