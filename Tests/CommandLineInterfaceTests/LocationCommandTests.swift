import AlarmScheduler
import CalendarModel
import CalendarStore
import CommandLineInterface
import Foundation
import Geofencing
import Synchronization
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `chime location` with no daemon running (a runtime folder of its own,
/// empty): what it keeps in the store and what it refuses.
@Suite("chime location")
struct LocationCommandTests {
    final class Run: Sendable {
        let status: Int32
        let output: [String]
        let errors: [String]

        init(status: Int32, output: [String], errors: [String]) {
            self.status = status
            self.output = output
            self.errors = errors
        }
    }

    let temporary = TemporaryFolder("chime-location", create: false)
    var folder: String { temporary.path }
    var storePath: String { folder + "/chime.db" }
    /// 2026-12-01T08:00:00Z.
    static let now = Date(timeIntervalSince1970: 1_796_112_000)

    /// Runs `chime location ARGUMENTS --db PATH`, with `input` on standard input.
    /// `chime location ARGUMENTS` (or, with `command: nil`, `chime ARGUMENTS`) on the test's store.
    func run(_ arguments: [String], input: String = "", command: String? = "location") throws -> Run {
        try FileManager.default.createDirectory(atPath: folder + "/run", withIntermediateDirectories: true)
        var pipe: [Int32] = [0, 0]
        try #require(Glibc.pipe(&pipe) == 0)
        // The writer is a thread of its own, so that more input than the pipe holds cannot block the test.
        let writer = Thread { [pipe] in
            let bytes = Array(input.utf8)
            var sent = 0
            while sent < bytes.count {
                let count = bytes[sent...].withUnsafeBytes { Glibc.write(pipe[1], $0.baseAddress, $0.count) }
                if count <= 0 { break }
                sent += count
            }
            close(pipe[1])
        }
        writer.start()
        defer { close(pipe[0]) }
        let lines = Mutex<(out: [String], err: [String])>(([], []))
        var context = CommandContext(standardOutput: { line in lines.withLock { $0.out.append(line) } },
                                     standardError: { line in lines.withLock { $0.err.append(line) } },
                                     environment: ["XDG_RUNTIME_DIR": folder + "/run"],
                                     machineTimeZone: { TimeZoneRules.utc }, now: { Self.now })
        context.standardInput = pipe[0]
        let status = Chime.run((command.map { [$0] } ?? []) + arguments + ["--db", storePath], context: context)
        return lines.withLock { Run(status: status, output: $0.out, errors: $0.err) }
    }

    func kept() throws -> Fix? {
        try AlarmLedger(store: CalendarStore(path: storePath, machineTimeZone: .utc)).latestPosition()?.fix
    }

    @Test("with no daemon, one position is kept in the store, and says so; a newer one replaces it, an older one does not")
    func keptWithoutDaemon() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let first = try run(["52.52", "13.405", "--accuracy", "12"])
        #expect(first.status == 0, "\(first.errors)")
        #expect(first.errors.count == 1 && first.errors[0].contains("no daemon is running") && first.errors[0].contains("kept"))
        #expect(try kept() == Fix(latitude: 52.52, longitude: 13.405, accuracy: 12, time: 1_796_112_000))
        // A southern latitude and western longitude are numbers, not options.
        #expect(try run(["-33.8688", "-151.2093", "--at", "2026-12-01T08:00:05Z"]).status == 0)
        #expect(try kept() == Fix(latitude: -33.8688, longitude: -151.2093, time: 1_796_112_005))
        #expect(try run(["10", "10", "--at", "2026-12-01T07:59:00Z"]).status == 0)
        #expect(try kept()?.position.latitude == -33.8688)
    }

    @Test("one position takes every form a --stdin line takes: LAT LON [ACCURACY], LAT,LON, a geo: URI, a gpsd report")
    func singleForms() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Each a second newer than the last (from 2026-12-01T08:00:00Z), so each replaces the one kept.
        let cases: [([String], Fix)] = [
            (["31.2,121.4"], try Fix(latitude: 31.2, longitude: 121.4, time: 1_796_112_001)),
            (["geo:31.2304,121.4737"], try Fix(latitude: 31.2304, longitude: 121.4737, time: 1_796_112_002)),
            (["geo:31.2304,121.4737;u=20"], try Fix(latitude: 31.2304, longitude: 121.4737, accuracy: 20, time: 1_796_112_003)),
            (["31.25", "121.47", "15"], try Fix(latitude: 31.25, longitude: 121.47, accuracy: 15, time: 1_796_112_004)),
            (["-33.8688,151.2093", "--accuracy", "8"], try Fix(latitude: -33.8688, longitude: 151.2093, accuracy: 8, time: 1_796_112_005)),
            (["31.2, 121.4"], try Fix(latitude: 31.2, longitude: 121.4, time: 1_796_112_006)),
            // A gpsd report keeps its own time (2026-12-01T08:00:10Z), whatever --at says.
            ([#"{"class":"TPV","mode":2,"time":"2026-12-01T08:00:10Z","lat":31.3,"lon":121.5,"eph":6}"#],
             try Fix(latitude: 31.3, longitude: 121.5, accuracy: 6, time: 1_796_112_010)),
        ]
        for (offset, (arguments, fix)) in cases.enumerated() {
            let at = "2026-12-01T08:00:0\(offset + 1)Z"
            let run = try run(arguments + ["--at", at])
            #expect(run.status == 0, "chime location \(arguments): \(run.errors)")
            #expect(try kept() == fix, "chime location \(arguments)")
        }
    }

    @Test("a stream: every good line used (the newest kept), each bad one named by its line number, exit 65 at the end")
    func streamWithRefusals() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = """
            # a walk
            52.5200 13.4000 5
            geo:52.5201,13.4001;u=8
            95 13.4
            52.52 13.40 -3
            {"class":"TPV","mode":3,"time":"2026-12-01T07:59:58Z","lat":52.5203,"lon":13.4003,"eph":4}
            {"class":"SKY","satellites":[]}
            52.52 nan
            52.52 200
            not a position

            52.5204,13.4004
            """
        let run = try run(["--stdin", "--json"], input: input)
        #expect(run.status == 65)
        let refusals = run.errors.filter { $0.contains(": line ") }
        #expect(refusals.count == 5, "\(run.errors)")
        #expect(refusals.contains { $0.hasPrefix("chime location: line 4: latitude '95.0' must be between -90 and 90") })
        #expect(refusals.contains { $0.hasPrefix("chime location: line 5: accuracy '-3.0' must not be negative") })
        #expect(refusals.contains { $0.hasPrefix("chime location: line 8: longitude 'nan' is not a number") })
        #expect(refusals.contains { $0.hasPrefix("chime location: line 9: longitude '200.0' must be between -180 and 180") })
        #expect(refusals.contains { $0.hasPrefix("chime location: line 10: latitude 'not' is not a number") })
        #expect(run.errors.last == "chime location: 5 line(s) refused; every other line was used")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(run.output.joined().utf8)) as? [String: Any])
        #expect(summary["lines"] as? Int == 12 && summary["fixes"] as? Int == 4 && summary["skipped"] as? Int == 3
                && summary["refused"] as? Int == 5 && summary["kept"] as? Bool == true)
        // Lines without a time of their own are dated when read (now); the gpsd report carries an older one.
        #expect(try kept() == Fix(latitude: 52.5204, longitude: 13.4004, time: 1_796_112_000))
    }

    @Test("coordinates and accuracies are decimal numbers: 0x10, 1e1, inf and nan are refused (65) as not a number, as a position and as --stdin lines; nothing is stored")
    func decimalOnly() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cases: [([String], String)] = [
            (["0x10", "0"], "latitude '0x10' is not a number"),
            (["0", "0x10"], "longitude '0x10' is not a number"),
            (["0x10,0"], "latitude '0x10' is not a number"),
            (["1e1", "0"], "latitude '1e1' is not a number"),
            (["0", "0", "1e1"], "accuracy '1e1' is not a number"),
            (["0", "0", "--accuracy", "0x10"], "--accuracy '0x10' is not a number"),
            (["inf", "0"], "latitude 'inf' is not a number"),
        ]
        for (arguments, fragment) in cases {
            let run = try run(arguments)
            #expect(run.status == 65, "chime location \(arguments): \(run.errors)")
            #expect(run.errors.joined(separator: "\n").contains(fragment), "chime location \(arguments): \(run.errors)")
        }
        let stream = try run(["--stdin"], input: "0x10,0\n1e1,0\ninf,0\nnan,0\n")
        #expect(stream.status == 65)
        #expect(stream.errors.filter { $0.contains(": line ") } == [
            "chime location: line 1: latitude '0x10' is not a number",
            "chime location: line 2: latitude '1e1' is not a number",
            "chime location: line 3: latitude 'inf' is not a number",
            "chime location: line 4: latitude 'nan' is not a number",
        ])
        #expect(try kept() == nil)
        // The decimal forms still read: a sign, a fraction without a leading digit.
        #expect(try run(["+10.5", "-.5"]).status == 0)
        #expect(try kept() == Fix(latitude: 10.5, longitude: -0.5, time: 1_796_112_000))
    }

    @Test("bad single positions: exit 65 with the reason, or 64 for a wrong command line; nothing is stored")
    func refusals() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cases: [([String], Int32, String)] = [
            (["91", "0"], 65, "latitude '91.0' must be between -90 and 90 degrees"),
            (["-90.5", "0"], 65, "latitude '-90.5'"),
            (["0", "180.01"], 65, "longitude '180.01' must be between -180 and 180"),
            (["nan", "0"], 65, "latitude 'nan' is not a number"),
            (["0", "-inf"], 65, "longitude '-inf' is not a number"),
            (["0", "0", "--accuracy", "-1"], 65, "accuracy '-1.0' must not be negative"),
            (["0", "0", "--accuracy", "inf"], 65, "--accuracy 'inf' is not a number"),
            (["north", "0"], 65, "latitude 'north' is not a number"),
            (["0", "0", "--at", "yesterday-ish"], 65, "--at"),
            (["0"], 65, "not a position: '0'; expected LAT LON [ACCURACY], a geo: URI or a gpsd JSON report"),
            (["0", "0", "0", "0"], 65, "not a position: '0 0 0 0'"),
            (["geo:91,0"], 65, "latitude '91.0' must be between -90 and 90"),
            (["0", "0", "5", "--accuracy", "3"], 64, "gives its accuracy already"),
            (["0,0;u=5"], 65, "is not a number"),
            (["#", "0", "0"], 65, "no position in '# 0 0'"),
            (["0", "0", "--stdin"], 64, "one of them"),
            (["--accuracy", "5"], 64, "go with a POSITION"),
            (["0", "0", "--speed", "3"], 64, "unknown option '--speed'"),
        ]
        for (arguments, status, fragment) in cases {
            let run = try run(arguments)
            #expect(run.status == status, "chime location \(arguments): \(run.errors)")
            #expect(run.errors.joined(separator: "\n").contains(fragment), "chime location \(arguments): \(run.errors)")
            #expect(run.output.isEmpty)
        }
        #expect(try kept() == nil)
    }

    @Test("--alarm-leave here and --alarm-arrive here take the newest position kept, with the radius given or 100 m; none kept, or one over 30 minutes old, is refused")
    func here() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let unknown = try run(["add", "reminder", "Buy milk", "--alarm-leave", "here"], command: nil)
        #expect(unknown.status == 65 && unknown.output.isEmpty)
        #expect(unknown.errors.first?.contains("'here' is not known: no position has been taken") == true, "\(unknown.errors)")
        // Taken 30 minutes and one second before now (2026-12-01T08:00:00Z): too old.
        #expect(try run(["31.2304", "121.4737", "--at", "2026-12-01T07:29:59Z"]).status == 0)
        let old = try run(["add", "reminder", "Buy milk", "--alarm-leave", "here"], command: nil)
        #expect(old.status == 65)
        #expect(old.errors.first?.contains("is 30m1s old") == true, "\(old.errors)")
        // Taken now, 20 m good.
        #expect(try run(["31.2305", "121.4738", "--accuracy", "20"]).status == 0)
        let leave = try run(["add", "reminder", "Buy milk", "--alarm-leave", "here,250", "--alarm-arrive", "HERE"], command: nil)
        #expect(leave.status == 0, "\(leave.errors)")
        let store = try CalendarStore(path: storePath, machineTimeZone: .utc)
        let milk = try #require(try store.reminders(.all).first { $0.title == "Buy milk" })
        // Arrive alarms are listed first, as for coordinates.
        #expect(milk.alarms.map(\.trigger) == [
            .proximity(try StructuredLocation(title: "", latitude: 31.2305, longitude: 121.4738, radius: 100), .enter),
            .proximity(try StructuredLocation(title: "", latitude: 31.2305, longitude: 121.4738, radius: 250), .leave),
        ], "\(milk.alarms)")
        for text in ["here,near", "here,1,2", ",1"] {
            let refused = try run(["add", "reminder", "X", "--alarm-leave", text], command: nil)
            #expect(refused.status == 65, "\(text)")
            #expect(refused.errors.first?.contains("nor here or a place, with ,RADIUS or without") == true, "\(text): \(refused.errors)")
        }
        let nowhere = try run(["add", "reminder", "X", "--alarm-leave", "there"], command: nil)
        #expect(nowhere.status == 65 && nowhere.errors.first?.contains("'there' is not a place Chime knows") == true, "\(nowhere.errors)")
    }

    @Test("chime places names a place from coordinates or here; --alarm-leave NAME takes its circle and its name, NAME,RADIUS another radius; remove forgets the place, not the alarms' circles")
    func places() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(try run(["places"], command: nil).output == ["No places named."])
        #expect(try run(["31.2305", "121.4738"]).status == 0)
        let office = try run(["places", "add", "公司", "here,150"], command: nil)
        #expect(office.status == 0 && office.output == ["place 公司  31.2305,121.4738  150 m"], "\(office.errors)")
        #expect(try run(["places", "add", "home", "31.19,121.44"], command: nil).output == ["place home  31.19,121.44  100 m"])
        #expect(try run(["places"], command: nil).output == ["home  31.19,121.44  100 m", "公司  31.2305,121.4738  150 m"])
        struct Place: Decodable, Equatable {
            var name: String
            var latitude, longitude, radius: Double
        }
        struct Places: Decodable { var places: [Place] }
        let listed = try JSONDecoder().decode(Places.self, from: Data(try run(["places", "--json"], command: nil).output.joined().utf8)).places
        #expect(listed == [Place(name: "home", latitude: 31.19, longitude: 121.44, radius: 100),
                           Place(name: "公司", latitude: 31.2305, longitude: 121.4738, radius: 150)])

        let added = try run(["add", "reminder", "Buy milk", "--alarm-leave", "公司", "--alarm-arrive", "home,300"], command: nil)
        #expect(added.status == 0, "\(added.errors)")
        let store = try CalendarStore(path: storePath, machineTimeZone: .utc)
        let expected: [Alarm.Trigger] = [
            .proximity(try StructuredLocation(title: "home", latitude: 31.19, longitude: 121.44, radius: 300), .enter),
            .proximity(try StructuredLocation(title: "公司", latitude: 31.2305, longitude: 121.4738, radius: 150), .leave),
        ]
        #expect(try store.reminders(.all).first?.alarms.map(\.trigger) == expected)

        // Moved, and forgotten: the alarms keep the circles they were made with.
        #expect(try run(["places", "add", "home", "31.2,121.45,80"], command: nil).output == ["place home  31.2,121.45  80 m"])
        let moved = try JSONDecoder().decode(Place.self, from: Data(try run(["places", "add", "home", "31.2,121.45,80", "--json"], command: nil).output.joined().utf8))
        #expect(moved == Place(name: "home", latitude: 31.2, longitude: 121.45, radius: 80))
        #expect(try run(["places", "remove", "公司"], command: nil).output == ["removed place '公司'"])
        #expect(try run(["places"], command: nil).output == ["home  31.2,121.45  80 m"])
        #expect(try store.reminders(.all).first?.alarms.map(\.trigger) == expected)

        for (arguments, status, fragment) in [
            (["places", "remove", "公司"], Int32(66), "no place named '公司'"),
            (["places", "add", "1st", "here"], 65, "is not a place's name"),
            (["places", "add", "here", "31,121"], 65, "is not a place's name"),
            (["places", "add", " home", "31,121"], 65, "is not a place's name"),
            (["places", "add", "far", "91,0"], 65, "latitude"),
            (["places", "add", "far", "somewhere"], 65, "'somewhere' is not a place Chime knows"),
            (["places", "add", "far"], 64, "WHERE"),
            (["places", "move", "home"], 64, "move"),
        ] as [([String], Int32, String)] {
            let refused = try run(arguments, command: nil)
            #expect(refused.status == status, "\(arguments)")
            #expect(refused.errors.first?.contains(fragment) == true, "\(arguments): \(refused.errors)")
        }
        #expect(try run(["places"], command: nil).output == ["home  31.2,121.45  80 m"])
    }

    @Test("--status lists each location alarm of an incomplete reminder with its saved state, and the last position")
    func status() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = try run(["52.52", "13.405"])
        let store = try CalendarStore(path: storePath, machineTimeZone: .utc)
        let office = try StructuredLocation(title: "Office", latitude: 52.52, longitude: 13.405, radius: 150)
        let calendar = try store.defaultCalendarForNewReminders().identifier
        let milk = Reminder(calendarIdentifier: calendar, title: "Buy milk", alarms: [.proximity(office, .leave)])
        let done = Reminder(calendarIdentifier: calendar, title: "Done already", alarms: [.proximity(office, .enter)])
        try store.save(milk)
        try store.save(done)
        try store.complete(done.identifier)
        try AlarmLedger(store: store).saveGeofenceStates([milk.alarms[0].identifier.rawValue: GeofenceState(presence: .inside, lastFixTime: 1_796_112_000)],
                                     latestFixTime: 1_796_112_000)
        let text = try run([])
        #expect(text.status == 0)
        #expect(text.output == ["last position 52.52,13.405 at 2026-12-01T08:00:00+00:00",
                                "inside   Buy milk [\(milk.identifier.short)]  on leaving Office (150 m)"])
        let json = try run(["--status", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output.joined().utf8)) as? [String: Any])
        let fences = try #require(object["geofences"] as? [[String: Any]])
        #expect(fences.count == 1 && fences[0]["state"] as? String == "inside" && fences[0]["radius"] as? Double == 150)
        // The alarm's fields are named as in `chime show --json`.
        let shown = try run(["show", milk.identifier.rawValue, "--json"], command: nil)
        let item = try #require(try JSONSerialization.jsonObject(with: Data(shown.output.joined().utf8)) as? [String: Any])
        let alarm = try #require((item["alarms"] as? [[String: Any]])?.first)
        for key in ["identifier", "type", "proximity", "latitude", "longitude", "radius", "locationTitle", "dwellSeconds", "firstPositionRings"] {
            #expect("\(fences[0][key] ?? "missing")" == "\(alarm[key] ?? "missing")", "\(key)")
        }
        #expect(fences[0]["locationTitle"] as? String == "Office" && fences[0]["item"] as? String == milk.identifier.rawValue)
    }
}
