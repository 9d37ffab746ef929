import CalendarModel
import Foundation

/// What a command may touch besides its arguments: its two output streams,
/// its environment and the machine's time zone. Tests pass their own.
public struct CommandContext: Sendable {
    public var standardOutput: @Sendable (String) -> Void
    public var standardError: @Sendable (String) -> Void
    public var environment: [String: String]
    /// The zone used when a command is not given `--tz`.
    public var machineTimeZone: @Sendable () -> TimeZoneRules
    /// The clock that `today`, `+10m` and completion dates read.
    public var now: @Sendable () -> Date

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

    /// The process's own streams.
    public static var process: CommandContext {
        CommandContext(
            standardOutput: { FileHandle.standardOutput.write(Data(($0 + "\n").utf8)) },
            standardError: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) })
    }
}

/// Exit statuses, after BSD's sysexits.h, as `chime(1)` documents them.
public enum ExitStatus {
    public static let success: Int32 = 0
    /// The command line itself is wrong: unknown command or option, missing argument.
    public static let usage: Int32 = 64
    /// A value is wrong: a malformed rule, date, time or time zone.
    public static let dataError: Int32 = 65
    /// What was named does not exist: an item identifier, a calendar.
    public static let notFound: Int32 = 66
    /// The store cannot be read or written (permissions, a damaged file).
    public static let ioError: Int32 = 74
}

/// A failure that ends a command with a message on standard error.
public struct CommandFailure: Error, Sendable {
    public var message: String
    public var status: Int32

    public static func usage(_ message: String) -> CommandFailure { CommandFailure(message: message, status: ExitStatus.usage) }
    public static func data(_ message: String) -> CommandFailure { CommandFailure(message: message, status: ExitStatus.dataError) }
    public static func notFound(_ message: String) -> CommandFailure { CommandFailure(message: message, status: ExitStatus.notFound) }
}
