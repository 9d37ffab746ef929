import CalendarModel
import CalendarStore
import Foundation

/// `chime show ID`: every field of one item.
enum ShowCommand: Command {
    static let name = "show"
    static let abstract = "Show every field of an event or reminder"
    static let syntax = CommandSyntax("chime show", forms: [.init("ID")], options: [ChimeOptions.occurrence] + ChimeOptions.store,
                                      discussion: """
        Shows an event or a reminder: title, calendar, times (on their own zone's
        wall clock), repetition and exceptions, location, notes, alarms, key and
        the full identifier. ID is the identifier or any unique prefix of it, such
        as the eight digits listings show.
        """, epilogue: StoreOptions.exitStatusHelp)

    static func run(_ arguments: [String], context: CommandContext) throws(CommandFailure) {
        let command = syntax.name
        let (parsed, given, store) = try StoreOptions.start(syntax, arguments, positionals: ["ID"], access: .reading, context: context)
        let id = given[0]
        var item = try StoredItem.find(id, in: store, command: command)
        if let text = parsed[ChimeOptions.occurrence] {
            guard case .event(let event) = item else { throw .usage("\(command): --occurrence is for repeating events; '\(id)' is a reminder") }
            item = .event(try EditCommand.occurrence(text, of: event, store: store, context: context, command: command).0)
        }
        let calendars = try StoreOptions.run(command) { () throws(StoreError) in try store.calendars() }
        let zone = context.machineTimeZone()
        let now = context.second()
        var storedDue: ItemTime?
        if case .reminder(let reminder) = item {
            let shown = try StoreOptions.shown([reminder], store: store, now: now, command: command)[0]
            (item, storedDue) = (.reminder(shown.reminder), shown.storedDue)
        }
        if parsed[ChimeOptions.json] {
            let json = ItemJSON(machine: zone, calendars: calendars)
            switch item {
            case .event(let event): StoreOptions.printJSON(json.event(event), context: context)
            case .reminder(let reminder): StoreOptions.printJSON(json.reminder(reminder, storedDue: storedDue, now: now), context: context)
            }
            return
        }
        let text = ItemText(zone: zone, now: now)
        let title: (ItemIdentifier) -> String = { id in calendars.first { $0.identifier == id }?.title ?? id.rawValue }
        let lines = switch item {
        case .event(let event): text.details(event, calendar: title(event.calendarIdentifier))
        case .reminder(let reminder): text.details(reminder, calendar: title(reminder.calendarIdentifier))
        }
        for line in lines { context.standardOutput(line) }
    }
}
