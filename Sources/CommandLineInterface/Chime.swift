import CalendarModel
import AlarmScheduler
import DaemonControl
import Foundation
/// The `chime` command line: finds the subcommand and maps failures to
/// messages on standard error and exit statuses.
public enum Chime {
    public static let version = ChimeVersion.current

    static var commands: [any Command.Type] {
        [StatusCommand.self, CalendarsCommand.self, CalendarCommand.self, AddCommand.self, ListCommand.self,
         AgendaCommand.self, FindCommand.self, ShowCommand.self, EditCommand.self, RemoveCommand.self, CompleteCommand.self,
         RRuleCommand.self, WorkdayCommand.self, WorkdaysCommand.self, LeaveCommand.self, WorkCommand.self, HolidaysCommand.self, NextCommand.self, MissedCommand.self, DaemonCommand.self, SnoozeCommand.self,
         LocationCommand.self, PlacesCommand.self, ImportCommand.self, ExportCommand.self, SubscribeCommand.self, RefreshCommand.self,
         AccountCommand.self, SyncCommand.self]
    }

    /// Runs `chime` with its arguments (without the program name) and
    /// returns the exit status.
    public static func run(_ arguments: [String], context: CommandContext = .process) -> Int32 {
        // `chime --db PATH COMMAND …`, as git and many others take a global
        // option first: the store goes with the command, as `--db` among its
        // options (last, or before a `--` that ends them).
        if let first = arguments.first, first == "--db" || first.hasPrefix("--db="), arguments.count > (first == "--db" ? 2 : 1) {
            let taken = first == "--db" ? 2 : 1
            var rest = Array(arguments.dropFirst(taken))
            rest.insert(contentsOf: arguments.prefix(taken), at: rest.firstIndex(of: "--") ?? rest.endIndex)
            return run(rest, context: context)
        }
        guard let first = arguments.first else {
            context.standardError(usage)
            return ExitStatus.usage
        }
        switch first {
        case "-h", "--help", "help":
            if first == "help", arguments.count > 1 {
                return run([arguments[1], "--help"], context: context)
            }
            context.standardOutput(usage)
            return ExitStatus.success
        case "--version":
            context.standardOutput("chime \(version)")
            return ExitStatus.success
        default:
            break
        }
        // Help and usage above are this program's own text; everything
        // below may carry an item's title or an argument as typed.
        let raw = context
        let context = raw.escapingControlCharacters
        guard let command = commands.first(where: { $0.name == first }) else {
            let hint = Suggestion.hint(for: first, among: commands.map { $0.name } + (first.hasPrefix("-") ? ["--help", "--version"] : []))
            context.standardError("chime: unknown command '\(first)' (see 'chime --help')\(hint)")
            return ExitStatus.usage
        }
        let rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            raw.standardOutput(command.help(for: rest))
            return ExitStatus.success
        }
        do {
            try command.run(rest, context: context)
            if command.changesStore { tellDaemon(context) }
            return ExitStatus.success
        } catch {
            // An empty message is an answer, not a failure (`chime workday` on a day off, `chime find` matching nothing).
            if !error.message.isEmpty { context.standardError(error.message) }
            return error.status
        }
    }

    /// Tells a running daemon that the store changed (it also watches the
    /// store's folder, so this only makes the re-plan immediate); quiet when
    /// no daemon runs.
    static func tellDaemon(_ context: CommandContext) {
        // Written out, and the reply left unread: a JSON coder's first use in
        // a process is about a tenth of a cold `chime add`.
        _ = try? DaemonClient(environment: context.environment).exchange(line: Data(#"{"request":"changed"}"#.utf8), timeout: 1)
    }

    static var usage: String {
        let list = commands.map { "  \($0.name.padding(toLength: 10, withPad: " ", startingAt: 0)) \($0.abstract)" }
        return """
        usage: chime COMMAND [OPTIONS]

        Chime keeps alarms and reminders for the Linux desktop.

        Commands:
        \(list.joined(separator: "\n"))

        'chime COMMAND --help' describes one command.

        Items are named by their identifier or any unique prefix of it (the
        eight digits listings show are usually enough). Every item command
        takes --db PATH (default: $CHIME_DB, else $XDG_DATA_HOME/chime/chime.db),
        also before the command (chime --db PATH COMMAND …), and --json (one
        JSON document on standard output, for scripts).

        Exit status:
          0   success
          1   an answer of no: chime workday on a day off, chime find matching nothing
          64  the command line is wrong (unknown command or option, missing argument)
          65  a value is wrong: a time, zone, rule or coordinates; a duplicate key;
              a read-only calendar; a calendar with items removed without --yes;
              an ambiguous identifier prefix
          66  not found: no item with that identifier, no such calendar or occurrence
          69  unavailable: no daemon answers (chime daemon status, chime location),
              the holiday source cannot be reached (chime holidays update)
          74  the store cannot be opened, read or written, or standard output
              cannot be written
        """
    }
}
