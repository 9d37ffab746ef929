import CalendarModel
import CalendarStore
import Foundation

/// `chime edit ID`: changes fields of an item, or of occurrences of a
/// repeating event.
enum EditCommand: Command {
    static let name = "edit"
    static let changesStore = true
    static let abstract = "Change an event or reminder, or occurrences of a repeating event"
    static let syntax = CommandSyntax("chime edit", forms: [
        .init("ID", options: either),
        .init("ID", options: eventOnly + ChimeOptions.store),
        .init("ID", options: reminderOnly + ChimeOptions.store),
    ], options: either + eventOnly + reminderOnly + ChimeOptions.store, discussion: """
        Changes the event or reminder ID (any unique prefix) and prints its
        identifier's first eight digits (--json: the whole item). Fields not
        named stay as they are. Times are read on the item's own wall clock.
        The second form's options are for events, the third's for reminders.
        """, epilogue: ItemOptions.timeHelp + "\n\n" + StoreOptions.exitStatusHelp)

    /// The options an event and a reminder both take, as the first form and the help list them.
    static let either: [any DeclaredOption] = [
        ChimeOptions.title,
        ChimeOptions.notes.with(help: "new notes ('' clears them)"),
        ChimeOptions.location.with(help: "a new location ('' clears it)"),
        ChimeOptions.url.with(value: "URL|none", help: "a new link; 'none' removes it"),
        ChimeOptions.repeatRule.with(value: "RRULE|none", help: """
            a new RFC 5545 rule; 'none' stops the repetition (the first
            occurrence stays; detached occurrences are removed),
            \(RuleShorthand.wordsHelp)
            """),
        ChimeOptions.key.with(value: "KEY|none", help: """
            a new key of your own ('none' removes it); refused when
            another item of the calendar has it
            """),
        ChimeOptions.calendar.with(help: """
            move the item to another calendar (a repeating event moves
            with its changed occurrences; an occurrence alone cannot move)
            """),
        ChimeOptions.tz.with(help: """
            the item's times keep their wall-clock reading, now in ZONE;
            --start, --end and --due that follow are read there too
            """),
        ChimeOptions.floating.with(help: "the times keep their reading and follow the machine's zone"),
        ChimeOptions.alarm.with(help: "the alarms, replacing all the old ones (see 'chime add event --help'); so do:"),
        ChimeOptions.alarmAt, ChimeOptions.alarmArrive, ChimeOptions.alarmLeave,
        ChimeOptions.noAlarms,
        ChimeOptions.missedWindow.with(help: "how late the alarms (new or kept) are still shown when missed"),
        ChimeOptions.dwell.with(help: "how long the arrive alarms (new or kept) wait inside; 0: not at all"),
        ChimeOptions.firstPosition.with(help: """
            whether the location alarms (new or kept) ring on the first
            position after chimed starts when it finds you already there
            """),
    ]

    /// The options only an event takes.
    static let eventOnly: [any DeclaredOption] = [
        ChimeOptions.start.with(help: """
            a new start; the event keeps its length unless --end or
            --duration says otherwise (a date makes it all-day); a
            repeating event's exceptions and detached occurrences
            move with it by the same wall-clock shift
            """),
        ChimeOptions.end.with(help: "a new end (all-day: the last day, inclusive)"),
        ChimeOptions.duration.with(help: "a new length, from the (new) start"),
        ChimeOptions.occurrence.with(help: """
            change only occurrences of a repeating event: the one the
            series scheduled at WHEN (a date: that day's occurrence)
            """),
        ChimeOptions.span.with(help: """
            this: that occurrence alone (the default): it is detached from the
            series with its own fields, and gets an identifier of its own;
            future: that occurrence and every later one: the series is split
            there, and the later part gets an identifier of its own
            """),
    ]
    /// The options only a reminder takes.
    static let reminderOnly: [any DeclaredOption] = [
        ChimeOptions.due.with(value: "WHEN|none", help: """
            a new due time or date; 'none' removes it. A reminder
            that had neither a due time nor an alarm gets the alarm the
            due time implies (see 'chime add reminder --help'), and that
            alarm follows a due date that becomes a time, or back
            """),
        ChimeOptions.priority.with(help: "0 none, 1 highest … 9 lowest, or none, high, medium, low"),
    ]

    /// The fields an event and a reminder both have, which `either`'s options change alike.
    protocol SharedFields {
        var title: String { get set }
        var notes: String { get set }
        var location: String { get set }
        var url: String? { get set }
        var externalKey: String? { get set }
    }

    static func editShared<Item: SharedFields>(_ item: inout Item, _ parsed: ParsedArguments, _ options: ItemOptions) throws(CommandFailure) {
        if let title = parsed[ChimeOptions.title] { item.title = title }
        if let notes = parsed[ChimeOptions.notes] { item.notes = notes }
        if let location = parsed[ChimeOptions.location] { item.location = location }
        if let url = parsed[ChimeOptions.url] { item.url = url.lowercased() == "none" || url.isEmpty ? nil : try options.url(url) }
        if let key = parsed[ChimeOptions.key] { item.externalKey = key.lowercased() == "none" ? nil : try options.key(key) }
    }

    static func run(_ arguments: [String], context: CommandContext) throws(CommandFailure) {
        let command = "chime edit"
        let (parsed, positionals, span, store) = try StoreOptions.start(syntax, arguments, positionals: ["ID"], access: .writing,
                                                                        context: context) { parsed, _ throws(CommandFailure) in
            let given = syntax.options.filter { parsed.has($0) }.map(\.name)
            guard given.contains(where: { !["--db", "--json", "--occurrence", "--span"].contains($0) }) else {
                throw .usage("\(command): nothing to change; name a field such as --title (see '\(command) --help')")
            }
            if parsed[ChimeOptions.end] != nil && parsed[ChimeOptions.duration] != nil { throw .usage("\(command): give --end or --duration, not both") }
            if parsed[ChimeOptions.tz] != nil && parsed[ChimeOptions.floating] {
                throw .usage("\(command): --tz and --floating exclude each other (a floating time has no zone)")
            }
            if parsed[ChimeOptions.noAlarms] && ChimeOptions.alarms.contains(where: { parsed.has($0.spec) }) {
                throw .usage("\(command): --no-alarms and an --alarm option exclude each other")
            }
            let span = try ItemOptions.span(parsed, command: command)
            if span != nil && parsed[ChimeOptions.occurrence] == nil { throw .usage("\(command): --span needs --occurrence WHEN") }
            return span
        }
        let id = positionals[0]
        // Read, changed and written in one transaction: two edits of one
        // item at once both take effect, neither writes over the other's.
        let saved = try StoreOptions.transaction(store, command) { () throws(CommandFailure) -> StoredItem in
            switch try StoredItem.find(id, in: store, command: command) {
            case .event(let event):
                if let option = reminderOnly.first(where: { parsed.has($0.spec) })?.spec.name {
                    throw .usage("\(command): \(option) is for reminders; '\(id)' is an event")
                }
                return .event(try edit(event, parsed, span: span, store: store, context: context, command: command))
            case .reminder(let reminder):
                if let option = eventOnly.first(where: { parsed.has($0.spec) })?.spec.name {
                    throw .usage("\(command): \(option) is for events; '\(id)' is a reminder")
                }
                return .reminder(try edit(reminder, parsed, store: store, context: context, command: command))
            }
        }
        let zone = context.machineTimeZone()
        let now = context.second()
        switch (saved, parsed[ChimeOptions.json]) {
        case (.event(let event), true):
            let calendars = try StoreOptions.run(command) { () throws(StoreError) in try store.calendars() }
            StoreOptions.printJSON(ItemJSON(machine: zone, calendars: calendars).event(event), context: context)
        case (.reminder(let reminder), true):
            let calendars = try StoreOptions.run(command) { () throws(StoreError) in try store.calendars() }
            let shown = try StoreOptions.shown([reminder], store: store, now: now, command: command)[0]
            StoreOptions.printJSON(ItemJSON(machine: zone, calendars: calendars).reminder(shown.reminder, storedDue: shown.storedDue, now: now),
                                   context: context)
        case (.event(let event), false): context.standardOutput(event.identifier.short)
        case (.reminder(let reminder), false): context.standardOutput(reminder.identifier.short)
        }
    }

    /// The occurrence `text` names in the series `event` belongs to (or is),
    /// with its original start.
    static func occurrence(_ text: String, of event: Event, store: CalendarStore, context: CommandContext,
                           command: String) throws(CommandFailure) -> (Event, LocalDateTime) {
        let seriesIdentifier = event.seriesIdentifier ?? event.identifier
        let series = seriesIdentifier == event.identifier
            ? event : try StoreOptions.run(command) { () throws(StoreError) in try store.event(identifier: seriesIdentifier) }
        guard series.recurrenceRule != nil || !series.extraDates.isEmpty else {
            throw .data("\(command): --occurrence: event '\(series.title)' [\(series.identifier.short)] does not repeat")
        }
        let options = try options(for: series, context: context, command: command)
        var originalStart = try options.seriesTime(text, "--occurrence", start: series.start)
        // A date names that day's occurrence: an extra date (RDATE) on it
        // keeps a time of its own, not the series' start time.
        if case .date = try options.time(text, "--occurrence").meaning, !series.extraDates.contains(originalStart),
           let extra = series.extraDates.first(where: { $0.date == originalStart.date }) {
            originalStart = extra
        }
        let found = originalStart
        let occurrence = try StoreOptions.run(command) { () throws(StoreError) in
            try store.occurrence(of: seriesIdentifier, originalStart: found)
        }
        return (occurrence, originalStart)
    }

    /// Times read on the item's wall clock: its zone, or the machine's for
    /// floating times and dates (a date made timed lands in the machine's zone).
    static func options(for time: ItemTime?, _ context: CommandContext, command: String) -> ItemOptions {
        let machine = context.machineTimeZone()
        let now = context.second()
        var floating = false
        if case .floating = time { floating = true }
        let zone = (time.flatMap { try? $0.timeZone(machine: machine) }) ?? machine
        return ItemOptions(command: command, now: now, zone: zone, floating: floating)
    }

    static func options(for event: Event, context: CommandContext, command: String) throws(CommandFailure) -> ItemOptions {
        options(for: event.start, context, command: command)
    }

    static func edit(_ stored: Event, _ parsed: ParsedArguments, span: Span?, store: CalendarStore,
                     context: CommandContext, command: String) throws(CommandFailure) -> Event {
        var event = stored
        if let text = parsed[ChimeOptions.occurrence] {
            event = try occurrence(text, of: stored, store: store, context: context, command: command).0
            if span ?? .thisEvent == .thisEvent, parsed[ChimeOptions.repeatRule] != nil {
                throw .usage("\(command): --repeat changes a series; with --occurrence give --span future")
            }
        }
        if let name = parsed[ChimeOptions.calendar] {
            event.calendarIdentifier = try store.calendar(named: name, forEvents: true, command: command).identifier
        }
        if let zone = try zoneChange(parsed, command: command) {
            guard !event.isAllDay else { throw .data("\(command): --tz/--floating: an all-day event's dates have no zone") }
            event.start = zone(event.start)
            event.end = zone(event.end)
        }
        let options = options(for: event.start, context, command: command)
        try editShared(&event, parsed, options)
        (event.start, event.end) = try times(event, parsed, options)
        if let text = parsed[ChimeOptions.repeatRule] {
            if text.lowercased() == "none" {
                event.recurrenceRule = nil
                event.exceptionDates = []
                event.extraDates = []
            } else {
                let (rule, shift) = try options.series(text, start: event.start)
                event.recurrenceRule = rule
                (event.start, event.end) = (event.start.adding(days: shift), event.end.adding(days: shift))
            }
        }
        if parsed[ChimeOptions.noAlarms] { event.alarms = [] }
        if let alarms = try options.alarms(parsed, locationTitle: event.location, context: context) { event.alarms = alarms }
        try options.applyMissedWindow(parsed, to: &event.alarms)
        try options.applyLocationOptions(parsed, to: &event.alarms)

        let chosen = span ?? .thisEvent
        let toSave = event
        // The store answers with where the change went: the event itself, a
        // detached occurrence, or the later part of a split series.
        let identifier = try StoreOptions.run(command) { () throws(StoreError) in try store.save(toSave, span: chosen) }
        return try StoreOptions.run(command) { () throws(StoreError) in try store.event(identifier: identifier) }
    }

    /// `--tz ZONE` or `--floating` as a change to a time: the same wall-clock
    /// reading in the new zone (dates stay dates).
    static func zoneChange(_ parsed: ParsedArguments, command: String) throws(CommandFailure) -> ((ItemTime) -> ItemTime)? {
        if let name = parsed[ChimeOptions.tz] {
            do { _ = try TimeZoneRules.named(name) } catch { throw .data("\(command): --tz: \(error)") }
            return { time in time.isDateOnly ? time : .zoned(time.wallClock, zone: name) }
        }
        if parsed[ChimeOptions.floating] {
            return { time in time.isDateOnly ? time : .floating(time.wallClock) }
        }
        return nil
    }

    /// The start and end after `--start`, `--end` and `--duration`.
    static func times(_ event: Event, _ parsed: ParsedArguments, _ options: ItemOptions) throws(CommandFailure) -> (ItemTime, ItemTime) {
        let command = options.command
        var start = event.start
        var end = event.end
        if let text = parsed[ChimeOptions.start] {
            let expression = try options.time(text, "--start")
            switch (expression.meaning, event.start, event.end) {
            case (.date(let day), .date(let first), .date(let last)):
                start = .date(day)
                end = .date(day.adding(days: last.dayNumber - first.dayNumber))
            case (.date(let day), _, _):
                start = .date(day)
                end = .date(day)
            case (_, .date, _):
                start = options.itemTime(expression)
                end = options.time(after: start, seconds: 3600)
            default:
                let length = options.instant(of: event.end) - options.instant(of: event.start)
                start = options.itemTime(expression)
                end = options.time(after: start, seconds: Int(length))
            }
        }
        if let text = parsed[ChimeOptions.end] {
            let expression = try options.time(text, "--end")
            if case .date(let first) = start {
                let last = AddEventCommand.day(expression, options)
                guard last >= first else { throw .data("\(command): --end '\(text)' is before the start \(first)") }
                end = .date(last)
            } else {
                if case .date = expression.meaning {
                    throw .data("\(command): --end '\(text)' is a date, but the event has times; give a time")
                }
                end = options.itemTime(expression)
                guard options.instant(of: end) >= options.instant(of: start) else {
                    throw .data("\(command): --end '\(text)' is before the start \(start)")
                }
            }
        }
        if let text = parsed[ChimeOptions.duration] {
            let seconds = try options.duration(text, "--duration")
            if start.isDateOnly {
                guard seconds > 0, seconds % 86_400 == 0 else {
                    throw .data("\(command): --duration '\(text)': an all-day event lasts whole days (1d, 2d, 1w)")
                }
            }
            end = options.time(after: start, seconds: seconds)
        }
        return (start, end)
    }

    /// A new due time without alarm options: a reminder that had no due
    /// time and no alarm gets the alarm its due time implies (as `add`
    /// gives one), and an implied alarm follows a due date that becomes a
    /// time or back (it goes with the due time removed). Alarms chosen, or
    /// none on a reminder that was due already (`--no-alarm`), are kept.
    static func followDue(_ reminder: inout Reminder, from stored: Reminder, environment: [String: String],
                          command: String) throws(CommandFailure) {
        if stored.due == nil && stored.alarms.isEmpty {
            reminder.alarms = try ItemOptions.impliedAlarms(for: reminder.due, environment: environment, command: command)
        } else if ItemOptions.areImplied(stored.alarms, for: stored.due, environment: environment) {
            guard let due = reminder.due else {
                reminder.alarms = []
                return
            }
            if due.isDateOnly != stored.due?.isDateOnly, let implied = try ItemOptions.impliedAlarms(for: due, environment: environment,
                                                                                                     command: command).first {
                reminder.alarms[0].trigger = implied.trigger
            }
        }
    }

    static func edit(_ stored: Reminder, _ parsed: ParsedArguments, store: CalendarStore,
                     context: CommandContext, command: String) throws(CommandFailure) -> Reminder {
        var reminder = stored
        if let name = parsed[ChimeOptions.calendar] {
            reminder.calendarIdentifier = try store.calendar(named: name, forEvents: false, command: command).identifier
        }
        if let zone = try zoneChange(parsed, command: command) {
            if reminder.due?.isDateOnly == true || reminder.start?.isDateOnly == true {
                throw .data("\(command): --tz/--floating: the reminder's dates have no time, so no zone")
            }
            reminder.due = reminder.due.map(zone)
            reminder.start = reminder.start.map(zone)
        }
        let options = options(for: reminder.due, context, command: command)
        try editShared(&reminder, parsed, options)
        if let text = parsed[ChimeOptions.priority] { reminder.priority = try options.priority(text) }
        if let text = parsed[ChimeOptions.due] {
            reminder.due = text.lowercased() == "none" ? nil : options.itemTime(try options.time(text, "--due"))
        }
        if let text = parsed[ChimeOptions.repeatRule] {
            if text.lowercased() == "none" {
                reminder.recurrenceRule = nil
            } else {
                let (rule, shift) = try options.series(text, start: reminder.due)
                reminder.recurrenceRule = rule
                reminder.due = reminder.due?.adding(days: shift)
            }
        }
        if reminder.due == nil {
            if reminder.recurrenceRule != nil { throw .usage("\(command): a repeating reminder needs a due time; give --repeat none too") }
            if !parsed.all(ChimeOptions.alarm).isEmpty { throw .usage("\(command): --alarm needs a due time to count from") }
        }
        if parsed[ChimeOptions.noAlarms] { reminder.alarms = [] }
        if let alarms = try options.alarms(parsed, locationTitle: "", context: context) {
            reminder.alarms = alarms
        } else if !parsed[ChimeOptions.noAlarms] && parsed[ChimeOptions.due] != nil {
            try followDue(&reminder, from: stored, environment: context.environment, command: command)
        }
        try options.applyMissedWindow(parsed, to: &reminder.alarms)
        try options.applyLocationOptions(parsed, to: &reminder.alarms)
        // An alarm that counts from the due time would never ring again.
        if reminder.due == nil, stored.due != nil, reminder.alarms.contains(where: { if case .relative = $0.trigger { true } else { false } }) {
            throw .usage("\(command): --due none leaves the reminder's alarms before or after the due time nothing to count from; "
                + "give --no-alarms too, or alarms of their own (--alarm-at, --alarm-arrive, --alarm-leave)")
        }
        let toSave = reminder
        return try StoreOptions.run(command) { () throws(StoreError) in
            try store.save(toSave)
            return try store.reminder(identifier: toSave.identifier)
        }
    }
}

extension Event: EditCommand.SharedFields {}
extension Reminder: EditCommand.SharedFields {}
