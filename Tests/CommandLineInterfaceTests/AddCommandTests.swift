import CalendarModel
import CalendarStore
import CommandLineInterface
import Foundation
import Testing

@Suite("chime add event and add reminder")
struct AddCommandTests {
    @Test("--tz with an item whose times are dates alone is said to give them no zone; with a time it says nothing")
    func zoneOfDates() throws {
        let scratch = Scratch()
        let reminder = scratch.run("add", "reminder", "Pay rent", "--due", "2026-12-20", "--tz", "Asia/Shanghai")
        #expect(reminder.status == 0)
        #expect(reminder.errors == ["chime add reminder: warning: --tz Asia/Shanghai: the reminder's dates have no time, so no zone; "
            + "it is on its dates wherever the machine is, and its alarms ring on the machine's clock"])
        let event = scratch.run("add", "event", "Holiday", "--start", "2026-12-24", "--tz", "Asia/Shanghai")
        #expect(event.status == 0 && event.errors.count == 1 && event.errors.first?.hasPrefix("chime add event: warning: --tz Asia/Shanghai: the event's") == true,
                "\(event.errors)")
        #expect(scratch.run("add", "reminder", "Call", "--due", "2026-12-20T09:00", "--tz", "Asia/Shanghai").errors.isEmpty)
        #expect(scratch.run("add", "reminder", "Someday", "--tz", "Asia/Shanghai").errors.isEmpty)
    }

    @Test("adding again with a --key updates the item of the same kind; a key another kind holds is refused with 65 and changes nothing")
    func keyHeldByTheOtherKind() throws {
        let scratch = Scratch()
        let reminder = scratch.add("reminder", "Pay rent", "--due", "2026-12-05 17:00", "--key", "rent")
        #expect(scratch.add("reminder", "Pay the rent", "--due", "2026-12-05 17:00", "--key", "rent") == reminder)
        let event = scratch.run("add", "event", "Rent day", "--start", "2026-12-05T09:00", "--key", "rent")
        #expect(event.status == 65)
        #expect(event.errors.first?.hasPrefix("chime add event: --key 'rent' is already used by reminder \(reminder) in calendar ") == true,
                "\(event.errors)")
        let standUp = scratch.add("event", "Stand-up", "--start", "2026-12-02T08:50", "--key", "standup")
        let other = scratch.run("add", "reminder", "Stand up", "--key", "standup")
        #expect(other.status == 65)
        #expect(other.errors.first?.hasPrefix("chime add reminder: --key 'standup' is already used by event \(standUp) in calendar ") == true,
                "\(other.errors)")
        let titles = try scratch.store().reminders(.all).map(\.title)
        #expect(titles == ["Pay the rent"])
    }

    @Test("a timed event lasts an hour unless told, in the machine's zone, and lists on its day")
    func timedEvent() throws {
        let scratch = Scratch()
        let id = scratch.add("event", "Stand-up", "--start", "2026-12-02 08:50", "--duration", "10m")
        #expect(id.count == 8)
        scratch.add("event", "Lunch", "--start", "2026-12-02T12:00")
        let list = scratch.ok("list", "events")
        #expect(list.output == [
            "Wed 12-02 08:50–09:00  Stand-up  [\(id)]",
            "Wed 12-02 12:00–13:00  Lunch  [\(list.output.last?.suffix(9).dropLast() ?? "")]",
        ])
        let json = try scratch.ok("show", id, "--json").json()
        #expect(json["start"] as? String == "2026-12-02T08:50:00+08:00")
        #expect(json["end"] as? String == "2026-12-02T09:00:00+08:00")
        #expect(json["timeZone"] as? String == "Asia/Shanghai")
        #expect(json["allDay"] as? Bool == false)
    }

    @Test("--end, --tz and --floating")
    func endZoneFloating() throws {
        let scratch = Scratch()
        let id = scratch.add("event", "Call", "--start", "2026-12-03T09:00", "--end", "2026-12-03T09:45", "--tz", "Europe/London")
        let json = try scratch.ok("show", id, "--json").json()
        #expect(json["start"] as? String == "2026-12-03T09:00:00+00:00")
        #expect(json["end"] as? String == "2026-12-03T09:45:00+00:00")
        #expect(json["timeZone"] as? String == "Europe/London")
        // Listed on the machine's (Shanghai) wall clock.
        #expect(scratch.ok("list", "events").output == ["Thu 12-03 17:00–17:45  Call  [\(id)]"])
        let floating = scratch.add("event", "Stretch", "--start", "2026-12-04T10:00", "--floating")
        let object = try scratch.ok("show", floating, "--json").json()
        #expect(object["floating"] as? Bool == true)
        #expect(object["timeZone"] is NSNull)
    }

    @Test("all-day events: a date alone, --all-day, and --duration in days")
    func allDay() throws {
        let scratch = Scratch()
        let one = scratch.add("event", "Holiday", "--start", "2026-12-02")
        let two = scratch.add("event", "Offsite", "--start", "2026-12-03T09:00", "--all-day", "--duration", "2d")
        #expect(scratch.ok("list", "events").output == [
            "Wed 12-02 all day      Holiday  [\(one)]",
            "Thu 12-03 to Fri 12-04  Offsite  [\(two)]",
        ])
        let json = try scratch.ok("show", two, "--json").json()
        #expect(json["allDay"] as? Bool == true)
        #expect(json["start"] as? String == "2026-12-03")
        #expect(json["end"] as? String == "2026-12-04")
        try scratch.refuses(["add", "event", "Half", "--start", "2026-12-05", "--duration", "12h"], status: 65,
                            mentioning: ["--duration '12h'", "whole days"])
    }

    @Test("--repeat with --exdate leaves the excepted occurrences out")
    func repeatAndExdate() throws {
        let scratch = Scratch()
        let id = scratch.add("event", "Stand-up", "--start", "2026-12-01T08:50", "--duration", "10m",
                             "--repeat", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "--exdate", "2026-12-02", "--exdate", "2026-12-04T08:50")
        #expect(scratch.ok("list", "events", "--from", "2026-12-01", "--to", "2026-12-07").output == [
            "Tue 12-01 08:50–09:00  Stand-up  [\(id)]",
            "Thu 12-03 08:50–09:00  Stand-up  [\(id)]",
            "Mon 12-07 08:50–09:00  Stand-up  [\(id)]",
        ])
        let json = try scratch.ok("show", id, "--json").json()
        #expect(json["recurrenceRule"] as? String == "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")
        #expect(json["exceptionDates"] as? [String] == ["2026-12-02T08:50:00+08:00", "2026-12-04T08:50:00+08:00"])
    }

    @Test("alarms of every kind, in the JSON")
    func alarms() throws {
        let scratch = Scratch()
        let run = scratch.ok("add", "event", "Flight", "--start", "2026-12-05T10:00", "--alarm", "-10m", "--alarm", "+1h",
                             "--alarm-at", "2026-12-04T20:00", "--alarm-arrive", "31.2304,121.4737,200",
                             "--alarm-leave", "39.9,116.4", "--location", "PVG", "--json")
        let json = try run.json()
        let identifier = try #require(json["identifier"] as? String)
        #expect(identifier.count == 32)
        #expect(json["shortIdentifier"] as? String == String(identifier.prefix(8)))
        let alarms = try #require(json["alarms"] as? [[String: Any]])
        #expect(alarms.count == 5)
        #expect(alarms.map { $0["type"] as? String } == ["relative", "relative", "absolute", "proximity", "proximity"])
        #expect(alarms[0]["offsetSeconds"] as? Int == -600)
        #expect(alarms[1]["offsetSeconds"] as? Int == 3600)
        #expect(alarms[2]["at"] as? String == "2026-12-04T12:00:00Z")
        #expect(alarms[3]["proximity"] as? String == "enter")
        #expect(alarms[3]["latitude"] as? Double == 31.2304)
        #expect(alarms[3]["radius"] as? Double == 200)
        #expect(alarms[3]["locationTitle"] as? String == "PVG")
        #expect(alarms[4]["proximity"] as? String == "leave")
        #expect(alarms[4]["radius"] as? Double == 100)
        let show = scratch.ok("show", String(identifier.prefix(6))).output
        #expect(show.contains("Alarm:    10m before"))
        #expect(show.contains("Alarm:    on arriving at 31.2304,121.4737 within 200 m (PVG)"))
    }

    @Test("--json of an event has every field")
    func eventJSON() throws {
        let scratch = Scratch()
        let json = try scratch.ok("add", "event", "Review", "--start", "tomorrow 14:00", "--notes", "bring slides",
                                  "--url", "https://example.com/r", "--location", "Room 4", "--key", "sync-1", "--json").json()
        for key in ["type", "identifier", "shortIdentifier", "calendar", "calendarIdentifier", "title", "location", "notes", "url",
                    "allDay", "floating", "timeZone", "start", "end", "recurrenceRule", "exceptionDates", "alarms",
                    "externalKey", "seriesIdentifier", "originalStart", "updatedExisting"] {
            #expect(json[key] != nil, "missing \(key)")
        }
        #expect(json["type"] as? String == "event")
        #expect(json["calendar"] as? String == "Personal")
        #expect(json["start"] as? String == "2026-12-02T14:00:00+08:00")
        #expect(json["url"] as? String == "https://example.com/r")
        #expect(json["externalKey"] as? String == "sync-1")
        #expect(json["recurrenceRule"] is NSNull)
    }

    @Test("reminders: due date or time, priority, repeat, alarms, JSON")
    func reminders() throws {
        let scratch = Scratch()
        let rent = scratch.add("reminder", "Pay rent", "--due", "2026-12-02 17:00", "--priority", "high", "--alarm", "-1h")
        let milk = scratch.add("reminder", "Buy milk", "--due", "2026-12-01")
        let someday = scratch.add("reminder", "Read a book")
        #expect(scratch.ok("list", "reminders").output == [
            "Tue 12-01              Buy milk  [\(milk)]",
            "Wed 12-02 17:00        Pay rent  [\(rent)]",
            "anytime                Read a book  [\(someday)]",
        ])
        let json = try scratch.ok("add", "reminder", "Plants", "--due", "tomorrow 08:00", "--repeat", "FREQ=DAILY",
                                  "--alarm-arrive", "31.2,121.4", "--json").json()
        for key in ["type", "identifier", "title", "notes", "priority", "due", "completed", "completionDate", "recurrenceRule",
                    "alarms", "externalKey", "calendar", "overdue"] {
            #expect(json[key] != nil, "missing \(key)")
        }
        #expect(json["due"] as? String == "2026-12-02T08:00:00+08:00")
        #expect(json["recurrenceRule"] as? String == "FREQ=DAILY")
        #expect(json["completed"] as? Bool == false)
        #expect((json["alarms"] as? [[String: Any]])?.first?["proximity"] as? String == "enter")
        let shown = try scratch.ok("show", rent, "--json").json()
        #expect(shown["priority"] as? Int == 1)
        #expect((shown["alarms"] as? [[String: Any]])?.first?["offsetSeconds"] as? Int == -3600)
    }

    @Test("--key saves idempotently, and a key another item holds is refused")
    func keys() throws {
        let scratch = Scratch()
        let first = scratch.add("event", "Sync A", "--start", "2026-12-02T10:00", "--key", "ext-1")
        let again = try scratch.ok("add", "event", "Sync A (moved)", "--start", "2026-12-02T11:00", "--key", "ext-1", "--json").json()
        #expect(again["shortIdentifier"] as? String == first)
        #expect(again["updatedExisting"] as? Bool == true)
        #expect(scratch.ok("list", "events").output == ["Wed 12-02 11:00–12:00  Sync A (moved)  [\(first)]"])
        try scratch.refuses(["add", "reminder", "Clash", "--key", "ext-1"], status: 65, mentioning: ["--key 'ext-1'", first])
        let other = scratch.add("event", "Sync B", "--start", "2026-12-03T10:00", "--key", "ext-2")
        try scratch.refuses(["edit", other, "--key", "ext-1"], status: 65, mentioning: ["ext-1", "Personal"])
    }

    @Test("refusals name the value, exit 64, 65 or 66, and write nothing")
    func refusals() throws {
        let scratch = Scratch()
        scratch.ok("status")
        _ = try scratch.store()  // the store exists, so that a refusal could have written
        try scratch.refuses(["add", "event", "X", "--start", "2026-02-30T10:00"], status: 65,
                            mentioning: ["--start", "'2026-02-30T10:00'", "February 2026 has only 28 days"])
        try scratch.refuses(["add", "event", "X", "--start", "tomorrow 10:00", "--tz", "Mars/Olympus"], status: 65,
                            mentioning: ["--tz", "Mars/Olympus"])
        try scratch.refuses(["add", "event", "X", "--start", "tomorrow 10:00", "--repeat", "FREQ=SOMETIMES"], status: 65,
                            mentioning: ["--repeat 'FREQ=SOMETIMES'"])
        try scratch.refuses(["add", "event", "X", "--start", "tomorrow 10:00", "--alarm-arrive", "91,0"], status: 65,
                            mentioning: ["--alarm-arrive '91,0'", "latitude", "91"])
        try scratch.refuses(["add", "reminder", "X", "--alarm-leave", "10,200,50", "--due", "today"], status: 65,
                            mentioning: ["longitude", "200"])
        try scratch.refuses(["add", "reminder", "X", "--alarm-at", "10:00", "--alarm-arrive", "10,20,-5"], status: 65,
                            mentioning: ["radius", "-5"])
        try scratch.refuses(["add", "event", "X", "--start", "tomorrow 10:00", "--end", "tomorrow 09:00"], status: 65,
                            mentioning: ["--end 'tomorrow 09:00'", "before"])
        try scratch.refuses(["add", "event", "X", "--start", "tomorrow 10:00", "--alarm", "ten"], status: 65,
                            mentioning: ["--alarm", "'ten'"])
        try scratch.refuses(["add", "reminder", "X", "--priority", "12"], status: 65, mentioning: ["--priority '12'"])
        try scratch.refuses(["add", "event", "X", "--start", "tomorrow 10:00", "--calendar", "Nowhere"], status: 66,
                            mentioning: ["calendar 'Nowhere'"])
        try scratch.refuses(["add", "event", "X"], status: 64, mentioning: ["missing --start"])
        try scratch.refuses(["add", "event", "X", "--start", "tomorrow", "--bogus"], status: 64, mentioning: ["unknown option '--bogus'"])
        try scratch.refuses(["add", "event", "X", "Y", "--start", "tomorrow"], status: 64, mentioning: ["'Y'"])
        try scratch.refuses(["add", "event", "X", "--start", "tomorrow 10:00", "--end", "tomorrow 11:00", "--duration", "1h"], status: 64,
                            mentioning: ["--end or --duration"])
        try scratch.refuses(["add", "meeting", "X"], status: 64, mentioning: ["'meeting'"])
        try scratch.refuses(["add", "event", "X", "--start", "tomorrow 10:00", "--tz", "UTC", "--floating"], status: 64,
                            mentioning: ["--floating"])
        try scratch.refuses(["add", "event", "X", "--start", "tomorrow 10:00", "--exdate", "2026-12-09"], status: 64,
                            mentioning: ["--exdate needs --repeat"])
        try scratch.refuses(["add", "reminder", "X", "--repeat", "FREQ=DAILY"], status: 64, mentioning: ["--repeat needs --due"])
    }

    @Test("a read-only calendar refuses new items")
    func readOnlyCalendar() throws {
        let scratch = Scratch()
        try scratch.store().save(ItemCalendar(title: "Holidays", kind: .subscribed(url: "https://example.com/h.ics"),
                                              allowsContentModifications: false))
        try scratch.refuses(["add", "event", "X", "--start", "2026-12-25", "--calendar", "Holidays"], status: 65,
                            mentioning: ["'Holidays'", "read-only"])
        #expect(scratch.ok("calendars").output.contains { $0.contains("Holidays") && $0.contains("read-only") })
    }
}
