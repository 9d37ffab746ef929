import CalendarModel
import CalendarStore
import Foundation

/// `chime agenda`: today and tomorrow at a glance.
enum AgendaCommand: Command {
    static let name = "agenda"
    static let abstract = "Show today's and tomorrow's events and the reminders due by then"
    static let help = """
    usage: chime agenda [--db PATH] [--json]

    Lists the events of today and tomorrow on the machine's wall clock, then
    the incomplete reminders due by the end of tomorrow (overdue ones too).

    Exit status: 0, or 74 when the store cannot be opened.
    """

    static let parser = ArgumentParser(command: "chime agenda", options: StoreAccess.options)

    static func run(_ arguments: [String], context: CommandContext) throws(CommandFailure) {
        let parsed = try parser.parse(arguments)
        guard parsed.positionals.isEmpty else { throw .usage("chime agenda: takes no arguments") }
        let access = try StoreAccess("chime agenda", parsed, context: context)
        let today = access.zone.localTime(at: access.now).date
        let from = Date(timeIntervalSince1970: TimeInterval(access.zone.resolve(LocalDateTime(date: today)!).instant))
        let to = Date(timeIntervalSince1970: TimeInterval(access.zone.resolve(LocalDateTime(date: today.adding(days: 2))!).instant))
        let (events, reminders) = try access.attempt { () throws(StoreError) -> ([Event], [Reminder]) in
            (try access.store.events(overlapping: from..<to), try access.store.reminders(.incomplete(dueFrom: nil, dueTo: to)))
        }
        if parsed.has("--json") {
            access.printJSON(["events": events.map { ItemPresentation.json($0, zone: access.zone) },
                              "reminders": reminders.map { ItemPresentation.json($0, zone: access.zone) }])
            return
        }
        if events.isEmpty && reminders.isEmpty {
            context.standardOutput("Nothing today or tomorrow.")
            return
        }
        for event in events { context.standardOutput(ItemPresentation.line(event, zone: access.zone)) }
        for reminder in reminders { context.standardOutput(ItemPresentation.line(reminder, zone: access.zone)) }
    }
}
