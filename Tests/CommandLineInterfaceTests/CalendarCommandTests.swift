import CalendarModel
import CommandLineInterface
import Foundation
import Testing

@Suite("chime status, calendars and calendar")
struct CalendarCommandTests {
    @Test("status before any store exists says so and creates nothing")
    func statusWithoutStore() throws {
        let scratch = Scratch()
        let run = scratch.ok("status")
        #expect(run.output == ["Store:  \(scratch.path)", "Access: not determined"])
        let json = try scratch.ok("status", "--json").json()
        #expect(json["path"] as? String == scratch.path)
        #expect(json["access"] as? String == "not determined")
        #expect(json["changeCounter"] is NSNull)
        #expect(!FileManager.default.fileExists(atPath: scratch.path))
    }

    @Test("status counts calendars, events, reminders and changes")
    func statusCounts() throws {
        let scratch = Scratch()
        scratch.add("event", "One", "--start", "2026-12-02T10:00")
        scratch.add("event", "Daily", "--start", "2026-12-02T11:00", "--repeat", "FREQ=DAILY")
        scratch.add("reminder", "Three")
        let json = try scratch.ok("status", "--json").json()
        #expect(json["access"] as? String == "authorized")
        #expect(json["calendars"] as? Int == 1)
        #expect(json["events"] as? Int == 2)
        #expect(json["reminders"] as? Int == 1)
        let counter = try #require(json["changeCounter"] as? Int)
        scratch.add("reminder", "Four")
        #expect(try scratch.changeCounter() == counter + 1)
        #expect(scratch.ok("status").output.contains("Reminders: 2 (2 not completed)"))
    }

    @Test("calendars are added, listed, renamed and removed")
    func calendars() throws {
        let scratch = Scratch()
        #expect(scratch.ok("calendar", "add", "Work", "--color", "#ff9500").output == ["added calendar 'Work'"])
        #expect(scratch.ok("calendars").output == [
            "Personal  #3478F6  default for events and reminders",
            "Work      #FF9500",
        ])
        let json = try scratch.ok("calendars", "--json").json()
        let list = try #require(json["calendars"] as? [[String: Any]])
        #expect(list.map { $0["title"] as? String } == ["Personal", "Work"])
        #expect(list[0]["defaultForEvents"] as? Bool == true)
        #expect(list[1]["color"] as? String == "#FF9500")
        #expect(list[1]["allowsContentModifications"] as? Bool == true)
        scratch.ok("calendar", "rename", "Work", "Office")
        #expect(scratch.ok("calendars").output.first == "Office    #FF9500")
        scratch.ok("calendar", "remove", "Office")
        #expect(scratch.ok("calendars").output.count == 1)
    }

    @Test("a calendar with items is removed only with --yes, and takes them with it")
    func removeNonEmpty() throws {
        let scratch = Scratch()
        scratch.ok("calendar", "add", "Work")
        scratch.add("event", "Meeting", "--start", "2026-12-02T10:00", "--calendar", "Work")
        try scratch.refuses(["calendar", "remove", "Work"], status: 65, mentioning: ["calendar 'Work' holds 1 item", "--yes"])
        #expect(scratch.ok("list", "events").output.count == 1)
        scratch.ok("calendar", "remove", "Work", "--yes")
        #expect(scratch.ok("list", "events").output == ["No events."])
    }

    @Test("calendar refusals: unknown 66, duplicate, bad colour and the last one 65, usage 64")
    func refusals() throws {
        let scratch = Scratch()
        scratch.ok("calendar", "add", "Home")
        try scratch.refuses(["calendar", "remove", "Nowhere"], status: 66, mentioning: ["calendar 'Nowhere'"])
        try scratch.refuses(["calendar", "rename", "Nowhere", "Else"], status: 66, mentioning: ["calendar 'Nowhere'"])
        try scratch.refuses(["calendar", "add", "home"], status: 65, mentioning: ["'home' already exists"])
        try scratch.refuses(["calendar", "add", "Red", "--color", "red"], status: 65, mentioning: ["color 'RED'", "#RRGGBB"])
        try scratch.refuses(["calendar", "rename", "Home", "Personal"], status: 65, mentioning: ["'Personal' already exists"])
        scratch.ok("calendar", "remove", "Home")
        try scratch.refuses(["calendar", "remove", "Personal"], status: 65, mentioning: ["'Personal' is the last one"])
        try scratch.refuses(["calendar", "paint", "Personal"], status: 64, mentioning: ["unknown action 'paint'"])
        try scratch.refuses(["calendar", "add"], status: 64, mentioning: ["missing NAME"])
        try scratch.refuses(["calendar", "rename", "Personal"], status: 64, mentioning: ["missing NEW"])
        try scratch.refuses(["calendar", "remove", "Personal", "--color", "#000000"], status: 64, mentioning: ["--color"])
    }

    @Test("every command has --help, and 'chime --help' documents the exit statuses")
    func help() {
        for command in ["status", "calendars", "calendar", "add", "list", "agenda", "show", "edit", "remove", "complete"] {
            let run = CapturedRun([command, "--help"])
            #expect(run.status == 0)
            #expect(run.text.hasPrefix("usage: chime \(command)"), "\(command)")
            #expect(run.text.contains("66"), "\(command) --help does not document exit status 66")
        }
        #expect(CapturedRun(["add", "event", "--help"]).text.contains("--alarm-arrive"))
        #expect(CapturedRun(["add", "reminder", "--help"]).text.contains("--priority"))
        let usage = CapturedRun(["--help"]).text
        for status in ["64", "65", "66"] { #expect(usage.contains(status)) }
    }
}
