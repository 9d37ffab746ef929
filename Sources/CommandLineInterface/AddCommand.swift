import CalendarModel
/// `chime add event|reminder`: the two kinds of item, each with its own
/// options (`AddEventCommand`, `AddReminderCommand`).
enum AddCommand: Command {
    static let name = "add"
    static let changesStore = true
    static let abstract = "Add an event or a reminder"
    static let syntax = CommandSyntax("chime add", forms: [
        .init("event TITLE", options: [ChimeOptions.start.asRequired]),
        .init("reminder TITLE", options: [ChimeOptions.due]),
    ], options: [], discussion: """
        Adds an item and prints its identifier (the first eight digits; --json
        prints the whole item). 'chime add event --help' and 'chime add reminder
        --help' list the options.
        """, epilogue: StoreOptions.exitStatusHelp)
    static var syntaxes: [CommandSyntax] { [syntax, AddEventCommand.syntax, AddReminderCommand.syntax] }

    static func help(for arguments: [String]) -> String {
        switch arguments.first {
        case "event": AddEventCommand.syntax.help
        case "reminder": AddReminderCommand.syntax.help
        default: syntax.help
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
