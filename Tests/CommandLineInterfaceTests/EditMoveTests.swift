import CalendarModel
import CalendarStore
import CommandLineInterface
import Foundation
import Testing

@Suite("chime edit --calendar, --tz, --floating and show --occurrence")
struct EditMoveTests {
    func standUp(_ scratch: Scratch) -> String {
        scratch.add("event", "Stand-up", "--start", "2026-12-01T08:50", "--duration", "10m",
                    "--repeat", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")
    }

    @Test("--calendar moves a repeating event together with its detached occurrence")
    func moveSeries() throws {
        let scratch = Scratch()
        scratch.ok("calendar", "add", "Work")
        let series = standUp(scratch)
        let detached = scratch.ok("edit", series, "--occurrence", "2026-12-02", "--title", "Stand-up (late)").output.first ?? ""
        scratch.ok("edit", series, "--calendar", "Work")
        #expect(try scratch.ok("show", series, "--json").json()["calendar"] as? String == "Work")
        #expect(try scratch.ok("show", detached, "--json").json()["calendar"] as? String == "Work")
        // --to is the last day listed.
        let work = scratch.ok("list", "events", "--from", "2026-12-01", "--to", "2026-12-02", "--calendar", "Work").output
        #expect(work == ["Tue 12-01 08:50–09:00  Stand-up  [\(series)]", "Wed 12-02 08:50–09:00  Stand-up (late)  [\(detached)]"])
        #expect(scratch.ok("list", "events", "--from", "2026-12-01", "--to", "2026-12-02", "--calendar", "Personal").output
            == ["No events."])
    }

    @Test("--calendar is refused for one occurrence, for an unknown calendar and out of a read-only one, writing nothing")
    func moveRefusals() throws {
        let scratch = Scratch()
        scratch.ok("calendar", "add", "Work")
        let series = standUp(scratch)
        try scratch.refuses(["edit", series, "--occurrence", "2026-12-02", "--calendar", "Work"], status: 65,
                            mentioning: ["calendar", "series"])
        try scratch.refuses(["edit", series, "--calendar", "Nowhere"], status: 66, mentioning: ["Nowhere"])
        // A calendar that turns read-only (a subscription) after an event was saved in it.
        let store = try scratch.store()
        var holidays = ItemCalendar(title: "Holidays", kind: .subscribed(url: "https://example.com/h.ics"))
        try store.save(holidays)
        let newYear = Event(calendarIdentifier: holidays.identifier, title: "New Year",
                            start: .date(CivilDate(year: 2027, month: 1, day: 1)!), end: .date(CivilDate(year: 2027, month: 1, day: 1)!))
        try store.save(newYear)
        holidays.allowsContentModifications = false
        try store.save(holidays)
        try scratch.refuses(["edit", newYear.identifier.short, "--calendar", "Work"], status: 65, mentioning: ["'Holidays'", "read-only"])
    }

    @Test("--tz keeps the wall-clock reading in the new zone; --floating keeps it and drops the zone")
    func zone() throws {
        let scratch = Scratch()
        let call = scratch.add("event", "Call Berlin", "--start", "2026-12-03T09:00", "--duration", "30m")
        scratch.ok("edit", call, "--tz", "Europe/Berlin")
        var json = try scratch.ok("show", call, "--json").json()
        #expect(json["timeZone"] as? String == "Europe/Berlin")
        // 09:00 in Berlin (UTC+1 in December) is 16:00 in Shanghai.
        #expect(json["start"] as? String == "2026-12-03T09:00:00+01:00")
        #expect(scratch.ok("list", "events", "--from", "2026-12-03", "--to", "2026-12-04").output
            == ["Thu 12-03 16:00–16:30  Call Berlin  [\(call)]"])
        // A start given with --tz is read in the new zone.
        scratch.ok("edit", call, "--tz", "America/New_York", "--start", "2026-12-03T08:00")
        json = try scratch.ok("show", call, "--json").json()
        #expect(json["start"] as? String == "2026-12-03T08:00:00-05:00")
        #expect(json["end"] as? String == "2026-12-03T08:30:00-05:00")
        scratch.ok("edit", call, "--floating")
        json = try scratch.ok("show", call, "--json").json()
        #expect(json["timeZone"] is NSNull)
        #expect(scratch.ok("list", "events", "--from", "2026-12-03", "--to", "2026-12-04").output
            == ["Thu 12-03 08:00–08:30  Call Berlin  [\(call)]"])
    }

    @Test("--tz is refused for all-day events, unknown zones and together with --floating")
    func zoneRefusals() throws {
        let scratch = Scratch()
        let trip = scratch.add("event", "Trip", "--start", "2026-12-10", "--all-day")
        let call = scratch.add("event", "Call", "--start", "2026-12-03T09:00")
        try scratch.refuses(["edit", trip, "--tz", "Europe/Berlin"], status: 65, mentioning: ["all-day"])
        try scratch.refuses(["edit", call, "--tz", "Mars/Olympus"], status: 65, mentioning: ["Mars/Olympus"])
        try scratch.refuses(["edit", call, "--tz", "Europe/Berlin", "--floating"], status: 64, mentioning: ["--floating"])
    }

    @Test("show --occurrence shows one occurrence, with a change made to it alone")
    func showOccurrence() throws {
        let scratch = Scratch()
        let series = standUp(scratch)
        scratch.ok("edit", series, "--occurrence", "2026-12-02", "--title", "Stand-up (late)", "--start", "2026-12-02 09:30")
        let plain = try scratch.ok("show", series, "--occurrence", "2026-12-03", "--json").json()
        #expect(plain["start"] as? String == "2026-12-03T08:50:00+08:00")
        #expect(plain["originalStart"] as? String == "2026-12-03T08:50:00+08:00")
        let changed = try scratch.ok("show", series, "--occurrence", "2026-12-02", "--json").json()
        #expect(changed["title"] as? String == "Stand-up (late)")
        #expect(changed["start"] as? String == "2026-12-02T09:30:00+08:00")
        try scratch.refuses(["show", series, "--occurrence", "2026-12-05"], status: 66, mentioning: ["2026-12-05"])
    }
}

@Suite("chime edit --start on a repeating event, and --repeat none")
struct EditSeriesStartTests {
    func c10(_ scratch: Scratch) -> String {
        scratch.add("event", "c10", "--start", "2026-12-02T09:00", "--tz", "UTC", "--repeat", "FREQ=DAILY;COUNT=10",
                    "--exdate", "2026-12-08T09:00")
    }

    func listed(_ scratch: Scratch) -> [String] {
        scratch.ok("list", "events", "--from", "2026-12-01", "--to", "2026-12-14").output
    }

    @Test("--start moves the exclusion and the detached occurrence with the series: nine occurrences, 12-03 once")
    func moveSeries() throws {
        let scratch = Scratch(zone: "UTC")
        let series = c10(scratch)
        let detached = scratch.ok("edit", series, "--occurrence", "2026-12-03T09:00", "--title", "detached one").output.first ?? ""
        scratch.ok("edit", series, "--start", "2026-12-02T10:00")
        let lines = listed(scratch)
        #expect(lines == [
            "Wed 12-02 10:00–11:00  c10  [\(series)]", "Thu 12-03 10:00–11:00  detached one  [\(detached)]",
            "Fri 12-04 10:00–11:00  c10  [\(series)]", "Sat 12-05 10:00–11:00  c10  [\(series)]",
            "Sun 12-06 10:00–11:00  c10  [\(series)]", "Mon 12-07 10:00–11:00  c10  [\(series)]",
            "Wed 12-09 10:00–11:00  c10  [\(series)]", "Thu 12-10 10:00–11:00  c10  [\(series)]",
            "Fri 12-11 10:00–11:00  c10  [\(series)]",
        ])
        let json = try scratch.ok("show", series, "--json").json()
        #expect(json["exceptionDates"] as? [String] == ["2026-12-08T10:00:00+00:00"])
        #expect(try scratch.ok("show", detached, "--json").json()["originalStart"] as? String == "2026-12-03T10:00:00+00:00")
    }

    @Test("a split with a new start moves the later exclusion with it")
    func splitWithNewStart() throws {
        let scratch = Scratch(zone: "UTC")
        let series = c10(scratch)
        let later = scratch.ok("edit", series, "--occurrence", "2026-12-05T09:00", "--span", "future", "--start", "2026-12-05T10:00")
            .output.first ?? ""
        #expect(listed(scratch) == [
            "Wed 12-02 09:00–10:00  c10  [\(series)]", "Thu 12-03 09:00–10:00  c10  [\(series)]",
            "Fri 12-04 09:00–10:00  c10  [\(series)]", "Sat 12-05 10:00–11:00  c10  [\(later)]",
            "Sun 12-06 10:00–11:00  c10  [\(later)]", "Mon 12-07 10:00–11:00  c10  [\(later)]",
            "Wed 12-09 10:00–11:00  c10  [\(later)]", "Thu 12-10 10:00–11:00  c10  [\(later)]",
            "Fri 12-11 10:00–11:00  c10  [\(later)]",
        ])
    }

    @Test("--repeat none leaves the first occurrence alone and removes the detached ones")
    func repeatNone() throws {
        let scratch = Scratch(zone: "UTC")
        let series = c10(scratch)
        let detached = scratch.ok("edit", series, "--occurrence", "2026-12-03T09:00", "--title", "detached one").output.first ?? ""
        scratch.ok("edit", series, "--repeat", "none")
        #expect(listed(scratch) == ["Wed 12-02 09:00–10:00  c10  [\(series)]"])
        try scratch.refuses(["show", detached], status: 66, mentioning: [detached])
    }
}
