import CalendarModel
import CalendarStore
import RecurrenceEngine
import Foundation

/// `chime list events|reminders`: the items in a range of time.
enum ListCommand: Command {
    static let name = "list"
    static let abstract = "List events or reminders in a range of time"
    static let syntax = CommandSyntax("chime list", forms: [
        .init("events", options: [ChimeOptions.from, ChimeOptions.to, ChimeOptions.calendars] + ChimeOptions.store),
        .init("reminders"),
    ], options: [ChimeOptions.from, ChimeOptions.to, ChimeOptions.calendars, ChimeOptions.incomplete, ChimeOptions.completed,
                 ChimeOptions.all] + ChimeOptions.store, discussion: """
        events      the events that overlap [--from, --to), repeating ones as
                    their occurrences, by start (default: today and the six days
                    after it, stretched to reach --from or --to when only
                    one is given, and a week at least; a range of more than
                    100000 events is refused)
        reminders   the reminders not yet completed (default), due in [--from,
                    --to) when either is given; with --completed, the completed
                    ones, by completion time in [--from, --to); with --all, every
                    reminder. A repeating one is shown (and chosen) at its current
                    occurrence, the one 'chime complete' would complete

        One line each, on the machine's wall clock:

          Tue 12-01 08:50–09:00  Stand-up  [3fa2c1d0]
        """, epilogue: ItemOptions.timeHelp + "\n\n" + StoreOptions.exitStatusHelp)

    static func run(_ arguments: [String], context: CommandContext) throws(CommandFailure) {
        let parsed = try syntax.parse(arguments)
        let (kind, command, rest) = try parsed.action(of: "chime list", among: ["events", "reminders"], word: "kind").parts
        let (_, checked, store) = try StoreOptions.start(rest, access: .reading, context: context,
                                                         command: command) { parsed, _ throws(CommandFailure) in
            let filters = [ChimeOptions.incomplete, ChimeOptions.completed, ChimeOptions.all].map(\.spec).filter(parsed.has).map(\.name)
            if kind == "events", let filter = filters.first { throw .usage("\(command): \(filter) is for reminders") }
            if filters.count > 1 { throw .usage("\(command): give one of \(filters.joined(separator: ", "))") }
            if parsed[ChimeOptions.all] && (parsed[ChimeOptions.from] != nil || parsed[ChimeOptions.to] != nil) {
                throw .usage("\(command): --all lists every reminder; leave out --from and --to")
            }
            let options = try ItemOptions(parsed, context: context, command: command)
            let from = try parsed[ChimeOptions.from].map { text throws(CommandFailure) in try bound(text, "--from", options) }
            let to = try parsed[ChimeOptions.to].map { text throws(CommandFailure) in try bound(text, "--to", options) }
            if let from, let to, to < from {
                throw .data("\(command): --to '\(parsed[ChimeOptions.to]!)' is before --from '\(parsed[ChimeOptions.from]!)'")
            }
            return (options, from, to)
        }
        let (options, from, to) = checked
        let (calendars, chosen) = try StoreOptions.run(command) { () throws(StoreError) in
            (try store.calendars(), try parsed.all(ChimeOptions.calendars).map { name throws(StoreError) in try store.calendar(named: name).identifier })
        }
        let json = ItemJSON(machine: options.zone, calendars: calendars)
        let text = ItemText(zone: options.zone, now: options.now)
        let date: (Int64?) -> String? = { $0.map { RFC3339.text($0, in: options.zone) } }
        struct Listing: Encodable {
            @Nullable var from: String?
            @Nullable var to: String?
            var events: [ItemJSON.EventObject]? = nil
            var reminders: [ItemJSON.ReminderObject]? = nil
        }

        if kind == "events" {
            // The week from today's midnight, stretched to the end given:
            // and at least a week from --from, or up to --to.
            func weekAway(from instant: Int64, sign: Int64) -> Int64 {
                options.zone.resolve(local: options.zone.localTime(at: instant).localSeconds + sign * 7 * 86_400).instant
            }
            let today = options.zone.resolve(LocalDateTime(date: options.zone.localTime(at: options.now).date)!).instant
            let low = from ?? min(today, to.map { weekAway(from: $0, sign: -1) } ?? today)
            let high = to ?? max(weekAway(from: today, sign: 1), weekAway(from: low, sign: 1))
            // A listing a person or a script can take: a minutely series
            // over centuries would be billions of lines, held before sorting.
            let bound = Recurrence.expansionBound
            let events = try StoreOptions.run(command) { () throws(StoreError) in
                try store.events(overlapping: Date(timeIntervalSince1970: TimeInterval(low))..<Date(timeIntervalSince1970: TimeInterval(max(low, high))),
                                 calendars: chosen, limit: bound + 1)
            }
            if events.count > bound {
                throw .data("\(command): the events from \(date(low) ?? "") to \(date(high) ?? "") number more than \(bound), "
                    + "more than a listing shows: give a shorter range with --from and --to")
            }
            StoreOptions.warnBeyondBound(store, context: context, command: command)
            if parsed[ChimeOptions.json] {
                StoreOptions.printJSON(Listing(from: date(low), to: date(high), events: events.map(json.event)), context: context)
            } else if events.isEmpty {
                context.standardOutput("No events.")
            } else {
                for event in events { context.standardOutput(text.line(event)) }
            }
            return
        }
        let filter: CalendarStore.ReminderFilter
        let toDate: (Int64) -> Date = { Date(timeIntervalSince1970: TimeInterval($0)) }
        if parsed[ChimeOptions.completed] {
            filter = .completed(from: from.map(toDate), to: to.map(toDate))
        } else if parsed[ChimeOptions.all] {
            filter = .all
        } else {
            filter = .incomplete(dueFrom: from.map(toDate), dueTo: to.map(toDate))
        }
        let stored = try StoreOptions.run(command) { () throws(StoreError) in try store.reminders(filter, calendars: chosen) }
        let shown = try StoreOptions.shown(stored, store: store, now: options.now, byDue: !parsed[ChimeOptions.completed], command: command)
        let reminders = shown.map(\.reminder)
        if parsed[ChimeOptions.json] {
            StoreOptions.printJSON(Listing(from: date(from), to: date(to),
                                           reminders: shown.map { json.reminder($0.reminder, storedDue: $0.storedDue, now: options.now) }),
                                   context: context)
        } else if reminders.isEmpty {
            context.standardOutput("No reminders.")
        } else {
            for reminder in reminders { context.standardOutput(text.line(reminder)) }
        }
    }

    /// A bound of the range: a date's midnight (`--to`: the midnight after it), else the instant.
    static func bound(_ text: String, _ option: String, _ options: ItemOptions) throws(CommandFailure) -> Int64 {
        let expression = try options.time(text, option)
        if case .date(let day) = expression.meaning, option == "--to" {
            return options.zone.resolve(LocalDateTime(date: day.adding(days: 1))!).instant
        }
        return expression.instant(in: options.zone)
    }
}
