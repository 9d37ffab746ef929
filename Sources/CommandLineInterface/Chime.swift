/// The `chime` command line: finds the subcommand and maps failures to
/// messages on standard error and exit statuses.
public enum Chime {
    public static let version = "0.1.0"

    static let commands: [any Command.Type] = [
        AddCommand.self, AgendaCommand.self, CalendarsCommand.self, CalendarCommand.self, CompleteCommand.self,
        RRuleCommand.self, StatusCommand.self,
    ]

    /// Runs `chime` with its arguments (without the program name) and
    /// returns the exit status.
    public static func run(_ arguments: [String], context: CommandContext = .process) -> Int32 {
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
        guard let command = commands.first(where: { $0.name == first }) else {
            context.standardError("chime: unknown command '\(first)' (see 'chime --help')")
            return ExitStatus.usage
        }
        let rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            context.standardOutput(command.help)
            return ExitStatus.success
        }
        do {
            try command.run(rest, context: context)
            return ExitStatus.success
        } catch {
            context.standardError(error.message)
            return error.status
        }
    }

    static var usage: String {
        let list = commands.map { "  \($0.name.padding(toLength: 10, withPad: " ", startingAt: 0)) \($0.abstract)" }
        return """
        usage: chime COMMAND [OPTIONS]

        Chime keeps alarms and reminders for the Linux desktop.

        Commands:
        \(list.joined(separator: "\n"))

        'chime COMMAND --help' describes one command.

        Exit status: 0 on success, 64 when the command line is wrong,
        65 when a value (rule, date, time zone) is wrong, 66 when what was
        named (an item, a calendar) does not exist, 74 when the store cannot
        be opened.
        """
    }
}
