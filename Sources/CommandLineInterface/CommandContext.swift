import CalendarModel
import CommandLineSupport
import Foundation
import SystemCalls
#if canImport(Glibc)
import Glibc
#endif

// A stdio stream of our own on descriptor 1 (Swift 6 refuses C's global
// `stdout`); stdio locks it itself, and exit() flushes it.
nonisolated(unsafe) private let processStandardOutput = fdopen(STDOUT_FILENO, "w")

/// What a command may touch besides its arguments: its two output streams,
/// its environment, the machine's time zone and the clock. Tests pass their own.
public struct CommandContext: Sendable {
    public var standardOutput: @Sendable (String) -> Void
    public var standardError: @Sendable (String) -> Void
    public var environment: [String: String]
    /// The zone used when a command is not given `--tz`.
    public var machineTimeZone: @Sendable () -> TimeZoneRules
    /// The current time: what `now`, `today`, `+10m` and the agenda are read
    /// against, and the completion date `chime complete` records.
    public var now: @Sendable () -> Date
    /// `now()` in whole Unix seconds, as the store and the planner count:
    /// the second it falls in.
    func second() -> Int64 { Int64(now().timeIntervalSince1970.rounded(.down)) }
    /// The environment of a program a command runs (a password command,
    /// `secret-tool`): this process's with `environment` over it, which is
    /// the same in `chime` itself, and a test's few variables over the rest.
    var childEnvironment: [String: String] { ProcessInfo.processInfo.environment.merging(environment) { $1 } }
    /// The descriptor commands that read a stream (`chime location --stdin`) read from.
    public var standardInput: Int32 = STDIN_FILENO
    /// Where a JSON document goes: standard output without the escaping of
    /// `escapingControlCharacters` (nil: `standardOutput`).
    var standardOutputVerbatim: (@Sendable (String) -> Void)?

    public init(standardOutput: @escaping @Sendable (String) -> Void,
                standardError: @escaping @Sendable (String) -> Void,
                environment: [String: String] = ProcessInfo.processInfo.environment,
                machineTimeZone: @escaping @Sendable () -> TimeZoneRules = { TimeZoneRules.current() },
                now: @escaping @Sendable () -> Date = { Date() }) {
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.environment = environment
        self.machineTimeZone = machineTimeZone
        self.now = now
    }

    /// The process's own streams, through C's stdio: standard output is
    /// buffered (a listing of thousands of lines is a few writes, not one
    /// system call a line) and flushed before anything goes to standard
    /// error and when the process exits.
    /// This context with every line its commands write escaped for the
    /// terminal (`TerminalText`), except JSON documents, which go out
    /// verbatim through `standardOutputVerbatim`.
    var escapingControlCharacters: CommandContext {
        var escaping = self
        let output = standardOutput, errors = standardError
        escaping.standardOutput = { output(TerminalText.escaped($0)) }
        escaping.standardError = { errors(TerminalText.escaped($0)) }
        escaping.standardOutputVerbatim = standardOutputVerbatim ?? output
        return escaping
    }

    public static var process: CommandContext {
        CommandContext(
            standardOutput: { line in
                // By length, not as a C string: a NUL in the text (a UID
                // imported with one) must not end the output there.
                var line = line
                line.withUTF8 { _ = fwrite($0.baseAddress, 1, $0.count, processStandardOutput) }
                fputc(0x0A, processStandardOutput)
            },
            standardError: { line in
                fflush(processStandardOutput)
                StandardStream.write(line + "\n", to: STDERR_FILENO)
            })
    }

    /// Flushes the process's standard output and says why it could not be
    /// written (a full disk, a closed pipe), if it could not: a command
    /// whose output was lost has not succeeded.
    static func flushProcessOutput() -> String? {
        let flushed = fflush(processStandardOutput) == 0
        guard !flushed || ferror(processStandardOutput) != 0 else { return nil }
        return SystemError.last("fflush").reason
    }
}
