import CalendarModel
import CalendarStore

/// `chime calendars`: the calendars, defaults marked.
enum CalendarsCommand: Command {
    static let name = "calendars"
    static let abstract = "List the calendars"
    static let help = """
    usage: chime calendars [--db PATH] [--json]

    Lists every calendar with its colour; * marks the default for new items,
    (read-only) the ones that refuse changes.
    """

    static let parser = ArgumentParser(command: "chime calendars", options: StoreAccess.options)

    static func run(_ arguments: [String], context: CommandContext) throws(CommandFailure) {
        let parsed = try parser.parse(arguments)
        guard parsed.positionals.isEmpty else { throw .usage("chime calendars: takes no arguments") }
        let access = try StoreAccess("chime calendars", parsed, context: context)
        let (calendars, defaultEvents) = try access.attempt { () throws(StoreError) -> ([ItemCalendar], ItemCalendar) in
            (try access.store.calendars(), try access.store.defaultCalendarForNewEvents())
        }
        if parsed.has("--json") {
            access.printJSON(calendars.map { calendar -> [String: Any] in
                var value = ItemPresentation.json(calendar)
                value["default"] = calendar.identifier == defaultEvents.identifier
                return value
            })
            return
        }
        for calendar in calendars {
            let mark = calendar.identifier == defaultEvents.identifier ? "*" : " "
            context.standardOutput("\(mark) \(calendar.title)  \(calendar.color)\(calendar.allowsContentModifications ? "" : "  (read-only)")")
        }
    }
}
