import CalendarModel
import CalendarStore
import Foundation

/// `chime add event`: adds an event and prints its identifier.
enum AddEventCommand {
    static let syntax = CommandSyntax("chime add event", forms: [.init("TITLE")], options: [
        ChimeOptions.start.asRequired, ChimeOptions.end, ChimeOptions.duration, ChimeOptions.allDay,
        ChimeOptions.tz, ChimeOptions.floating, ChimeOptions.calendar, ChimeOptions.location, ChimeOptions.notes, ChimeOptions.url,
        ChimeOptions.repeatRule, ChimeOptions.exdate,
    ] + ChimeOptions.alarms + [
        ChimeOptions.key.with(help: """
            a key of your own, unique in the calendar: adding again with
            the same key updates that event instead of adding another
            """),
    ] + ChimeOptions.store, discussion: """
        Adds an event and prints its identifier's first eight digits (--json: the
        whole event, with the full identifier).
        """, epilogue: ItemOptions.timeHelp + "\n\n" + StoreOptions.exitStatusHelp)

    static func run(_ arguments: [String], context: CommandContext) throws(CommandFailure) {
        let command = "chime add event"
        let (parsed, given, checked, store) = try StoreOptions.start(syntax, arguments, positionals: ["TITLE"], access: .writing,
                                                                     context: context) { parsed, _ throws(CommandFailure) in
            guard let startText = parsed[ChimeOptions.start] else { throw .usage("\(command): missing --start WHEN (see '\(command) --help')") }
            if parsed[ChimeOptions.end] != nil && parsed[ChimeOptions.duration] != nil {
                throw .usage("\(command): give --end or --duration, not both")
            }
            if !parsed.all(ChimeOptions.exdate).isEmpty && parsed[ChimeOptions.repeatRule] == nil {
                throw .usage("\(command): --exdate needs --repeat (only a repeating event has occurrences to leave out)")
            }
            let options = try ItemOptions(parsed, context: context, command: command)
            var (start, end) = try times(startText: startText, parsed, options)
            let series = try parsed[ChimeOptions.repeatRule].map { text throws(CommandFailure) in try options.series(text, start: start) }
            let rule = series?.rule
            if let shift = series?.shift { (start, end) = (start.adding(days: shift), end.adding(days: shift)) }
            let exceptions = try options.seriesTimes(parsed.all(ChimeOptions.exdate), "--exdate", start: start)
            let location = parsed[ChimeOptions.location] ?? ""
            var alarms = try options.alarms(parsed, locationTitle: location, context: context) ?? []
            try options.applyMissedWindow(parsed, to: &alarms)
            try options.applyLocationOptions(parsed, to: &alarms)
            let url = try parsed[ChimeOptions.url].map { text throws(CommandFailure) in try options.url(text) }
            let key = try parsed[ChimeOptions.key].map { text throws(CommandFailure) in try options.key(text) }
            return (start, end, rule, exceptions, location, alarms, url, key)
        }
        let title = given[0]
        let (start, end, rule, exceptions, location, alarms, url, key) = checked
        ItemOptions.warnZoneOfDates(parsed, times: [start, end], kind: "event", context: context, command: command)
        let saved = try StoreOptions.transaction(store, command) { () throws(CommandFailure) -> (Event, Bool) in
            let calendar = try store.calendar(named: parsed[ChimeOptions.calendar], forEvents: true, command: command)
            var event = Event(calendarIdentifier: calendar.identifier, title: title, location: location,
                              notes: parsed[ChimeOptions.notes] ?? "", url: url, start: start, end: end, recurrenceRule: rule,
                              exceptionDates: exceptions, alarms: alarms, externalKey: key)
            let existing = try KeyHolder.updated(by: key, event: true, in: calendar, store: store, command: command)
            if let existing { event.identifier = existing }
            let updated = existing != nil
            return try StoreOptions.run(command) { () throws(StoreError) -> (Event, Bool) in
                try store.save(event)
                return (try store.event(identifier: event.identifier), updated)
            }
        }
        if parsed[ChimeOptions.json] {
            let calendars = try StoreOptions.run(command) { () throws(StoreError) in try store.calendars() }
            var object = ItemJSON(machine: context.machineTimeZone(), calendars: calendars).event(saved.0)
            object.updatedExisting = saved.1
            StoreOptions.printJSON(object, context: context)
        } else {
            context.standardOutput(saved.0.identifier.short)
        }
    }

    /// The start and end the options give.
    static func times(startText: String, _ parsed: ParsedArguments, _ options: ItemOptions) throws(CommandFailure) -> (ItemTime, ItemTime) {
        let command = options.command
        let startExpression = try options.time(startText, "--start")
        var allDay = parsed[ChimeOptions.allDay]
        if case .date = startExpression.meaning { allDay = true }
        if allDay {
            let first = day(startExpression, options)
            var last = first
            if let text = parsed[ChimeOptions.end] {
                last = day(try options.time(text, "--end"), options)
                guard last >= first else { throw .data("\(command): --end '\(text)' is before --start '\(startText)'") }
            } else if let text = parsed[ChimeOptions.duration] {
                let seconds = try options.duration(text, "--duration")
                guard seconds > 0, seconds % 86_400 == 0 else {
                    throw .data("\(command): --duration '\(text)': an all-day event lasts whole days (1d, 2d, 1w)")
                }
                last = first.adding(days: seconds / 86_400 - 1)
            }
            return (.date(first), .date(last))
        }
        let start = options.itemTime(startExpression)
        if let text = parsed[ChimeOptions.end] {
            let endExpression = try options.time(text, "--end")
            if case .date = endExpression.meaning {
                throw .data("\(command): --end '\(text)' is a date, but --start '\(startText)' is a time; give a time, or --all-day")
            }
            let end = options.itemTime(endExpression)
            guard options.instant(of: end) >= options.instant(of: start) else {
                throw .data("\(command): --end '\(text)' is before --start '\(startText)'")
            }
            return (start, end)
        }
        let seconds = try parsed[ChimeOptions.duration].map { text throws(CommandFailure) in try options.duration(text, "--duration") } ?? 3600
        return (start, options.time(after: start, seconds: seconds))
    }

    /// The day a time expression names, on the options' wall clock.
    static func day(_ expression: TimeExpression, _ options: ItemOptions) -> CivilDate {
        switch expression.meaning {
        case .date(let date): date
        case .wallClock(let local): local.date
        case .instant(let instant): options.zone.localTime(at: instant).date
        }
    }
}
