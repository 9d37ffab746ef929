import CalendarModel
import CalendarStore

/// `chime calendars`: lists the calendars.
enum CalendarsCommand: Command {
    static let name = "calendars"
    static let abstract = "List the calendars"
    static let syntax = CommandSyntax("chime calendars", options: ChimeOptions.store, discussion: """
        Lists the calendars by title, with their colour, and marks the ones new
        events and reminders go to, read-only ones and subscribed ones:

          Personal  #3478F6  default for events and reminders
          Work      #FF9500
        """, epilogue: StoreOptions.exitStatusHelp)

    static func run(_ arguments: [String], context: CommandContext) throws(CommandFailure) {
        let command = syntax.name
        let (parsed, _, store) = try StoreOptions.start(syntax, arguments, access: .reading, context: context)
        let (calendars, events, reminders) = try StoreOptions.run(command) { () throws(StoreError) in
            (try store.calendars(), try store.defaultCalendarForNewEvents().identifier, try store.defaultCalendarForNewReminders().identifier)
        }
        if parsed[ChimeOptions.json] {
            let json = ItemJSON(machine: context.machineTimeZone(), calendars: calendars)
            StoreOptions.printJSON(["calendars": calendars.map { json.calendar($0, defaultEvents: events, defaultReminders: reminders) }],
                                   context: context)
            return
        }
        let width = calendars.map(\.title.count).max() ?? 0
        for calendar in calendars {
            var notes: [String] = []
            switch (calendar.identifier == events, calendar.identifier == reminders) {
            case (true, true): notes.append("default for events and reminders")
            case (true, false): notes.append("default for events")
            case (false, true): notes.append("default for reminders")
            case (false, false): break
            }
            if case .subscribed(let url) = calendar.kind { notes.append("subscribed to \(url)") }
            if !calendar.allowsContentModifications { notes.append("read-only") }
            let line = calendar.title.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + calendar.color
            context.standardOutput(notes.isEmpty ? line : line + "  " + notes.joined(separator: ", "))
        }
    }
}
