import CalendarExchange
import CalendarModel
import CalendarStore
import CommandLineInterface
import Foundation
import TestSupport
import Testing

/// `chime workday`, `workdays` and `holidays`, on the bundled data and on
/// holiday-cn files served from loopback.
@Suite("chime workday, workdays and holidays")
struct HolidaysCommandTests {
    /// The holiday-cn fixtures in the repository; missing, they fail.
    static func referenceFolder() throws -> String {
        let folder = try PackagePaths.requireHolidayCN()
        try #require(FileManager.default.fileExists(atPath: folder + "/2021.json"), "the holiday-cn fixtures are missing: no \(folder)/2021.json")
        return folder
    }

    /// A made-up 2027 notice, for the update that finds it published.
    static let notice2027 = Array("""
        {"year": 2027, "papers": ["https://example.gov.cn/2027"], "days": [
          {"name": "元旦", "date": "2027-01-01", "isOffDay": true},
          {"name": "元旦", "date": "2027-01-02", "isOffDay": true},
          {"name": "元旦", "date": "2027-01-03", "isOffDay": true},
          {"name": "春节", "date": "2027-02-06", "isOffDay": false},
          {"name": "春节", "date": "2027-02-07", "isOffDay": true},
          {"name": "春节", "date": "2027-02-08", "isOffDay": true}]}
        """.utf8)

    @Test("the 2021 Mid-Autumn and National Day schedule, with reasons and exit statuses")
    func autumn2021() throws {
        let scratch = Scratch()
        let expected: [(String, Int32, String)] = [
            ("2021-09-17", 0, "2021-09-17 Fri: workday (ordinary workday)"),
            ("2021-09-18", 0, "2021-09-18 Sat: workday (makeup workday for 中秋节)"),
            ("2021-09-19", 1, "2021-09-19 Sun: day off (中秋节)"),
            ("2021-09-21", 1, "2021-09-21 Tue: day off (中秋节)"),
            ("2021-09-26", 0, "2021-09-26 Sun: workday (makeup workday for 国庆节)"),
            ("2021-10-01", 1, "2021-10-01 Fri: day off (国庆节)"),
            ("2021-10-07", 1, "2021-10-07 Thu: day off (国庆节)"),
            ("2021-10-09", 0, "2021-10-09 Sat: workday (makeup workday for 国庆节)"),
            ("2021-10-10", 1, "2021-10-10 Sun: day off (weekend)"),
        ]
        for (date, status, line) in expected {
            let run = scratch.run("workday", date)
            #expect(run.status == status, "\(date)")
            #expect(run.output == [line])
            #expect(run.errors.isEmpty)
        }
        let json = try scratch.run("workday", "2021-10-09", "--json").json()
        #expect(json["workday"] as? Bool == true && json["reason"] as? String == "makeup" && json["holiday"] as? String == "国庆节")
        #expect(scratch.ok("workdays", "--from", "2021-09-17", "--to", "2021-10-10").output == [
            "2021-09-17", "2021-09-18", "2021-09-22", "2021-09-23", "2021-09-24", "2021-09-26", "2021-09-27", "2021-09-28",
            "2021-09-29", "2021-09-30", "2021-10-08", "2021-10-09",
        ])
    }

    @Test("a year without data answers with the ordinary week and warns, naming the year and the fix")
    func missingYear() throws {
        let scratch = Scratch()
        let run = scratch.run("workday", "2027-02-08")
        #expect(run.status == 0)
        #expect(run.output == ["2027-02-08 Mon: workday (ordinary workday)"])
        let warning = run.errors.joined()
        #expect(warning.contains("2027") && warning.contains("chime holidays update") && warning.contains("Mon–Fri"))
        let range = scratch.ok("workdays", "--from", "2026-12-30", "--to", "2027-01-04")
        // 2027-01-01 is a Friday: a workday as far as the ordinary week knows.
        #expect(range.output == ["2026-12-30", "2026-12-31", "2027-01-01", "2027-01-04"])
        #expect(range.errors.joined().contains("2027"))
        #expect(scratch.ok("holidays", "status").output.last?.hasPrefix("missing: 2027") == true)
    }

    @Test("each command that answers from the ordinary week for want of data warns alike: command, region, years, week and fix")
    func missingYearWarningText() throws {
        let scratch = Scratch()
        func warning(_ command: String, _ years: String) -> String {
            "chime \(command): warning: no cn holiday data for \(years); the ordinary week (Mon–Fri) answers instead. "
                + "Once the notice is out, 'chime holidays update' fetches it (or 'chime holidays import FILE')."
        }
        #expect(scratch.ok("workday", "2027-02-08").errors == [warning("workday", "2027")])
        #expect(scratch.ok("workdays", "--from", "2027-12-30", "--to", "2028-01-04").errors == [warning("workdays", "2027, 2028")])
        #expect(scratch.ok("holidays", "--year", "2027").errors == [warning("holidays", "2027")])
        // 2027-12-30 (Thursday), 2027-12-31 (Friday), 2028-01-03 (Monday).
        #expect(scratch.ok("rrule", "FREQ=DAILY;X-WORKDAY=SKIP", "--start", "2027-12-30T08:50:00", "--tz", "Asia/Shanghai",
                           "--count", "3").errors == [warning("rrule", "2027, 2028")])
        #expect(scratch.ok("workday", "2026-12-07").errors.isEmpty)
        #expect(scratch.ok("holidays", "--year", "2026").errors.isEmpty)
    }

    @Test("holidays lists a year's exceptions; week switches the ordinary week")
    func listAndWeek() throws {
        let scratch = Scratch()
        let list = scratch.ok("holidays", "--year", "2024").output
        #expect(list.contains("2024-02-04 Sun  work  春节"))
        #expect(list.contains("2024-02-17 Sat  off   春节"))
        #expect(list.first == "2024-01-01 Mon  off   元旦")
        #expect(scratch.ok("holidays", "week", "mon-sat").output == ["ordinary week (cn): Mon–Sat"])
        #expect(scratch.run("workday", "2026-12-05").output == ["2026-12-05 Sat: workday (ordinary workday)"])
        #expect(scratch.ok("holidays", "week", "sun-thu").output == ["ordinary week (cn): Sun–Thu"])
        #expect(scratch.run("workday", "2026-12-04").status == 1)
        try scratch.refuses(["holidays", "week", "someday"], status: 65, mentioning: ["someday"])
    }

    @Test("import refuses a malformed or inconsistent file, naming it and the entry, and changes nothing")
    func importRefusals() throws {
        let scratch = Scratch()
        _ = try scratch.store()   // read-only commands do not create one
        let folder = scratch.folder + "/files"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let cases: [(String, String, [String])] = [
            ("2027.json", #"{"year": 2027, "papers": [], "days": [{"name": "元旦", "date": "2027-01-01", "isOffDay": true}, {"name": "元旦", "date": "2027-01-01", "isOffDay": true}]}"#,
             ["2027.json", "2027-01-01"]),
            ("2028.json", #"{"year": 2028, "papers": [], "days": [{"name": "元旦", "date": "2028-01-04", "isOffDay": false}]}"#,
             ["2028.json", "2028-01-04"]),
            ("2029.json", #"{"year": 2029, "papers": [], "days": [{"name": "元旦", "date": "2031-01-01", "isOffDay": true}]}"#,
             ["2029.json", "2031-01-01"]),
            ("2030.json", #"{"year": 2030, "days": [oops]}"#, ["2030.json"]),
        ]
        for (name, text, fragments) in cases {
            try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
            try scratch.refuses(["holidays", "import", folder + "/" + name], status: 65, mentioning: fragments + ["nothing imported"])
        }
        // A good file beside a bad one: the good one is not imported either.
        try Data(Self.notice2027).write(to: URL(fileURLWithPath: folder + "/good-2027.json"))
        try scratch.refuses(["holidays", "import", folder + "/2028.json", folder + "/good-2027.json"], status: 65, mentioning: ["2028.json"])
        try scratch.refuses(["holidays", "import", folder + "/none.json"], status: 66, mentioning: ["none.json"])
        #expect(scratch.ok("holidays", "status").output.last?.hasPrefix("missing: 2027") == true)
    }

    @Test("update fetches from loopback: new and changed years are imported, unchanged ones reported, a bad source changes nothing")
    func update() throws {
        let reference = try Self.referenceFolder()
        var files: [String: [UInt8]] = [:]
        for year in 2007...2026 {
            files["/\(year).json"] = Array(try Data(contentsOf: URL(fileURLWithPath: "\(reference)/\(year).json")))
        }
        // As in the snapshot: 2027 is listed but empty.
        files["/2027.json"] = Array(try Data(contentsOf: URL(fileURLWithPath: "\(reference)/2027.json")))
        let server = try LoopbackHTTPServer(files: files)
        let scratch = Scratch()

        var run = scratch.ok("holidays", "update", "--from", server.base)
        #expect(run.output == ["20 years checked: 0 new, 0 changed, 20 unchanged; not published yet: 2027"])
        #expect(server.requests == (2007...2027).map { "/\($0).json" })

        // The 2027 notice comes out.
        server.setFile("/2027.json", Self.notice2027)
        run = scratch.ok("holidays", "update", "--from", server.base + "/{year}.json")
        #expect(run.output == [
            "2027: new, 5 days off and 1 makeup workdays from 1 notice (\(server.base)/2027.json)",
            "21 years checked: 1 new, 0 changed, 20 unchanged",
        ])
        let newYear = scratch.run("workday", "2027-01-01")
        #expect(newYear.status == 1 && newYear.output == ["2027-01-01 Fri: day off (元旦)"] && newYear.errors.isEmpty)
        #expect(scratch.run("workday", "2027-02-06").output == ["2027-02-06 Sat: workday (makeup workday for 春节)"])

        // A correction to 2027: the second day of 春节 dropped.
        let corrected = String(decoding: Self.notice2027, as: UTF8.self)
            .replacingOccurrences(of: ",\n  {\"name\": \"春节\", \"date\": \"2027-02-08\", \"isOffDay\": true}", with: "")
        #expect(corrected.utf8.count < Self.notice2027.count)
        server.setFile("/2027.json", Array(corrected.utf8))
        run = scratch.ok("holidays", "update", "--from", server.base)
        #expect(run.output.first == "2027: changed, 4 days off and 1 makeup workdays from 1 notice (\(server.base)/2027.json)")
        #expect(scratch.run("workday", "2027-02-08").status == 0)

        // A broken year on the server: nothing is imported, not even good years.
        server.setFile("/2026.json", Array(#"{"year": 2026, "days": [{"name": "x", "date": "2026-13-01", "isOffDay": true}]}"#.utf8))
        server.setFile("/2027.json", Self.notice2027)
        try scratch.refuses(["holidays", "update", "--from", server.base], status: 65, mentioning: ["2026.json", "nothing imported"])
        #expect(scratch.run("workday", "2027-02-08").status == 0)

        // A server that is gone.
        let base = server.base
        server.stop()
        try scratch.refuses(["holidays", "update", "--from", base], status: 69, mentioning: [base + "/2007.json", "nothing imported"])
    }

    @Test("holidays source: a folder is kept as a whole path, and update fetches from it; off, and back to holiday-cn; a source that is not one is refused and changes nothing")
    func source() throws {
        let scratch = Scratch()
        let fetches = "chimed fetches the years workday rules need once a day (this year's, and next year's from October)"
        #expect(scratch.ok("holidays", "source").output == ["holiday data comes from \(HolidayFeed.defaultPattern) (holiday-cn); " + fetches])
        let folder = TemporaryFolder("chime-holiday-source")
        try Data(Self.notice2027).write(to: URL(fileURLWithPath: folder.appending("2027.json")))
        let name = (folder.path as NSString).lastPathComponent
        // Given with a detour, kept whole: chimed does not run in the command's folder.
        #expect(scratch.ok("holidays", "source", folder.path + "/../" + name + "/").output == ["holiday data comes from \(folder.path); " + fetches])
        struct Shown: Decodable, Equatable {
            var source: String
            var daemonFetches: Bool
        }
        func json() throws -> Shown { try JSONDecoder().decode(Shown.self, from: Data(scratch.ok("holidays", "source", "--json").output.joined().utf8)) }
        #expect(try json() == Shown(source: folder.path, daemonFetches: true))
        // update with no --from takes it.
        #expect(scratch.ok("holidays", "update").output == [
            "2027: new, 5 days off and 1 makeup workdays from 1 notice (\(folder.path)/2027.json)",
            "1 year checked: 1 new, 0 changed, 0 unchanged; not published yet: 2026",
        ])
        #expect(scratch.run("workday", "2027-01-01").status == 1)

        // A mirror is shown as the pattern it fetches.
        #expect(scratch.ok("holidays", "source", "https://mirror.example/holiday-cn/").output
                == ["holiday data comes from https://mirror.example/holiday-cn/{year}.json; " + fetches])
        #expect(scratch.ok("holidays", "source", "off").output
                == ["off: chimed does not fetch holiday data; 'chime holidays update' fetches from holiday-cn (\(HolidayFeed.defaultPattern))"])
        #expect(try json() == Shown(source: HolidayFeed.defaultPattern, daemonFetches: false))

        // Refused, and the setting stays off.
        try scratch.refuses(["holidays", "source", "ftp://mirror.example/"], status: 65, mentioning: ["'ftp://mirror.example/'", "ftp is not a source"])
        try scratch.refuses(["holidays", "source", folder.appending("none")], status: 66, mentioning: [folder.appending("none"), "no such folder"])
        try scratch.refuses(["holidays", "source", folder.path, "off"], status: 64, mentioning: ["one SOURCE at most"])
        try scratch.refuses(["holidays", "source", "off", "--region", "cn"], status: 64, mentioning: ["--region"])
        #expect(scratch.ok("holidays", "source").output.first?.hasPrefix("off:") == true)
        #expect(scratch.ok("holidays", "source", "holiday-cn").output == ["holiday data comes from \(HolidayFeed.defaultPattern) (holiday-cn); " + fetches])
    }
}

@Suite("Workday rules on the command line")
struct WorkdayRuleCommandTests {
    @Test("the clock-in reminder: --repeat workdays, due on the first workday, moving past the holiday as it is completed")
    func clockIn() throws {
        // Friday 2026-09-25, 07:00 in Shanghai: the first day of the Mid-Autumn break.
        let scratch = Scratch(now: Date(timeIntervalSince1970: RFC3339.instant("2026-09-25T07:00:00+08:00")!))
        let id = scratch.add("reminder", "Clock in", "--due", "08:50", "--repeat", "workdays", "--alarm", "0")
        let json = try scratch.ok("show", id, "--json").json()
        #expect(json["recurrenceRule"] as? String == "FREQ=DAILY;X-WORKDAY=SKIP")
        #expect(json["due"] as? String == "2026-09-28T08:50:00+08:00")
        #expect(scratch.ok("list", "reminders").output == ["Mon 09-28 08:50        Clock in  [\(id)]"])
        for _ in 0..<3 { scratch.ok("complete", id) }
        #expect(try scratch.ok("show", id, "--json").json()["due"] as? String == "2026-10-08T08:50:00+08:00")
    }

    @Test("chime rrule takes the words and the workday parts, and warns about years without data")
    func rrule() throws {
        let scratch = Scratch()
        let makeup = scratch.ok("rrule", "makeup-workdays", "--start", "2026-01-01T21:00:00", "--tz", "Asia/Shanghai", "--count", "3")
        #expect(makeup.output == ["2026-01-04T21:00:00+08:00", "2026-02-14T21:00:00+08:00", "2026-02-28T21:00:00+08:00"])
        let back = scratch.ok("rrule", "back-to-work", "--start", "2026-01-01T09:00:00", "--tz", "Asia/Shanghai", "--count", "2")
        #expect(back.output == ["2026-01-04T09:00:00+08:00", "2026-02-24T09:00:00+08:00"])
        // The 1st of each month, moved to the next workday: 2026-10-01 is in the National Day break.
        let rent = scratch.ok("rrule", "FREQ=MONTHLY;BYMONTHDAY=1;X-WORKDAY=FORWARD", "--start", "2026-09-01T10:00:00",
                              "--tz", "Asia/Shanghai", "--count", "2")
        #expect(rent.output == ["2026-09-01T10:00:00+08:00", "2026-10-08T10:00:00+08:00"])
        let late = scratch.ok("rrule", "workdays", "--start", "2026-12-31T08:50:00", "--tz", "Asia/Shanghai", "--count", "2")
        #expect(late.output == ["2026-12-31T08:50:00+08:00", "2027-01-01T08:50:00+08:00"])
        #expect(late.errors.joined().contains("2027"))
        // Makeup workdays after the last ones in the data (2026-10-10) are none: the years searched without data are named.
        let none = scratch.ok("rrule", "makeup-workdays", "--start", "2026-11-01T09:00:00", "--tz", "Asia/Shanghai", "--count", "3")
        #expect(none.output.isEmpty)
        #expect(none.errors.count == 1 && none.errors.first?.hasPrefix("chime rrule: warning: no cn holiday data for 2027;") == true,
                "\(none.errors)")
        let refused = scratch.run("rrule", "FREQ=DAILY;X-WORKDAY=SKIP;X-REGION=JP", "--start", "2026-12-01T08:50:00")
        #expect(refused.status == 65 && refused.errors.joined().contains("JP"))
    }
}
