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
