import AlarmScheduler
import CalendarModel
import CalendarStore
import DesktopNotifications
import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `chimed [--db PATH] …`: the daemon's command line, kept here so the
/// executable is a few lines.
public enum DaemonCommandLine {
    static let usage = """
    usage: chimed [--db PATH] [--missed-window DURATION] [--snooze DURATION]
                  [--urgency low|normal|critical] [--log-only]
           chimed --help | --version

    Runs Chime's scheduler: sleeps until the next alarm of the store
    (default: $CHIME_DB, else $XDG_DATA_HOME/chime/chime.db, else
    ~/.local/share/chime/chime.db) and shows each firing once as a desktop
    notification (through the session bus: $DBUS_SESSION_BUS_ADDRESS, else
    $XDG_RUNTIME_DIR/bus), with Snooze (--snooze, default 10m), Done for
    reminders, and Dismiss; urgency critical unless --urgency says otherwise.
    Each firing shown is also a line on standard output; --log-only shows
    nothing on the desktop and writes only the line. With no notification
    server, a firing waits and is tried again, from 5 s up to every 5 min.

    Alarms that came due while it was not running: the latest per alarm
    within four hours (--missed-window, e.g. 30m or 1d; an alarm's own window
    comes first) is shown late, the rest are recorded (see 'chime missed').
    One daemon per store (a lock beside it, PATH.lock) and per runtime
    folder ($XDG_RUNTIME_DIR/chime: its control socket); a second one is
    refused, naming the first one's pid, with exit status 69. A store
    replaced, removed or moved back while it runs is noticed and opened
    again. SIGTERM or SIGINT stops it.
    """

    /// The options, for the hint after an unknown one.
    static let options = ["--db", "--missed-window", "--snooze", "--urgency", "--log-only", "--help", "--version"]

    /// Starts the daemon and runs Dispatch's main loop; returns only on failure.
    public static func run(arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment) -> Int32 {
        var path: String?
        var window: Int64?
        var logOnly = false
        var desktop = DesktopNotifier.Options(environment: environment)
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--db":
                guard let value = rest.popFirst() else {
                    FileHandle.standardError.write(Data("chimed: --db needs a PATH\n".utf8))
                    return 64
                }
                path = value
            case "--missed-window", "--snooze", "--urgency":
                // A missing value is a usage error (64); a value that is wrong is bad data (65), named.
                let wanted = argument == "--urgency" ? "low, normal or critical"
                    : argument == "--snooze" ? "a DURATION such as 5m, 10m or 1h" : "a DURATION such as 30m, 4h or 1d"
                guard let value = rest.popFirst() else {
                    FileHandle.standardError.write(Data("chimed: \(argument) needs \(wanted)\n".utf8))
                    return 64
                }
                let seconds = (try? DurationExpression(value).seconds).map { Int64($0) }
                switch (argument, seconds, DesktopNotifier.Urgency(rawValue: value)) {
                case ("--missed-window", let seconds?, _) where seconds > 0: window = seconds
                case ("--snooze", let seconds?, _) where seconds >= 1: desktop.snoozeSeconds = seconds
                case ("--urgency", _, let urgency?): desktop.urgency = urgency
                default:
                    FileHandle.standardError.write(Data("chimed: \(argument) '\(TerminalText.escaped(value))' is not \(wanted)\n".utf8))
                    return 65
                }
            case "--log-only":
                logOnly = true
            case "-h", "--help":
                print(usage)
                return 0
            case "--version":
                print("chimed \(ChimeVersion.current)")
                return 0
            default:
                let hint = Suggestion.hint(for: argument, among: options)
                FileHandle.standardError.write(Data("chimed: unknown argument '\(TerminalText.escaped(argument))'\(hint)\n\(usage)\n".utf8))
                return 64
            }
        }
        var options = Daemon.Options(storePath: StoreLocation.path(explicit: path, environment: environment),
                                     runtimeFolder: Daemon.runtimeFolder(environment))
        if let window { options.lateness = window }
        let log: @Sendable (String) -> Void = { line in
            // Log lines quote titles and paths: one line each, whatever they hold.
            FileHandle.standardError.write(Data((TerminalText.escaped(line) + "\n").utf8))
        }
        let line = LogNotifier { line in
            // Standard output carries the firings, one line each, flushed at once.
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        }
        let notifier: any Notifier
        if logOnly {
            notifier = line
        } else {
            // The body's times in the zone the daemon plans in, which follows the machine's.
            desktop.timeZone = options.machineZone
            desktop.clock = options.clock
            let shown = DesktopNotifier(options: desktop)
            do {
                log("chimed: notifications through the session bus at \(try shown.busAddress())")
            } catch {
                log("chimed: \(error); firings wait until a session bus and a notification server are there")
            }
            notifier = LoggedNotifier(shown, log: line)
        }
        let daemon = Daemon(options: options, notifier: notifier, log: log)
        do {
            try daemon.start()
        } catch let failure as DaemonError where failure.code == .alreadyRunning {
            log("chimed: \(failure)")
            // Unavailable, as 'chime' says when no daemon answers.
            return 69
        } catch {
            log("chimed: \(error)")
            return 1
        }
        dispatchMain()
    }
}
