import CalendarModel
import CalendarStore
import CommandLineInterface
import Foundation
import TestSupport
import Testing

@Suite("chime subscribe and chime refresh")
struct SubscribeCommandTests {
    static func feed(_ events: [(uid: String, title: String, day: Int)], name: String? = "Team") -> [UInt8] {
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n" + (name.map { "X-WR-CALNAME:\($0)\r\n" } ?? "")
        for event in events {
            text += "BEGIN:VEVENT\r\nUID:\(event.uid)\r\nDTSTAMP:20261201T000000Z\r\n"
                + "DTSTART;TZID=Asia/Shanghai:202612\(CivilDate.twoDigits(event.day))T090000\r\n"
                + "DTEND;TZID=Asia/Shanghai:202612\(CivilDate.twoDigits(event.day))T100000\r\nSUMMARY:\(event.title)\r\n"
                + "BEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT10M\r\nDESCRIPTION:x\r\nEND:VALARM\r\nEND:VEVENT\r\n"
        }
        return Array((text + "END:VCALENDAR\r\n").utf8)
    }

    @Test("subscribe makes a read-only calendar named by the feed; refresh adds, updates and removes what the feed changed")
    func subscribeAndRefresh() throws {
        let server = try LoopbackHTTPServer(files: ["/team.ics": Self.feed([("a@t", "Planning", 3), ("b@t", "Review", 4)])])
        let scratch = Scratch()
        let subscribed = scratch.ok("subscribe", server.base + "/team.ics", "--every", "6h")
        #expect(subscribed.text == "Team: 2 added, 0 updated, 0 removed, 0 unchanged")
        #expect(scratch.ok("calendars").output.contains { $0.hasPrefix("Team ") && $0.hasSuffix("subscribed to \(server.base)/team.ics, read-only") })
        let store = try scratch.store()
        let team = try store.calendar(named: "Team")
        #expect(try store.subscription(of: team.identifier)?.refreshInterval == 21_600)
        let events = try store.items(of: team.identifier).events
        #expect(events.map(\.event.title).sorted() == ["Planning", "Review"])
        #expect(events.allSatisfy { $0.event.alarms.count == 1 }, "the feed's alarms ring like any other")

        // An edit is refused: the feed is the calendar's one writer.
        let id = events[0].event.identifier.rawValue
        try scratch.refuses(["edit", id, "--title", "Mine"], status: 65, mentioning: ["calendar 'Team' is read-only"])

        server.setFile("/team.ics", Self.feed([("a@t", "Planning (moved)", 5), ("c@t", "Retro", 6)]))
        #expect(scratch.ok("refresh").text == "Team: 1 added, 1 updated, 1 removed, 0 unchanged")
        #expect(try store.items(of: team.identifier).events.map(\.event.title).sorted() == ["Planning (moved)", "Retro"])
        #expect(scratch.ok("refresh", "Team").text == "Team: 0 added, 0 updated, 0 removed, 2 unchanged")
        // The same feed again would ring each alarm twice.
        try scratch.refuses(["subscribe", server.base + "/team.ics", "--name", "Team again"], status: 65,
                            mentioning: ["is already subscribed as 'Team'"])
        #expect(!scratch.ok("calendars").text.contains("Team again"))
    }

    @Test("a feed that fails keeps the last good copy and refresh exits 69; a first download that fails subscribes nothing")
    func failures() throws {
        let server = try LoopbackHTTPServer(files: ["/team.ics": Self.feed([("a@t", "Planning", 3)], name: nil)])
        let scratch = Scratch()
        #expect(scratch.ok("subscribe", server.base + "/team.ics", "--name", "Work feed").text.hasPrefix("Work feed: 1 added"))
        server.setFile("/team.ics", nil)
        let failed = scratch.run("refresh")
        #expect(failed.status == 69)
        #expect(failed.text.contains("Work feed: not refreshed, keeps its last copy"))
        let store = try scratch.store()
        let calendar = try store.calendar(named: "Work feed")
        #expect(try store.items(of: calendar.identifier).events.count == 1)
        #expect(try store.subscription(of: calendar.identifier)?.consecutiveFailures == 1)

        let none = scratch.run("subscribe", server.base + "/nothing.ics", "--name", "Nothing")
        #expect(none.status == 69)
        #expect(none.errors.joined().contains("not subscribed"))
        #expect(!scratch.ok("calendars").text.contains("Nothing"))
        #expect(scratch.run("subscribe", "ftp://example.com/x.ics").status == 65)
        #expect(scratch.run("subscribe", server.base + "/team.ics", "--every", "10s").status == 65)
    }

    @Test("a feed cut short keeps the last good copy; one with a broken component takes the rest, removes nothing and names it")
    func brokenFeeds() throws {
        let whole = Self.feed([("a@t", "Planning", 3), ("b@t", "Review", 4), ("c@t", "Retro", 7)])
        let server = try LoopbackHTTPServer(files: ["/team.ics": whole])
        let scratch = Scratch()
        #expect(scratch.ok("subscribe", server.base + "/team.ics").text == "Team: 3 added, 0 updated, 0 removed, 0 unchanged")
        let store = try scratch.store()
        let team = try store.calendar(named: "Team")
        func titles() throws -> [String] { try store.items(of: team.identifier).events.map(\.event.title).sorted() }

        // The download stops inside the second event: no END:VCALENDAR.
        let text = String(decoding: whole, as: UTF8.self)
        let cut = text.range(of: "SUMMARY:Review")!.lowerBound
        server.setFile("/team.ics", Array(text[..<cut].utf8))
        let truncated = scratch.run("refresh")
        #expect(truncated.status == 69)
        #expect(truncated.text.hasPrefix("Team: not refreshed, keeps its last copy: "), "\(truncated.text)")
        #expect(truncated.text.contains("BEGIN:VCALENDAR is never ended"), "\(truncated.text)")
        #expect(try titles() == ["Planning", "Retro", "Review"])

        // Review's start is not a date, and Retro has left the feed: Planning's
        // change is taken, Review keeps its last good copy, Retro stays.
        let broken = String(decoding: Self.feed([("a@t", "Planning (moved)", 5), ("b@t", "Review", 4)]), as: UTF8.self)
            .replacingOccurrences(of: "20261204T090000", with: "20261304T090000")
        server.setFile("/team.ics", Array(broken.utf8))
        let partial = scratch.ok("refresh")
        #expect(partial.text == "Team: 0 added, 1 updated, 0 removed, 0 unchanged, 1 component left out "
            + "(cannot be read; nothing is removed until the feed reads whole)")
        #expect(partial.errors.count == 1)
        #expect(partial.errors.first?.hasPrefix("chime refresh: 'Team': left out \(server.base)/team.ics:") == true, "\(partial.errors)")
        #expect(partial.errors.first?.contains("VEVENT b@t") == true, "\(partial.errors)")
        #expect(try titles() == ["Planning (moved)", "Retro", "Review"])

        // Whole again: what the feed lacks goes.
        server.setFile("/team.ics", Self.feed([("a@t", "Planning (moved)", 5), ("b@t", "Review", 4)]))
        #expect(scratch.ok("refresh").text == "Team: 0 added, 0 updated, 1 removed, 2 unchanged")
        #expect(try titles() == ["Planning (moved)", "Review"])
    }

    @Test("the feed wins over the stored copy whatever its SEQUENCE: an override dropped from the feed goes, a rename under a lower SEQUENCE is taken")
    func feedWins() throws {
        func series(sequence: Int, title: String, override: Bool) -> [UInt8] {
            var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nX-WR-CALNAME:Team\r\n"
                + "BEGIN:VEVENT\r\nUID:s@t\r\nDTSTAMP:20261201T000000Z\r\nSEQUENCE:\(sequence)\r\n"
                + "DTSTART;TZID=Asia/Shanghai:20261207T093000\r\nDURATION:PT30M\r\nRRULE:FREQ=DAILY;COUNT=5\r\n"
                + "SUMMARY:\(title)\r\nEND:VEVENT\r\n"
            if override {
                text += "BEGIN:VEVENT\r\nUID:s@t\r\nDTSTAMP:20261201T000000Z\r\nSEQUENCE:4\r\n"
                    + "RECURRENCE-ID;TZID=Asia/Shanghai:20261209T093000\r\n"
                    + "DTSTART;TZID=Asia/Shanghai:20261209T110000\r\nDURATION:PT30M\r\nSUMMARY:\(title) (moved)\r\nEND:VEVENT\r\n"
            }
            return Array((text + "END:VCALENDAR\r\n").utf8)
        }
        let server = try LoopbackHTTPServer(files: ["/team.ics": series(sequence: 2, title: "Stand-up", override: true)])
        let scratch = Scratch()
        #expect(scratch.ok("subscribe", server.base + "/team.ics").text == "Team: 1 added, 0 updated, 0 removed, 0 unchanged")
        let store = try scratch.store()
        let team = try store.calendar(named: "Team")
        #expect(try store.items(of: team.identifier).events.first?.detached.count == 1)

        server.setFile("/team.ics", series(sequence: 2, title: "Stand-up", override: false))
        #expect(scratch.ok("refresh").text == "Team: 0 added, 1 updated, 0 removed, 0 unchanged")
        #expect(try store.items(of: team.identifier).events.first?.detached.isEmpty == true)

        server.setFile("/team.ics", series(sequence: 0, title: "Daily", override: false))
        #expect(scratch.ok("refresh").text == "Team: 0 added, 1 updated, 0 removed, 0 unchanged")
        #expect(try store.items(of: team.identifier).events.map(\.event.title) == ["Daily"])
        #expect(scratch.ok("refresh").text == "Team: 0 added, 0 updated, 0 removed, 1 unchanged")
    }

    @Test("a feed of two VCALENDAR objects refreshes as one batch: removing what is missing keeps both parts' items and drops only what left")
    func multiCalendarFeed() throws {
        func body(_ first: [(uid: String, title: String, day: Int)], _ second: [(uid: String, title: String, day: Int)]) -> [UInt8] {
            Self.feed(first) + Self.feed(second, name: nil)
        }
        let server = try LoopbackHTTPServer(files: ["/two.ics": body([("a@t", "Planning", 3)], [("b@t", "Review", 4), ("c@t", "Retro", 7)])])
        let scratch = Scratch()
        #expect(scratch.ok("subscribe", server.base + "/two.ics").text == "Team: 3 added, 0 updated, 0 removed, 0 unchanged")
        let store = try scratch.store()
        let team = try store.calendar(named: "Team")
        #expect(try store.items(of: team.identifier).events.map(\.event.title).sorted() == ["Planning", "Retro", "Review"])

        // Unchanged, the second part's items are not taken as missing from the first's.
        #expect(scratch.ok("refresh").text == "Team: 0 added, 0 updated, 0 removed, 3 unchanged")
        server.setFile("/two.ics", body([("a@t", "Planning", 3)], [("b@t", "Review", 4)]))
        #expect(scratch.ok("refresh").text == "Team: 0 added, 0 updated, 1 removed, 2 unchanged")
        #expect(try store.items(of: team.identifier).events.map(\.event.title).sorted() == ["Planning", "Review"])
    }
}
