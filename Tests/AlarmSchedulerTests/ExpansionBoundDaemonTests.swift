import AlarmScheduler
import CalendarModel
import CalendarStore
import DaemonControl
import Foundation
import SQLiteDatabase
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 16 point 1 on the real `chimed`: a series past the expansion bound
/// (written into the store by another program, past the store's own check)
/// costs the daemon the bound's walk and no more, and a signal stops it even
/// while its queue is busy planning.
@Suite("chimed and the expansion bound", .serialized)
struct ExpansionBoundDaemonTests {
    let base = DaemonProcessTests()

    /// Adds `count` events with an alarm that repeat every second from
    /// `start`, then gives them `rule` directly in the database, as a program
    /// writing the store would (the store itself refuses such rules).
    func addSeries(_ count: Int, rule: String, title: String, start: Int64) throws {
        let store = try CalendarStore(path: base.storePath, machineTimeZone: .utc)
        let calendar = try store.defaultCalendarForNewEvents().identifier
        let local = TimeZoneRules.utc.localTime(at: start)
        // Saved ended ten seconds after the start: nothing rings before the rule is replaced.
        let ended = try RecurrenceRule(rfc5545: "FREQ=SECONDLY;UNTIL=" + Self.utcText(start + 10))
        var identifiers: [String] = []
        for _ in 0..<count {
            let event = Event(calendarIdentifier: calendar, title: title, start: .zoned(local, zone: "UTC"), end: .zoned(local, zone: "UTC"),
                              recurrenceRule: ended, alarms: [Alarm(trigger: .relative(seconds: 0))])
            identifiers.append(try store.save(event, commit: false).rawValue)
        }
        try store.commit()
        let database = try Database(path: base.storePath)
        try database.execute("BEGIN")
        for identifier in identifiers {
            try database.execute("UPDATE items SET rrule = ?, range_high = NULL WHERE id = ?", [rule, identifier])
        }
        try database.execute("COMMIT")
    }

    /// A UTC instant in RFC 5545's basic form, 20261201T080000Z.
    static func utcText(_ instant: Int64) -> String {
        TimeZoneRules.utc.localTime(at: instant).description.replacingOccurrences(of: "-", with: "")
            .replacingOccurrences(of: ":", with: "") + "Z"
    }

    @Test("a SECONDLY series with COUNT=999999999999 added while chimed runs stalls nothing: a reminder due seconds later rings, status answers, the log names the series; after a restart the same")
    func costlySeriesStallsNothing() throws {
        try base.prepare()
        defer { try? FileManager.default.removeItem(atPath: base.folder) }
        let now = Int64(Date().timeIntervalSince1970)
        let daemon = try DaemonProcessTests.Running(store: base.storePath, runtime: base.runtime)
        defer { daemon.kill(SIGTERM) }
        try #require(!daemon.wait(forPrefix: "chimed: started", seconds: 60).isEmpty, "\(daemon.printed.map(\.line))")
        // Started two days ago: its 100,000 seconds are over, and COUNT would run on for 31,000 years.
        try addSeries(1, rule: "FREQ=SECONDLY;COUNT=999999999999", title: "P", start: now - 2 * 86_400)
        _ = try base.addReminder("Tea", dueIn: 3)
        let firings = daemon.waitForFirings(1, seconds: 30)
        #expect(firings.count == 1 && firings.first?.line.contains("Tea") == true, "printed: \(daemon.printed.map(\.line))")
        let status = try DaemonClient(environment: ["XDG_RUNTIME_DIR": base.runtime]).send(.status, timeout: 30)
        #expect(status.ok)
        let named = daemon.printed.map(\.line).filter { $0.hasPrefix("chimed: event 'P' [") && $0.contains("is too costly to expand") }
        #expect(named.count == 1, "printed: \(daemon.printed.map(\.line))")
        daemon.kill(SIGTERM)
        #expect(daemon.process.terminationStatus == 0)

        // Restarted on the same store: planning meets the series again, and goes on.
        let again = try DaemonProcessTests.Running(store: base.storePath, runtime: base.runtime)
        defer { again.kill(SIGTERM) }
        try #require(!again.wait(forPrefix: "chimed: started", seconds: 60).isEmpty, "\(again.printed.map(\.line))")
        #expect(again.printed.contains { $0.line.hasPrefix("chimed: event 'P' [") && $0.line.contains("is too costly") })
        _ = try base.addReminder("Coffee", dueIn: 3)
        let more = again.waitForFirings(1, seconds: 30)
        #expect(more.count == 1 && more.first?.line.contains("Coffee") == true, "printed: \(again.printed.map(\.line))")
    }

    @Test("SIGTERM stops chimed while its queue is busy planning, without waiting for the plan")
    func signalWhilePlanning() throws {
        try base.prepare()
        defer { try? FileManager.default.removeItem(atPath: base.folder) }
        // 300 series of 100,000 seconds each, over three days ago: planning each walks its COUNT out,
        // minutes in all for a debug build.
        try addSeries(300, rule: "FREQ=SECONDLY;COUNT=100000", title: "Busy", start: Int64(Date().timeIntervalSince1970) - 3 * 86_400)
        let daemon = try DaemonProcessTests.Running(store: base.storePath, runtime: base.runtime)
        defer { if daemon.process.isRunning { daemon.kill(SIGKILL) } }
        usleep(1_500_000)
        // Still planning: the start is logged once the first plan is made.
        try #require(!daemon.printed.contains { $0.line.hasPrefix("chimed: planned") || $0.line.hasPrefix("chimed: started") },
                     "planning finished before the signal; the test needs more series")
        Glibc.kill(daemon.process.processIdentifier, SIGTERM)
        // A deadline that tells a hang (the whole plan, minutes) from an answer.
        waitUntil(seconds: 20, every: 0.05) { !daemon.process.isRunning }
        #expect(!daemon.process.isRunning, "chimed still running 20 s after SIGTERM: \(daemon.printed.map(\.line))")
        if !daemon.process.isRunning { #expect(daemon.process.terminationStatus == 0) }
        #expect(daemon.printed.contains { $0.line == "chimed: stopping on signal 15" })
    }
}
