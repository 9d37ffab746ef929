import CalendarModel
import CalendarStore

/// `chime calendar add|remove|rename`: changes the calendars.
enum CalendarCommand: Command {
    static let name = "calendar"
    static let changesStore = true
    static let abstract = "Add, remove or rename a calendar"
    static let help = """
    usage: chime calendar add NAME [--color #RRGGBB] [--db PATH] [--json]
           chime calendar remove NAME [--yes] [--db PATH] [--json]
           chime calendar rename OLD NEW [--db PATH] [--json]

    add       adds a calendar (colour default \(ItemCalendar.defaultColor))
    remove    removes a calendar; one that holds events or reminders is
              refused unless --yes says to remove them with it. The last
              calendar stays.
    rename    gives a calendar a new title

    Titles are unique, ignoring case.

      --color #RRGGBB    the calendar's colour (add)
      --yes              remove the calendar's items with it (remove)
    \(StoreOptions.helpFooter)

    \(StoreOptions.exitStatusHelp)
    """

    static let parser = ArgumentParser(command: "chime calendar", options: StoreOptions.common + [
        .init(name: "--color", takesValue: true),
        .init(name: "--yes", short: "-y", takesValue: false),
    ])

    static func run(_ arguments: [String], context: CommandContext) throws(CommandFailure) {
        let parsed = try parser.parse(arguments)
        guard let action = parsed.positionals.first else {
            throw .usage("chime calendar: missing add, remove or rename (see 'chime calendar --help')")
        }
        let command = "chime calendar \(action)"
        var rest = parsed
        rest.positionals.removeFirst()
        if parsed.value("--color") != nil && action != "add" { throw .usage("\(command): --color is for 'chime calendar add'") }
        if parsed.has("--yes") && action != "remove" { throw .usage("\(command): --yes is for 'chime calendar remove'") }
        let store: CalendarStore
        let calendar: ItemCalendar
        switch action {
        case "add":
            let names = try StoreOptions.positionals(rest, ["NAME"], command: command)
            let color = parsed.value("--color") ?? ItemCalendar.defaultColor
            let candidate = ItemCalendar(title: names[0], color: color.uppercased())
            do { try candidate.validate() } catch { throw .data("\(command): \(error)") }
            store = try StoreOptions.open(parsed, context: context, command: command)
            try StoreOptions.run(command) { () throws(StoreError) in try store.save(candidate) }
            calendar = candidate
            if !parsed.has("--json") { context.standardOutput("added calendar '\(calendar.title)'") }
        case "remove":
            let names = try StoreOptions.positionals(rest, ["NAME"], command: command)
            store = try StoreOptions.open(parsed, context: context, command: command)
            calendar = try StoreOptions.run(command) { () throws(StoreError) in
                let calendar = try store.calendar(named: names[0])
                try store.removeCalendar(calendar.identifier, removingItems: parsed.has("--yes"))
                return calendar
            }
            if !parsed.has("--json") { context.standardOutput("removed calendar '\(calendar.title)'") }
        case "rename":
            let names = try StoreOptions.positionals(rest, ["OLD", "NEW"], command: command)
            store = try StoreOptions.open(parsed, context: context, command: command)
            calendar = try StoreOptions.run(command) { () throws(StoreError) in
                var calendar = try store.calendar(named: names[0])
                calendar.title = names[1]
                try store.save(calendar)
                return calendar
            }
            if !parsed.has("--json") { context.standardOutput("renamed calendar '\(names[0])' to '\(calendar.title)'") }
        default:
            throw .usage("chime calendar: unknown action '\(action)'; expected add, remove or rename (see 'chime calendar --help')"
                         + Suggestion.hint(for: action, among: ["add", "remove", "rename"]))
        }
        if parsed.has("--json") {
            let json = ItemJSON(machine: context.machineTimeZone(), calendars: [])
            struct Change: Encodable {
                var action: String
                var calendar: ItemJSON.CalendarObject
            }
            StoreOptions.printJSON(Change(action: action, calendar: json.calendar(calendar)), context: context)
        }
    }
}
