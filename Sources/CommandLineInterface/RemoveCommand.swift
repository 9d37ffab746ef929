import CalendarModel
import CalendarStore
import Foundation

/// `chime remove ID`: removes an item, or occurrences of a repeating event.
enum RemoveCommand: Command {
    static let name = "remove"
    static let changesStore = true
    static let abstract = "Remove an event or reminder, or occurrences of a repeating event"
    static let syntax = CommandSyntax("chime remove", forms: [.init("ID")], options: [
        ChimeOptions.occurrence.with(help: """
            the occurrence the series scheduled at WHEN, on the
            event's wall clock (a date: that day's occurrence)
            """),
        ChimeOptions.span.with(help: """
            this: only that occurrence (the default): it becomes an exception;
            future: that occurrence and every later one: the series ends before it
            """),
    ] + ChimeOptions.store, discussion: """
        Removes the event or reminder ID (any unique prefix); a repeating event
        goes with all its occurrences. With --occurrence, only occurrences go.
        """, epilogue: ItemOptions.timeHelp + "\n\n" + StoreOptions.exitStatusHelp)

    static func run(_ arguments: [String], context: CommandContext) throws(CommandFailure) {
        let command = "chime remove"
        let (parsed, given, span, store) = try StoreOptions.start(syntax, arguments, positionals: ["ID"], access: .writing,
                                                                  context: context) { parsed, _ throws(CommandFailure) in
            let span = try ItemOptions.span(parsed, command: command)
            if span != nil && parsed[ChimeOptions.occurrence] == nil { throw .usage("\(command): --span needs --occurrence WHEN") }
            return span
        }
        let id = given[0]
        let item = try StoredItem.find(id, in: store, command: command)
        struct Removal: Encodable {
            @Nullable var identifier: String?
            var type = ""
            @Nullable var occurrence: String?
            @Nullable var span: String?
            var removed = true
        }
        var result = Removal()
        let message: String
        switch item {
        case .reminder(let reminder):
            if parsed[ChimeOptions.occurrence] != nil { throw .usage("\(command): --occurrence is for repeating events; '\(id)' is a reminder") }
            try StoreOptions.run(command) { () throws(StoreError) in try store.removeReminder(reminder.identifier) }
            result.identifier = reminder.identifier.rawValue
            result.type = "reminder"
            message = "removed reminder '\(reminder.title)' [\(reminder.identifier.short)]"
        case .event(let event):
            result.identifier = event.identifier.rawValue
            result.type = "event"
            guard let text = parsed[ChimeOptions.occurrence] else {
                try StoreOptions.run(command) { () throws(StoreError) in try store.remove(event) }
                message = "removed event '\(event.title)' [\(event.identifier.short)]"
                break
            }
            let (occurrence, originalStart) = try EditCommand.occurrence(text, of: event, store: store, context: context, command: command)
            let chosen = span ?? .thisEvent
            try StoreOptions.run(command) { () throws(StoreError) in try store.remove(occurrence, span: chosen) }
            let json = ItemJSON(machine: context.machineTimeZone(), calendars: [])
            let series = occurrence.seriesIdentifier ?? event.identifier
            result.identifier = series.rawValue
            result.occurrence = json.seriesTime(originalStart, start: occurrence.start)
            result.span = chosen.rawValue
            message = chosen == .thisEvent
                ? "removed the occurrence of '\(event.title)' at \(originalStart) [\(series.short)]"
                : "removed '\(event.title)' from \(originalStart) on [\(series.short)]"
        }
        if parsed[ChimeOptions.json] {
            StoreOptions.printJSON(result, context: context)
        } else {
            context.standardOutput(message)
        }
    }
}
