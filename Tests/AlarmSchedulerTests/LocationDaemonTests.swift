import AlarmScheduler
import CalendarModel
import CalendarStore
import DaemonControl
import Foundation
import Geofencing
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Location alarms end to end: the real `chimed` on a real store, fed by
/// the real `chime location --stdin`, its firings read from its standard
/// output (the log notifier).
@Suite("chimed, location alarms", .serialized)
struct LocationDaemonTests {
    static var chime: String {
        URL(fileURLWithPath: DaemonProcessTests.executable).deletingLastPathComponent().appendingPathComponent("chime").path
    }

    let fixture = StoreFixture(zone: .utc, prefix: "chimed-location")
    var folder: String { fixture.folder }
    var storePath: String { fixture.path }
    var runtime: String { fixture.runtime }

    /// The office: a circle of 100 m; a leave fires beyond 120 m (the 20 m margin).
    static let office = try! StructuredLocation(title: "Office", latitude: 52.52, longitude: 13.405, radius: 100)
    /// At the centre, 56 m out (inside), 300 m out (outside), and 111 m out: beyond the radius but within the margin.
    static let inside = "52.5200 13.4050 5", door = "52.5205 13.4050 5", away = "52.5227 13.4050 5", margin = "52.5210 13.4050 5"

    /// A reminder with a leave alarm on the office (or `alarm`); returns it.
    func addReminder(_ alarm: Alarm = .proximity(Self.office, .leave)) throws -> Reminder {
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try #require(FileManager.default.fileExists(atPath: Self.chime), "build chime and chimed first (swift build --build-tests)")
        let store = try CalendarStore(path: storePath, machineTimeZone: .utc)
        let reminder = Reminder(calendarIdentifier: try store.defaultCalendarForNewReminders().identifier, title: "Buy milk",
                                alarms: [alarm])
        try store.save(reminder)
        return reminder
    }

    /// Pipes `lines` through `chime location --stdin`; returns its exit status and standard error.
    @discardableResult
    func feed(_ lines: [String], arguments: [String] = ["--stdin"]) throws -> (status: Int32, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.chime)
        process.arguments = ["location"] + arguments + ["--db", storePath]
        process.environment = ["XDG_RUNTIME_DIR": runtime, "TZ": "UTC"]
        let input = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(Data((lines.joined(separator: "\n") + "\n").utf8))
        try input.fileHandleForWriting.close()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    /// Starts chimed and waits until its control socket answers.
    func startDaemon() throws -> DaemonProcessTests.Running {
        let daemon = try DaemonProcessTests.Running(store: storePath, runtime: runtime)
        let client = DaemonClient(environment: ["XDG_RUNTIME_DIR": runtime])
        waitUntil(seconds: 30) { (try? client.send(.status, timeout: 1)) != nil }
        return daemon
    }

    func firings(_ daemon: DaemonProcessTests.Running, settle: Double = 0.5) -> [String] {
        usleep(UInt32(settle * 1_000_000))
        return daemon.printed.map(\.line).filter { $0.hasPrefix("chimed: fired") }
    }

    func leaveKeys() throws -> [String] {
        try AlarmLedger(store: CalendarStore(path: storePath, machineTimeZone: .utc)).deliveries().map(\.key.description).filter { $0.contains("@leave@") }
    }

    @Test("walking out of the circle fires the leave once; in and out again within the re-arm interval does not; nor does a restart")
    func leaveOnce() throws {
        let reminder = try addReminder()
        var daemon = try startDaemon()
        // Jitter at the edge first: inside, then within the margin, which is no leave.
        #expect(try feed([Self.inside, Self.margin, Self.inside, Self.margin]).status == 0)
        #expect(firings(daemon).isEmpty, "printed: \(daemon.printed.map(\.line))")
        #expect(try feed([Self.margin, Self.away, Self.away]).status == 0)
        let first = daemon.waitForFirings(1, seconds: 30)
        #expect(first.count == 1 && first.first?.line.contains("Buy milk [\(reminder.identifier.short)]") == true,
                "printed: \(daemon.printed.map(\.line))")
        #expect(!(first.first?.line.contains("(late)") ?? true))
        // Back in and out again: a second crossing within ten minutes stays quiet.
        #expect(try feed([Self.inside, Self.door, Self.away]).status == 0)
        #expect(firings(daemon).count == 1, "printed: \(daemon.printed.map(\.line))")
        daemon.kill(SIGTERM)

        // Restarted, it knows where the position was and when the alarm last
        // fired: out, and in and out again, is still within the re-arm interval.
        daemon = try startDaemon()
        #expect(try feed([Self.away, Self.inside, Self.away]).status == 0)
        #expect(firings(daemon).isEmpty, "fired again after a restart: \(daemon.printed.map(\.line))")
        daemon.kill(SIGTERM)
        #expect(try leaveKeys().count == 1)
    }

    /// In this process, on a clock the test moves: the dwell's own timer
    /// is what rings it, and the test need not wait the dwell out.
    @Test("an arrive alarm with a dwell rings once the position stayed inside that long, with no further position fed")
    func dwellWithoutNewPositions() throws {
        _ = try addReminder(Alarm(trigger: .proximity(Self.office, .enter), dwell: 2))
        let clock = ManualClock(now: Double(DaemonInProcessTests.start))
        let notifier = DaemonInProcessTests.RecordingNotifier(clock: clock)
        let options = DaemonInProcessTests.options(storePath: storePath, runtime: runtime, clock: clock)
        let daemon = Daemon(options: options, notifier: notifier, log: { _ in })
        try daemon.start()
        defer { daemon.shutdown() }
        let client = DaemonClient(environment: ["XDG_RUNTIME_DIR": runtime])
        func feed(latitude: Double) throws {
            let answer = try client.send(.location(fixes: [.position(.init(latitude: latitude, longitude: 13.405, accuracy: 5, time: clock.now))]), timeout: 30)
            guard case .location(let reply) = answer else { Issue.record("refused: \(answer)"); return }
            #expect(reply.taken == 1, "\(reply)")
        }
        try feed(latitude: 52.5227)   // away
        clock.advance(by: 1)
        let arrived = clock.now
        try feed(latitude: 52.52)     // inside
        clock.advance(by: 1.9)
        #expect(notifier.shown.withLock { $0.isEmpty }, "rang before the dwell was over")
        // A feeder like GeoClue sends nothing while one stays put: the daemon asks again itself.
        clock.advance(by: 0.1)
        let rang = notifier.shown.withLock { $0 }
        #expect(rang.count == 1 && rang.first?.firing.title == "Buy milk")
        if let first = rang.first { #expect(first.at - arrived >= 1.9) }
        clock.advance(by: 60)
        #expect(notifier.shown.withLock { $0.count } == 1)
    }

    @Test("an alarm that asks for it rings on the first position when that finds you already there")
    func firstPositionRings() throws {
        _ = try addReminder(Alarm(trigger: .proximity(Self.office, .leave), firesOnFirstFix: true))
        let daemon = try startDaemon()
        defer { daemon.kill(SIGTERM) }
        #expect(try feed([Self.away, Self.away]).status == 0)
        #expect(daemon.waitForFirings(1, seconds: 30).count == 1, "printed: \(daemon.printed.map(\.line))")
        #expect(firings(daemon).count == 1)
    }

    @Test("--status shows the newest position chimed took, though it has not written that one to the store yet")
    func statusShowsTheDaemonsNewest() throws {
        _ = try addReminder()
        let daemon = try startDaemon()
        defer { daemon.kill(SIGTERM) }
        // Two fixes a second apart, both inside the office: the second changes no state, so chimed
        // writes it to the store only when its ten-second interval is over.
        let now = Date().timeIntervalSince1970.rounded(.down)
        for (latitude, age) in [("52.5200", 2.0), ("52.5201", 1.0)] {
            let at = Date(timeIntervalSince1970: now - age).ISO8601Format()
            let fed = try feed([], arguments: [latitude, "13.405", "--at", at])
            #expect(fed.status == 0 && fed.errors.isEmpty, "\(fed.errors)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.chime)
        process.arguments = ["location", "--status", "--db", storePath]
        process.environment = ["XDG_RUNTIME_DIR": runtime, "TZ": "UTC"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let lines = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(lines.first == "last position 52.5201,13.405 at \(Date(timeIntervalSince1970: now - 1).ISO8601Format().dropLast())+00:00")
    }

    @Test("a position fed while no daemon runs is kept and evaluated when chimed starts")
    func evaluatedAtStart() throws {
        _ = try addReminder()
        var daemon = try startDaemon()
        #expect(try feed([Self.inside]).status == 0)
        usleep(200_000)
        daemon.kill(SIGTERM)

        let fed = try feed([], arguments: ["52.5227", "13.405", "--accuracy", "5"])
        #expect(fed.status == 0 && fed.errors.contains("no daemon is running") && fed.errors.contains("kept"), "\(fed.errors)")
        daemon = try startDaemon()
        let fired = daemon.waitForFirings(1, seconds: 30)
        #expect(fired.count == 1 && fired.first?.line.contains("Buy milk") == true, "printed: \(daemon.printed.map(\.line))")
        #expect(firings(daemon).count == 1)
        daemon.kill(SIGTERM)
        #expect(try leaveKeys().count == 1)
    }

    @Test("completing the reminder stops its location alarm")
    func completedStops() throws {
        let reminder = try addReminder()
        let daemon = try startDaemon()
        defer { daemon.kill(SIGTERM) }
        #expect(try feed([Self.inside]).status == 0)
        try CalendarStore(path: storePath, machineTimeZone: .utc).complete(reminder.identifier)
        waitUntil(seconds: 30) { daemon.printed.contains { $0.line.contains("watching 0 geofence(s)") } }
        #expect(try feed([Self.away]).status == 0)
        #expect(firings(daemon).isEmpty, "printed: \(daemon.printed.map(\.line))")
    }

    @Test("the location request: counts in the reply, bad fixes refused by their place in the list, the rest used")
    func request() throws {
        _ = try addReminder()
        let daemon = try startDaemon()
        defer { daemon.kill(SIGTERM) }
        let client = DaemonClient(environment: ["XDG_RUNTIME_DIR": runtime])
        let now = Date().timeIntervalSince1970
        // Written out: one element is not a position, which ControlRequest cannot say.
        let request = """
            {"request":"location","fixes":[{"lat":52.52,"lon":13.405,"accuracy":5,"time":\(now)},{"lat":95,"lon":13.405},\
            {"lat":52.5227,"lon":13.405,"time":\(now - 10)},{"lat":true,"lon":13.405},{"lat":52.5227,"lon":13.405,"time":\(now + 1)}]}
            """
        let answer = try client.send(line: Data(request.utf8), answering: .location, timeout: 30)
        guard case .location(let reply) = answer else { Issue.record("refused: \(answer)"); return }
        #expect(reply.taken == 2 && reply.ignored == 1 && reply.refused == 2 && reply.transitions == 1, "\(reply)")
        let errors = reply.errors ?? []
        #expect(errors.count == 2 && errors[0].hasPrefix("fix 2: latitude '95.0'") && errors[1].hasPrefix("fix 4: \"lat\" is not a number"),
                "\(errors)")
        #expect(try client.send(line: Data(#"{"request":"location"}"#.utf8), answering: .location, timeout: 30).refusal?.contains("\"fixes\"") == true)
        #expect(daemon.waitForFirings(1, seconds: 30).count == 1)
    }
}
