import AlarmScheduler
import CalendarModel
import CalendarStore
import CommandLineSupport
import DaemonControl
import DesktopNotifications
import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `chimed [--db PATH] …`: the daemon's command line, kept here so the
/// executable is a few lines.
public enum DaemonCommandLine {
    /// The options, declared once: parsed by them, `--help` written from them.
    static let db = Option("--db", value: "PATH", help: """
        the store (default: $CHIME_DB, else $XDG_DATA_HOME/chime/chime.db,
        else ~/.local/share/chime/chime.db)
        """, expected: "a PATH")
    static let missedWindow = Option("--missed-window", value: "DURATION", help: """
        how late an alarm missed while chimed was not running is still
        shown (default 4h; an alarm's own window comes first)
        """, expected: "a DURATION such as 30m, 4h or 1d", convert: { duration($0, atLeast: 1) })
    static let snooze = Option("--snooze", value: "DURATION", help: "how long Snooze puts a firing off (default 10m)",
                               expected: "a DURATION such as 5m, 10m or 1h", convert: { duration($0, atLeast: 1) })
    static let urgency = Option("--urgency", value: "low|normal|critical", help: "the notifications' urgency (default critical)",
                                expected: "low, normal or critical", convert: { DesktopNotifier.Urgency(rawValue: $0) })
    static let syncEvery = Option("--sync-every", value: "DURATION", help: """
        how often the CalDAV accounts ('chime account') are synced when no
        change asks sooner (default 15m; a change is sent within 5 s)
        """, expected: "a DURATION of at least 1m such as 5m, 15m or 1h", convert: { duration($0, atLeast: 60) })
    static let language = Option("--language", value: "en|zh-Hans|zh-Hant", help: """
        the language of the notifications' buttons, days and times and of the
        daemon's notices (default: the messages locale's, $LC_ALL, $LC_MESSAGES
        or $LANG, with $LANGUAGE; zh_CN is zh-Hans, zh_TW and zh_HK zh-Hant,
        any other en; a locale name such as zh_CN.UTF-8 is read the same way)
        """, expected: "en, zh-Hans or zh-Hant (or a locale such as zh_CN)",
        convert: { NotificationLanguage(rawValue: $0) ?? NotificationLanguage(locale: $0) })
    static let logOnly = Flag("--log-only", help: "show nothing on the desktop; write only the line on standard output")
    static let help = Flag("--help", short: "-h", help: "print this help")
    static let version = Flag("--version", help: "print the version")

    public static let syntax = CommandSyntax("chimed", forms: [
        .init("", options: [db, missedWindow, snooze, urgency, language, syncEvery, logOnly]),
        .init("--help | --version", options: []),
    ], options: [db, missedWindow, snooze, urgency, language, syncEvery, logOnly, help, version], discussion: """
        Runs Chime's scheduler: sleeps until the next alarm of the store and shows
        each firing once as a desktop notification (through the session bus:
        $DBUS_SESSION_BUS_ADDRESS, else $XDG_RUNTIME_DIR/bus), with Snooze, Done
        for reminders (not those of a read-only calendar), and Dismiss. Each
        firing shown is also a line on standard output. With no notification
        server, a firing waits and is tried again, from 5 s up to every 5 min.

        Alarms that came due while it was not running: the latest per alarm
        within the missed window is shown late, the rest are recorded (see
        'chime missed'). One daemon per store (a lock beside it, PATH.lock) and
        per runtime folder ($XDG_RUNTIME_DIR/chime: its control socket); a
        second one is refused, naming the first one's pid, with exit status 69.
        A store replaced, removed or moved back while it runs is noticed and
        opened again. Subscribed calendars are refreshed on their intervals; the
        CalDAV accounts are synced at start, every --sync-every, and a few seconds
        after a change (a reminder marked Done goes to the server that way).
        SIGTERM or SIGINT stops it.
        """, epilogue: """
        Exit status: 0 after --help or --version; 1 when the daemon cannot start;
        64 when the command line is wrong; 65 when a value is wrong; 69 when
        another chimed already runs.
        """)

    /// Seconds of a duration of at least `minimum` seconds; nil for anything else.
    static func duration(_ text: String, atLeast minimum: Int64) -> Int64? {
        (try? DurationExpression(text).seconds).map { Int64($0) }.flatMap { $0 >= minimum ? $0 : nil }
    }

    /// Starts the daemon and runs Dispatch's main loop; returns only on failure.
    public static func run(arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment) -> Int32 {
        // A descriptor left closed would be taken by the store's file or the socket.
        StandardStream.reopenClosedOnNull()
        let parsed: ParsedArguments
        do throws(ArgumentParser.Refusal) {
            parsed = try syntax.parser.parseRefusing(arguments)
            if let argument = parsed.positionals.first { throw ArgumentParser.Refusal.unknownOption(argument, hint: "") }
        } catch {
            let message: String
            let status: Int32
            switch error {
            case .unknownOption(let argument, let hint):
                (message, status) = ("chimed: unknown argument '\(argument)'\(hint)\n(see 'chimed --help')", ExitStatus.usage)
            case .failure(let failure):
                (message, status) = (failure.message, failure.status)
            }
            // The value at fault as typed, but one line each whatever it holds.
            let lines = message.split(separator: "\n", omittingEmptySubsequences: false).map { TerminalText.escaped(String($0)) }
            StandardStream.write(lines.joined(separator: "\n") + "\n", to: STDERR_FILENO)
            return status
        }
        if parsed[Self.help] {
            print(syntax.help)
            return ExitStatus.success
        }
        if parsed[Self.version] {
            print("chimed \(ChimeVersion.current)")
            return ExitStatus.success
        }
        var desktop = DesktopNotifier.Options(environment: environment)
        if let seconds = parsed[Self.snooze] { desktop.snoozeSeconds = seconds }
        if let level = parsed[Self.urgency] { desktop.urgency = level }
        if let language = parsed[Self.language] { desktop.language = language }
        let logOnly = parsed[Self.logOnly]
        let path = parsed[Self.db]
        let window = parsed[Self.missedWindow]
        if let missing = StoreLocation.missingFolder(explicit: path, environment: environment) {
            StandardStream.write(TerminalText.escaped("chimed: \(missing)") + "\n", to: STDERR_FILENO)
            return 1
        }
        var options = Daemon.Options(storePath: StoreLocation.path(explicit: path, environment: environment),
                                     runtimeFolder: DaemonClient.runtimeFolder(environment))
        if let window { options.lateness = window }
        let log: @Sendable (String) -> Void = { line in
            // Log lines quote titles and paths: one line each, whatever they hold.
            StandardStream.write(TerminalText.escaped(line) + "\n", to: STDERR_FILENO)
        }
        let line = LogNotifier { line in
            // Standard output carries the firings, one line each, flushed at once.
            StandardStream.write(line + "\n", to: STDOUT_FILENO)
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
        options.subscriptions = FeedRefresher(machineZone: options.machineZone)
        options.holidays = HolidayRefresher(machineZone: options.machineZone)
        options.sync = AccountSyncer(machineZone: options.machineZone)
        if let seconds = parsed[Self.syncEvery] { options.syncInterval = Double(seconds) }
        let daemon = Daemon(options: options, notifier: notifier, log: log)
        do {
            try daemon.start()
        } catch let failure as DaemonError where failure.code == .alreadyRunning {
            log("chimed: \(failure)")
            // Unavailable, as 'chime' says when no daemon answers.
            return ExitStatus.unavailable
        } catch {
            log("chimed: \(error)")
            return 1
        }
        dispatchMain()
    }
}
