import CalendarModel
import CommandLineInterface
import Foundation
import Synchronization

/// Runs `chime` in-process and keeps what it printed.
final class CapturedRun: Sendable {
    private final class Lines: Sendable {
        let mutex = Mutex<(out: [String], err: [String])>(([], []))
        func withLock<T>(_ body: (inout (out: [String], err: [String])) -> T) -> T { mutex.withLock { body(&$0) } }
    }

    private let lines = Lines()
    let status: Int32

    init(_ arguments: [String], machineZone: String = "Europe/London", environment: [String: String] = [:],
         now: Date = Date(timeIntervalSince1970: 1_796_000_000)) {
        let lines = self.lines
        let context = CommandContext(
            standardOutput: { line in lines.withLock { $0.out.append(line) } },
            standardError: { line in lines.withLock { $0.err.append(line) } },
            environment: environment,
            machineTimeZone: { try! TimeZoneRules.named(machineZone) },
            now: { now })
        status = Chime.run(arguments, context: context)
    }

    var output: [String] { lines.withLock { $0.out } }
    var errors: [String] { lines.withLock { $0.err } }
}
