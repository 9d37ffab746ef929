import CalendarModel
import CalendarStore

/// `chime calendar add|remove|rename`: changes the calendars.
enum CalendarCommand: Command {
    static let name = "calendar"
    static let changesStore = true
    static let abstract = "Add, remove or rename a calendar"
    static let syntax = CommandSyntax("chime calendar", forms: [
        .init("add NAME", options: [ChimeOptions.color] + ChimeOptions.store),
        .init("remove NAME", options: [ChimeOptions.yes] + ChimeOptions.store),
        .init("rename OLD NEW", options: ChimeOptions.store),
    ], options: [ChimeOptions.color, ChimeOptions.yes] + ChimeOptions.store, discussion: """
        add       adds a calendar (colour default \(ItemCalendar.defaultColor))
        remove    removes a calendar; one that holds events or reminders is
                  refused unless --yes says to remove them with it. The last
                  calendar stays.
        rename    gives a calendar a new title

        Titles are unique, ignoring case.
        """, epilogue: StoreOptions.exitStatusHelp)

    static func run(_ arguments: [String], context: CommandContext) throws(CommandFailure) {
        let parsed = try syntax.parse(arguments)
        let (action, command, rest) = try parsed.action(of: "chime calendar", among: ["add", "remove", "rename"]).parts
        if parsed[ChimeOptions.color] != nil && action != "add" { throw .usage("\(command): --color is for 'chime calendar add'") }
        if parsed[ChimeOptions.yes] && action != "remove" { throw .usage("\(command): --yes is for 'chime calendar remove'") }
        let store: CalendarStore
        let calendar: ItemCalendar
        switch action {
        case "add":
            let started = try StoreOptions.start(rest, positionals: ["NAME"], access: .writing, context: context,
                                                 command: command) { parsed, names throws(CommandFailure) in
                let color = parsed[ChimeOptions.color] ?? ItemCalendar.defaultColor
                let candidate = ItemCalendar(title: names[0], color: color.uppercased())
                do { try candidate.validate() } catch { throw .data("\(command): \(error)") }
                return candidate
            }
            let candidate = started.checked
            store = started.store
            try StoreOptions.run(command) { () throws(StoreError) in try store.save(candidate) }
            calendar = candidate
            if !parsed[ChimeOptions.json] { context.standardOutput("added calendar '\(calendar.title)'") }
        case "remove":
            let started = try StoreOptions.start(rest, positionals: ["NAME"], access: .writing, context: context, command: command)
            let names = started.positionals
            store = started.store
            calendar = try StoreOptions.run(command) { () throws(StoreError) in
                let calendar = try store.calendar(named: names[0])
                try store.removeCalendar(calendar.identifier, removingItems: parsed[ChimeOptions.yes])
                return calendar
            }
            if !parsed[ChimeOptions.json] { context.standardOutput("removed calendar '\(calendar.title)'") }
        case "rename":
            let started = try StoreOptions.start(rest, positionals: ["OLD", "NEW"], access: .writing, context: context, command: command)
            let names = started.positionals
            store = started.store
            calendar = try StoreOptions.run(command) { () throws(StoreError) in
                var calendar = try store.calendar(named: names[0])
                calendar.title = names[1]
                try store.save(calendar)
                return calendar
            }
            if !parsed[ChimeOptions.json] { context.standardOutput("renamed calendar '\(names[0])' to '\(calendar.title)'") }
        default:
            preconditionFailure("\(command): action(of:among:) took an action with no case here")
        }
        if parsed[ChimeOptions.json] {
            let json = ItemJSON(machine: context.machineTimeZone(), calendars: [])
            struct Change: Encodable {
                var action: String
                var calendar: ItemJSON.CalendarObject
            }
            StoreOptions.printJSON(Change(action: action, calendar: json.calendar(calendar)), context: context)
        }
    }
}
