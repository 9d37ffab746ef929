import CalendarModel
import CalendarStore
import Foundation

/// `chime edit ID`: changes fields of an item, or of occurrences of a
/// repeating event.
enum EditCommand: Command {
    static let name = "edit"
    static let changesStore = true
    static let abstract = "Change an event or reminder, or occurrences of a repeating event"
    static let help = """
    usage: chime edit ID [--title TEXT] [--notes TEXT] [--repeat RRULE|none] [--key KEY|none]
                         [--calendar NAME] [--tz ZONE | --floating]
                         [--alarm OFFSET ... | --alarm-at WHEN ... | --alarm-arrive … | --alarm-leave … | --no-alarms]
                  events: [--start WHEN] [--end WHEN | --duration DURATION] [--location TEXT]
                          [--url URL|none] [--occurrence WHEN [--span this|future]]
               reminders: [--due WHEN|none] [--priority N]
                         [--db PATH] [--json]

    Changes the event or reminder ID (any unique prefix) and prints its
    identifier's first eight digits (--json: the whole item). Fields not
    named stay as they are. Times are read on the item's own wall clock.

      --title TEXT       a new title
      --notes TEXT       new notes ('' clears them)
      --repeat RRULE     a new RFC 5545 rule; 'none' stops the repetition (the first
                         occurrence stays; detached occurrences are removed),
    \(RuleShorthand.wordsHelp)
      --key KEY          a new key of your own ('none' removes it); refused when
                         another item of the calendar has it
      --calendar NAME    move the item to another calendar (a repeating event moves
                         with its changed occurrences; an occurrence alone cannot move)
      --tz ZONE          the item's times keep their wall-clock reading, now in ZONE;
                         --start, --end and --due that follow are read there too
      --floating         the times keep their reading and follow the machine's zone
      --alarm…           the alarms, replacing all the old ones (see 'chime add event --help')
      --no-alarms        remove every alarm
      --missed-window DURATION|never|default
                         how late the alarms (new or kept) are still shown when missed
      --dwell DURATION   how long the arrive alarms (new or kept) wait inside; 0: not at all
      --first-position rings|quiet
                         whether the location alarms (new or kept) ring on the first
                         position after chimed starts when it finds you already there
      --start WHEN       a new start; the event keeps its length unless --end or
                         --duration says otherwise (a date makes it all-day); a
                         repeating event's exceptions and detached occurrences
                         move with it by the same wall-clock shift
      --end WHEN         a new end (all-day: the last day, inclusive)
      --duration DURATION  a new length, from the (new) start
      --location TEXT    a new location
      --url URL          a new link; 'none' removes it
      --occurrence WHEN  change only occurrences of a repeating event: the one the
                         series scheduled at WHEN (a date: that day's occurrence)
      --span this        that occurrence alone (the default): it is detached from the
                         series with its own fields, and gets an identifier of its own
      --span future      that occurrence and every later one: the series is split
                         there, and the later part gets an identifier of its own
      --due WHEN         a new due time or date; 'none' removes it. A reminder
                         that had neither a due time nor an alarm gets the alarm the
                         due time implies (see 'chime add reminder --help'), and that
                         alarm follows a due date that becomes a time, or back
      --priority N       0 none, 1 highest … 9 lowest, or none, high, medium, low
    \(StoreOptions.helpFooter)

    \(ItemOptions.timeHelp)

    \(StoreOptions.exitStatusHelp)
    """

    static let eventOnly = ["--start", "--end", "--duration", "--location", "--url", "--occurrence", "--span"]
    static let reminderOnly = ["--due", "--priority"]

    static let parser = ArgumentParser(command: "chime edit", options: StoreOptions.common + ItemOptions.alarmOptions
                                       + ItemOptions.zoneOptions + [
        .init(name: "--calendar", takesValue: true),
        .init(name: "--title", takesValue: true),
        .init(name: "--notes", takesValue: true),
        .init(name: "--repeat", takesValue: true),
        .init(name: "--key", takesValue: true),
        .init(name: "--no-alarms", takesValue: false),
        .init(name: "--start", takesValue: true),
        .init(name: "--end", takesValue: true),
        .init(name: "--duration", takesValue: true),
        .init(name: "--location", takesValue: true),
        .init(name: "--url", takesValue: true),
        .init(name: "--occurrence", takesValue: true),
        .init(name: "--span", takesValue: true),
        .init(name: "--due", takesValue: true),
        .init(name: "--priority", takesValue: true),
    ])

    static func run(_ arguments: [String], context: CommandContext) throws(CommandFailure) {
        let command = "chime edit"
        let parsed = try parser.parse(arguments)
        let id = try StoreOptions.positionals(parsed, ["ID"], command: command)[0]
        let given = parser.options.map(\.name).filter { parsed.value($0) != nil || parsed.has($0) }
        guard given.contains(where: { !["--db", "--json", "--occurrence", "--span"].contains($0) }) else {
            throw .usage("\(command): nothing to change; name a field such as --title (see '\(command) --help')")
        }
        if parsed.value("--end") != nil && parsed.value("--duration") != nil { throw .usage("\(command): give --end or --duration, not both") }
        if parsed.value("--tz") != nil && parsed.has("--floating") {
            throw .usage("\(command): --tz and --floating exclude each other (a floating time has no zone)")
        }
        if parsed.has("--no-alarms") && ItemOptions.alarmOptions.contains(where: { !parsed.all($0.name).isEmpty }) {
            throw .usage("\(command): --no-alarms and an --alarm option exclude each other")
        }
        let span = try ItemOptions.span(parsed, command: command)
        if span != nil && parsed.value("--occurrence") == nil { throw .usage("\(command): --span needs --occurrence WHEN") }

        let store = try StoreOptions.open(parsed, context: context, command: command)
        // Read, changed and written in one transaction: two edits of one
        // item at once both take effect, neither writes over the other's.
        let saved = try StoreOptions.transaction(store, command) { () throws(CommandFailure) -> StoredItem in
            switch try StoredItem.find(id, in: store, command: command) {
            case .event(let event):
                if let option = reminderOnly.first(where: { parsed.value($0) != nil }) {
                    throw .usage("\(command): \(option) is for reminders; '\(id)' is an event")
                }
                return .event(try edit(event, parsed, span: span, store: store, context: context, command: command))
            case .reminder(let reminder):
                if let option = eventOnly.first(where: { parsed.value($0) != nil }) {
                    throw .usage("\(command): \(option) is for events; '\(id)' is a reminder")
                }
                return .reminder(try edit(reminder, parsed, store: store, context: context, command: command))
            }
        }
        let zone = context.machineTimeZone()
        let now = Int64(context.now().timeIntervalSince1970.rounded(.down))
        switch (saved, parsed.has("--json")) {
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
        let originalStart = try options.seriesTime(text, "--occurrence", start: series.start)
        let occurrence = try StoreOptions.run(command) { () throws(StoreError) in
            try store.occurrence(of: seriesIdentifier, originalStart: originalStart)
        }
        return (occurrence, originalStart)
    }

    /// Times read on the item's wall clock: its zone, or the machine's for
    /// floating times and dates (a date made timed lands in the machine's zone).
    static func options(for time: ItemTime?, _ context: CommandContext, command: String) -> ItemOptions {
        let machine = context.machineTimeZone()
        let now = Int64(context.now().timeIntervalSince1970.rounded(.down))
        var floating = false
        if case .floating = time { floating = true }
        let zone = (time.flatMap { try? $0.timeZone(machine: machine) }) ?? machine
        return ItemOptions(command: command, now: now, zone: zone, floating: floating)
    }

    static func options(for event: Event, context: CommandContext, command: String) throws(CommandFailure) -> ItemOptions {
        options(for: event.start, context, command: command)
    }

    static func edit(_ stored: Event, _ parsed: ArgumentParser.Parsed, span: Span?, store: CalendarStore,
                     context: CommandContext, command: String) throws(CommandFailure) -> Event {
        var event = stored
        if let text = parsed.value("--occurrence") {
            event = try occurrence(text, of: stored, store: store, context: context, command: command).0
            if span ?? .thisEvent == .thisEvent, parsed.value("--repeat") != nil {
                throw .usage("\(command): --repeat changes a series; with --occurrence give --span future")
            }
        }
        if let name = parsed.value("--calendar") {
            event.calendarIdentifier = try store.calendar(named: name, forEvents: true, command: command).identifier
        }
        if let zone = try zoneChange(parsed, command: command) {
            guard !event.isAllDay else { throw .data("\(command): --tz/--floating: an all-day event's dates have no zone") }
            event.start = zone(event.start)
            event.end = zone(event.end)
        }
        let options = options(for: event.start, context, command: command)
        if let title = parsed.value("--title") { event.title = title }
        if let notes = parsed.value("--notes") { event.notes = notes }
        if let location = parsed.value("--location") { event.location = location }
        if let url = parsed.value("--url") { event.url = url.lowercased() == "none" || url.isEmpty ? nil : try options.url(url) }
        if let key = parsed.value("--key") { event.externalKey = key.lowercased() == "none" ? nil : try options.key(key) }
        (event.start, event.end) = try times(event, parsed, options)
        if let text = parsed.value("--repeat") {
            if text.lowercased() == "none" {
                event.recurrenceRule = nil
                event.exceptionDates = []
                event.extraDates = []
            } else {
                event.recurrenceRule = try options.rule(text)
            }
        }
        if parsed.has("--no-alarms") { event.alarms = [] }
        if let alarms = try options.alarms(parsed, locationTitle: event.location) { event.alarms = alarms }
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
    static func zoneChange(_ parsed: ArgumentParser.Parsed, command: String) throws(CommandFailure) -> ((ItemTime) -> ItemTime)? {
        if let name = parsed.value("--tz") {
            do { _ = try TimeZoneRules.named(name) } catch { throw .data("\(command): --tz: \(error)") }
            return { time in time.isDateOnly ? time : .zoned(time.wallClock, zone: name) }
        }
        if parsed.has("--floating") {
            return { time in time.isDateOnly ? time : .floating(time.wallClock) }
        }
        return nil
    }

    /// The start and end after `--start`, `--end` and `--duration`.
    static func times(_ event: Event, _ parsed: ArgumentParser.Parsed, _ options: ItemOptions) throws(CommandFailure) -> (ItemTime, ItemTime) {
        let command = options.command
        var start = event.start
        var end = event.end
        if let text = parsed.value("--start") {
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
        if let text = parsed.value("--end") {
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
        if let text = parsed.value("--duration") {
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

    static func edit(_ stored: Reminder, _ parsed: ArgumentParser.Parsed, store: CalendarStore,
                     context: CommandContext, command: String) throws(CommandFailure) -> Reminder {
        var reminder = stored
        if let name = parsed.value("--calendar") {
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
        if let title = parsed.value("--title") { reminder.title = title }
        if let notes = parsed.value("--notes") { reminder.notes = notes }
        if let key = parsed.value("--key") { reminder.externalKey = key.lowercased() == "none" ? nil : try options.key(key) }
        if let text = parsed.value("--priority") { reminder.priority = try options.priority(text) }
        if let text = parsed.value("--due") {
            reminder.due = text.lowercased() == "none" ? nil : options.itemTime(try options.time(text, "--due"))
        }
        if let text = parsed.value("--repeat") {
            reminder.recurrenceRule = text.lowercased() == "none" ? nil : try options.rule(text)
        }
        if reminder.due == nil {
            if reminder.recurrenceRule != nil { throw .usage("\(command): a repeating reminder needs a due time; give --repeat none too") }
            if !parsed.all("--alarm").isEmpty { throw .usage("\(command): --alarm needs a due time to count from") }
        }
        if parsed.has("--no-alarms") { reminder.alarms = [] }
        if let alarms = try options.alarms(parsed, locationTitle: "") {
            reminder.alarms = alarms
        } else if !parsed.has("--no-alarms") && parsed.value("--due") != nil {
            try followDue(&reminder, from: stored, environment: context.environment, command: command)
        }
        try options.applyMissedWindow(parsed, to: &reminder.alarms)
        try options.applyLocationOptions(parsed, to: &reminder.alarms)
        let toSave = reminder
        return try StoreOptions.run(command) { () throws(StoreError) in
            try store.save(toSave)
            return try store.reminder(identifier: toSave.identifier)
        }
    }
}
