import AlarmScheduler
import CalendarStore
import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `chimed [--db PATH]`: the daemon's command line, kept here so the
/// executable is a few lines.
public enum DaemonCommandLine {
    static let usage = """
    usage: chimed [--db PATH] [--missed-window DURATION]

    Runs Chime's scheduler: sleeps until the next alarm of the store
    (default: $CHIME_DB, else $XDG_DATA_HOME/chime/chime.db, else
    ~/.local/share/chime/chime.db) and shows each firing once. Alarms that
    came due while it was not running: the latest per alarm within four hours
    (--missed-window, e.g. 30m or 1d; an alarm's own window comes first) is
    shown late, the rest are recorded (see 'chime missed'). One daemon per
    user; SIGTERM or SIGINT stops it.
    """

    /// Starts the daemon and runs Dispatch's main loop; returns only on failure.
    public static func run(arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment) -> Int32 {
        var path: String?
        var window: Int64?
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--db":
                guard let value = rest.popFirst() else {
                    FileHandle.standardError.write(Data("chimed: --db needs a PATH\n".utf8))
                    return 64
                }
                path = value
            case "--missed-window":
                guard let value = rest.popFirst(), let seconds = try? DurationExpression(value).seconds, seconds > 0 else {
                    FileHandle.standardError.write(Data("chimed: --missed-window needs a DURATION such as 30m, 4h or 1d\n".utf8))
                    return 64
                }
                window = Int64(seconds)
            case "-h", "--help":
                print(usage)
                return 0
            default:
                FileHandle.standardError.write(Data("chimed: unknown argument '\(argument)'\n\(usage)\n".utf8))
                return 64
            }
        }
        var options = Daemon.Options(storePath: StoreLocation.path(explicit: path, environment: environment),
                                     runtimeFolder: Daemon.runtimeFolder(environment))
        if let window { options.lateness = window }
        let log: @Sendable (String) -> Void = { line in
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
        let notifier = LogNotifier { line in
            // Standard output carries the firings, one line each, flushed at once.
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        }
        let daemon = Daemon(options: options, notifier: notifier, log: log)
        do {
            try daemon.start()
        } catch {
            log("chimed: \(error)")
            return 1
        }
        dispatchMain()
    }
}
