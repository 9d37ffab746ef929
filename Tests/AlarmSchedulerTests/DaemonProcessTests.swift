import AlarmScheduler
import CalendarModel
import CalendarStore
import DaemonControl
import Foundation
import HolidayCalendars
import Synchronization
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The real `chimed` process on a real store file, its firings read from
/// its standard output (the log notifier).
@Suite("chimed, the process", .serialized)
struct DaemonProcessTests {
    static let executable = PackagePaths.builtExecutable("chimed")

    /// A running daemon and the lines it has printed.
    final class Running: @unchecked Sendable {
        let process = Process()
        /// Firings come on standard output, the daemon's own log on standard error: both are kept.
        private let output = ChildOutput(), errors = ChildOutput()

        init(store: String, runtime: String) throws {
            process.executableURL = URL(fileURLWithPath: DaemonProcessTests.executable)
            // The firings' lines are what these tests read: no desktop.
            process.arguments = ["--db", store, "--log-only"]
            process.environment = ["XDG_RUNTIME_DIR": runtime, "PATH": "/usr/bin:/bin", "TZ": "UTC"]
            process.standardOutput = output.pipe
            process.standardError = errors.pipe
            try process.run()
        }

        /// What the daemon printed, with when each line arrived.
        var printed: [(line: String, at: Date)] { (output.timedLines + errors.timedLines).sorted { $0.at < $1.at } }
        var standardError: [String] { errors.lines }

        /// Waits (at most `seconds`) until `count` firings were printed.
        func waitForFirings(_ count: Int, seconds: Double) -> [(line: String, at: Date)] {
            var firings: [(line: String, at: Date)] = []
            waitUntil(seconds: seconds) {
                firings = printed.filter { $0.line.hasPrefix("chimed: fired") }
                return firings.count >= count
            }
            return firings
        }

        /// Waits (at most `seconds`, then a little more for stragglers) and returns the lines that start with `prefix`.
        func wait(forPrefix prefix: String, seconds: Double) -> [String] {
            waitUntil(seconds: seconds) { printed.contains { $0.line.hasPrefix(prefix) } }
            usleep(300_000)
            return printed.map(\.line).filter { $0.hasPrefix(prefix) }
        }

        func kill(_ signal: Int32) {
            Glibc.kill(process.processIdentifier, signal)
            process.waitUntilExit()
        }
    }

    let fixture = StoreFixture(zone: .utc, prefix: "chimed")
    var folder: String { fixture.folder }
    var storePath: String { fixture.path }
    var runtime: String { fixture.runtime }

    func addReminder(_ title: String, dueIn seconds: Double) throws -> Date {
        let store = try CalendarStore(path: storePath, machineTimeZone: .utc)
        let due = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + seconds).rounded(.up))
        let local = TimeZoneRules.utc.localTime(at: Int64(due.timeIntervalSince1970))
        try store.save(Reminder(calendarIdentifier: try store.defaultCalendarForNewReminders().identifier, title: title,
                                due: .zoned(local, zone: "UTC"), alarms: [Alarm(trigger: .relative(seconds: 0))]))
        return due
    }

    func prepare() throws {
        try #require(FileManager.default.fileExists(atPath: Self.executable), "build chimed first (swift build --build-tests)")
        try fixture.makeRuntime()
        _ = try fixture.open()
    }

    @Test("a store named with --db or CHIME_DB in a folder that is not there: chimed exits 1 naming it, and makes neither folder nor store")
    func mistypedStoreFolder() throws {
        let folder = TemporaryFolder("chimed-mistyped")
        let missing = folder.appending("no-such-folder/chime.db")
        let environment = ["XDG_RUNTIME_DIR": folder.path, "HOME": folder.path, "PATH": "/usr/bin:/bin"]
        for (arguments, extra) in [(["--log-only", "--db", missing], [String: String]()), (["--log-only"], ["CHIME_DB": missing])] {
            let run = try runProcess(Self.executable, arguments, environment: environment.merging(extra) { $1 })
            #expect(run.status == 1)
            #expect(run.err == "chimed: no folder \(folder.path)/no-such-folder for the store \(missing) (\(extra.isEmpty ? "--db" : "CHIME_DB")); "
                + "create it first, or check the path\n")
            #expect(!FileManager.default.fileExists(atPath: folder.appending("no-such-folder")))
        }
    }

    @Test("an alarm due in two seconds fires within a second of its time; a store change is seen at once; a second daemon is refused")
    func firesOnTime() throws {
        try prepare()
        let daemon = try Running(store: storePath, runtime: runtime)
        defer { daemon.kill(SIGTERM) }
        usleep(300_000)
        // Added after the daemon started: it learns of it through the store's folder.
        let due = try addReminder("Tea", dueIn: 2)
        let firings = daemon.waitForFirings(1, seconds: 30)
        try #require(firings.count == 1, "printed: \(daemon.printed.map(\.line))")
        #expect(firings[0].line.contains("Tea") && !firings[0].line.contains("(late)"))
        let lateness = firings[0].at.timeIntervalSince(due)
        #expect(lateness >= -0.05 && lateness < 1, "fired \(lateness) s after its due time")

        let second = Process()
        second.executableURL = URL(fileURLWithPath: Self.executable)
        second.arguments = ["--db", storePath, "--log-only"]
        second.environment = ["XDG_RUNTIME_DIR": runtime]
        let errors = Pipe()
        second.standardError = errors
        try second.run()
        second.waitUntilExit()
        #expect(second.terminationStatus == 69)
        #expect(String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).contains("already running"))
    }

    @Test("killed with SIGKILL and restarted, it does not fire again; one due while it was down fires once, late")
    func exactlyOnceAcrossRestarts() throws {
        try prepare()
        _ = try addReminder("Coffee", dueIn: 1)
        var daemon = try Running(store: storePath, runtime: runtime)
        #expect(daemon.waitForFirings(1, seconds: 30).count == 1, "printed: \(daemon.printed.map(\.line))")
        daemon.kill(SIGKILL)

        daemon = try Running(store: storePath, runtime: runtime)
        usleep(800_000)
        #expect(daemon.printed.filter { $0.line.hasPrefix("chimed: fired") }.isEmpty, "fired again: \(daemon.printed.map(\.line))")
        daemon.kill(SIGTERM)

        // Due while no daemon runs.
        _ = try addReminder("Lunch", dueIn: 1)
        usleep(2_500_000)
        daemon = try Running(store: storePath, runtime: runtime)
        let firings = daemon.waitForFirings(1, seconds: 30)
        #expect(firings.count == 1 && firings.first?.line.contains("Lunch") == true && firings.first?.line.hasSuffix("(late)") == true,
                "printed: \(daemon.printed.map(\.line))")
        usleep(300_000)
        #expect(daemon.printed.filter { $0.line.hasPrefix("chimed: fired") }.count == 1)
        daemon.kill(SIGTERM)
        let log = try AlarmLedger(store: CalendarStore(path: storePath, machineTimeZone: .utc)).deliveries()
        #expect(log.map(\.title).sorted() == ["Coffee", "Lunch"])
        #expect(log.first { $0.title == "Lunch" }?.outcome == .late)
    }

    /// Writes raw bytes to the control socket and reads reply lines until `lines` arrived or the peer closed.
    func raw(_ bytes: [UInt8], lines: Int) throws -> [String] {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = Array((runtime + "/chime/chimed.sock").utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in for (index, byte) in path.enumerated() { buffer[index] = byte } }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(connected == 0)
        var limit = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        _ = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while reply.filter({ $0 == 10 }).count < lines {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            reply += buffer[0..<count]
        }
        return String(decoding: reply, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test("the control socket answers status and next, and a garbage, unknown or oversized request gets an error while the daemon goes on")
    func controlSocket() throws {
        try prepare()
        let daemon = try Running(store: storePath, runtime: runtime)
        defer { daemon.kill(SIGTERM) }
        let socketPath = runtime + "/chime/chimed.sock"
        waitUntil(seconds: 30) { FileManager.default.fileExists(atPath: socketPath) }
        var info = stat()
        try #require(lstat(socketPath, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600, "socket mode \(String(info.st_mode & 0o777, radix: 8))")

        let replies = try raw(Array("this is not json\n{\"request\":\"dance\"}\n{\"request\":\"status\"}\n".utf8), lines: 3)
        #expect(replies.count == 3)
        #expect(replies.first?.contains("\"ok\":false") == true && replies.first?.contains("not a JSON object") == true)
        #expect(replies.dropFirst().first?.contains("unknown request 'dance'") == true)
        #expect(replies.last?.contains("\"ok\":true") == true)

        let oversized = try raw(Array(repeating: UInt8(ascii: "x"), count: 70_000), lines: 1)
        #expect(oversized.first?.contains("longer than") == true)

        let client = DaemonClient(environment: ["XDG_RUNTIME_DIR": runtime])
        guard case .status(let status) = try client.send(.status, timeout: 30) else { Issue.record("no status answer"); return }
        #expect(status.ok && status.pid == Int(daemon.process.processIdentifier))
        _ = try addReminder("Tea", dueIn: 30)
        // Told of the change directly, as `chime` does.
        #expect(try client.send(.changed, timeout: 30).ok)
        guard case .next(let next) = try client.send(.next(count: 5), timeout: 30) else { Issue.record("no next answer"); return }
        #expect(next.map(\.title) == ["Tea"])
        // Snoozing needs a firing that rang.
        #expect(try client.send(line: Data(#"{"request":"snooze"}"#.utf8), answering: .snooze, timeout: 30).refusal?.contains("key") == true)
        #expect(try client.send(.snooze(key: "nonesuch@1"), timeout: 30).refusal?.contains("no firing") == true)
        #expect(try client.send(.status, timeout: 30).ok)
    }

    @Test("setting the wall clock wakes the daemon to re-plan (a CLOCK_REALTIME timerfd)", .enabled(if: geteuid() == 0, "setting the clock needs root"))
    func clockSet() throws {
        try prepare()
        let daemon = try Running(store: storePath, runtime: runtime)
        defer { daemon.kill(SIGTERM) }
        waitUntil(seconds: 30) { daemon.printed.contains { $0.line.contains("started") } }
        // Set the clock to what it reads: a setting all the same, and harmless.
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        try #require(clock_settime(CLOCK_REALTIME, &now) == 0, "clock_settime: \(String(cString: strerror(errno)))")
        waitUntil(seconds: 30) { daemon.printed.contains { $0.line.contains("the clock was set") } }
        #expect(daemon.printed.contains { $0.line.contains("the clock was set; re-planning") }, "printed: \(daemon.printed.map(\.line))")
    }

    /// Region ZZ, with data for 2001 alone: this year's and next year's are
    /// missing whatever the date, and the bundled years play no part.
    static func importRegionZZ(into store: CalendarStore) throws {
        _ = try store.importHolidayYears([try HolidayYear(region: "zz", year: 2001, entries: [
            HolidayEntry(date: CivilDate(year: 2001, month: 1, day: 1)!, isOffDay: true, name: "New Year"),
        ], source: HolidaySource(format: .holidayCNJSON, location: "test"))])
    }

    @Test("a workday rule added while chimed runs is noticed at once, on standard error, when its region's data for this year is missing")
    func holidayNoticeAtTheChange() throws {
        try prepare()
        let store = try CalendarStore(path: storePath, machineTimeZone: .utc)
        try Self.importRegionZZ(into: store)
        let daemon = try Running(store: storePath, runtime: runtime)
        defer { daemon.kill(SIGTERM) }
        #expect(!daemon.wait(forPrefix: "chimed: started", seconds: 30).isEmpty, "printed: \(daemon.printed.map(\.line))")
        let year = TimeZoneRules.utc.localTime(at: Int64(Date().timeIntervalSince1970)).date.year
        let start = TimeZoneRules.utc.localTime(at: Int64(Date().timeIntervalSince1970) + 86_400)
        try store.save(Reminder(calendarIdentifier: try store.defaultCalendarForNewReminders().identifier, title: "Clock in",
                                due: .zoned(start, zone: "UTC"), recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=DAILY;X-WORKDAY=SKIP;X-REGION=ZZ"),
                                alarms: [Alarm(trigger: .relative(seconds: 0))]))
        let notice = "chimed: notice: No holiday data for \(year) (zz)"
        let notices = daemon.wait(forPrefix: notice, seconds: 30)
        #expect(notices.count == 1, "printed: \(daemon.printed.map(\.line))")
        #expect(daemon.standardError.filter { $0.hasPrefix(notice) } == notices, "standard error: \(daemon.standardError)")
        #expect(notices.first?.contains("chime holidays update") == true)
    }

    @Test("with workday rules in use and a year's holiday data missing, one notice per year, not again after a restart")
    func missingHolidayDataNotice() throws {
        try prepare()
        let store = try CalendarStore(path: storePath, machineTimeZone: .utc)
        try Self.importRegionZZ(into: store)
        let start = TimeZoneRules.utc.localTime(at: Int64(Date().timeIntervalSince1970) + 86_400)
        try store.save(Reminder(calendarIdentifier: try store.defaultCalendarForNewReminders().identifier, title: "Clock in",
                                due: .zoned(start, zone: "UTC"), recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=DAILY;X-WORKDAY=SKIP;X-REGION=ZZ"),
                                alarms: [Alarm(trigger: .relative(seconds: 0))]))
        // This year's missing data is noticed at any time, next year's from December.
        let today = TimeZoneRules.utc.localTime(at: Int64(Date().timeIntervalSince1970)).date
        let missing = [today.year] + (today.month == 12 ? [today.year + 1] : [])
        var daemon = try Running(store: storePath, runtime: runtime)
        let notices = daemon.wait(forPrefix: "chimed: notice:", seconds: 30)
        #expect(notices.count == missing.count && notices.allSatisfy { line in missing.contains { line.contains(String($0)) } },
                "printed: \(daemon.printed.map(\.line))")
        #expect(Set(notices).count == notices.count, "a notice repeated: \(notices)")
        daemon.kill(SIGTERM)
        daemon = try Running(store: storePath, runtime: runtime)
        usleep(800_000)
        #expect(daemon.printed.filter { $0.line.hasPrefix("chimed: notice:") }.isEmpty, "again after a restart: \(daemon.printed.map(\.line))")
        daemon.kill(SIGTERM)
    }
}
