import CalendarModel
/// `chime add event|reminder`: the two kinds of item, each with its own
/// options (`AddEventCommand`, `AddReminderCommand`).
enum AddCommand: Command {
    static let name = "add"
    static let changesStore = true
    static let abstract = "Add an event or a reminder"
    static let help = """
    usage: chime add event TITLE --start WHEN [options]
           chime add reminder TITLE [--due WHEN] [options]

    Adds an item and prints its identifier (the first eight digits; --json
    prints the whole item). 'chime add event --help' and 'chime add reminder
    --help' list the options.

    \(StoreOptions.exitStatusHelp)
    """

    static func help(for arguments: [String]) -> String {
        switch arguments.first {
        case "event": AddEventCommand.help
        case "reminder": AddReminderCommand.help
        default: help
        }
    }

    static func run(_ arguments: [String], context: CommandContext) throws(CommandFailure) {
        switch arguments.first {
        case "event": try AddEventCommand.run(Array(arguments.dropFirst()), context: context)
        case "reminder": try AddReminderCommand.run(Array(arguments.dropFirst()), context: context)
        case nil: throw .usage("chime add: missing 'event' or 'reminder' (see 'chime add --help')")
        case let other?:
            throw .usage("chime add: unknown kind '\(other)'; expected 'event' or 'reminder' (see 'chime add --help')"
                         + Suggestion.hint(for: other, among: ["event", "reminder"]))
        }
    }
}
