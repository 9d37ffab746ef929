import AlarmScheduler
import CalendarModel
import CalendarStore
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// What chimed writes to its log (the journal, under systemd) is one line
/// per event, whatever a title holds.
@Suite("chimed's log lines", .serialized)
struct LogLineTests {
    /// A title that, written raw, would end the firing's line and forge another one, in red.
    static let forging = "Tea\nchimed: fired 2026-12-01T09:00:00Z FORGED\u{1B}[31m\r"

    @Test("a title with a newline, an escape and a carriage return fires as one escaped line and forges none")
    func titleCannotForgeALine() throws {
        let process = DaemonProcessTests()
        try process.prepare()
        defer { try? FileManager.default.removeItem(atPath: process.folder) }
        _ = try process.addReminder(Self.forging, dueIn: 1)
        let daemon = try DaemonProcessTests.Running(store: process.storePath, runtime: process.runtime)
        defer { daemon.kill(SIGTERM) }
        let firings = daemon.waitForFirings(1, seconds: 30)
        try #require(firings.count >= 1, "printed: \(daemon.printed.map(\.line))")
        // The forged line would have come in the same write.
        usleep(300_000)
        let lines = daemon.printed.map(\.line)
        #expect(lines.filter { $0.hasPrefix("chimed: fired") }.count == 1, "printed: \(lines)")
        #expect(lines.filter { $0.contains("FORGED") }.count == 1, "printed: \(lines)")
        let fired = try #require(lines.first { $0.hasPrefix("chimed: fired") })
        #expect(fired.contains(#"Tea\nchimed: fired 2026-12-01T09:00:00Z FORGED\x1b[31m\r ["#), "\(fired)")
        #expect(!lines.joined().unicodeScalars.contains { $0.value < 0x20 }, "printed: \(lines)")
    }
}
