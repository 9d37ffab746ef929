import CalendarModel
import CalendarStore

/// `chime calendar add|remove|rename`.
enum CalendarCommand: Command {
    static let name = "calendar"
    static let abstract = "Add, rename or remove a calendar"
    static let help = """
    usage: chime calendar add NAME [--color #RRGGBB] [--db PATH]
           chime calendar rename OLD NEW [--db PATH]
           chime calendar remove NAME [--yes] [--db PATH]

    Calendar names are unique, ignoring case. Removing a calendar that holds
    items needs --yes, and removes them with it; the last calendar stays.

    Exit status: 0; 64 for a wrong command line; 65 for a taken name, a bad
    colour, or a calendar that is not empty without --yes; 66 for an unknown name.
    """

    static let parser = ArgumentParser(command: "chime calendar", options: StoreAccess.options + [
        .init(name: "--color", takesValue: true), .init(name: "--yes", takesValue: false),
    ])

    static func run(_ arguments: [String], context: CommandContext) throws(CommandFailure) {
        let parsed = try parser.parse(arguments)
        let words = parsed.positionals
        guard let verb = words.first, (verb == "rename" ? 3 : 2) == words.count, ["add", "remove", "rename"].contains(verb) else {
            throw .usage("chime calendar: expected 'add NAME', 'rename OLD NEW' or 'remove NAME'")
        }
        let access = try StoreAccess("chime calendar \(verb)", parsed, context: context)
        try access.attempt { () throws(StoreError) in
            switch verb {
            case "add":
                try access.store.save(ItemCalendar(title: words[1], color: parsed.value("--color") ?? ItemCalendar.defaultColor))
            case "rename":
                var calendar = try access.store.calendar(named: words[1])
                calendar.title = words[2]
                try access.store.save(calendar)
            default:
                let calendar = try access.store.calendar(named: words[1])
                try access.store.removeCalendar(calendar.identifier, removingItems: parsed.has("--yes"))
            }
        }
    }
}
