import CalendarModel
import CalendarStore
import Foundation

/// `chime add reminder`: adds a reminder and prints its identifier.
enum AddReminderCommand {
    static let syntax = CommandSyntax("chime add reminder", forms: [.init("TITLE")], options: [
        ChimeOptions.due,
        ChimeOptions.tz.with(help: "the IANA zone of the due time (default: the machine's)"),
        ChimeOptions.floating.with(help: "a due time that follows whatever zone the machine is in"),
        ChimeOptions.priority, ChimeOptions.notes, ChimeOptions.location, ChimeOptions.url,
        ChimeOptions.calendar.with(help: "the calendar (default: the one for new reminders)"),
        ChimeOptions.repeatRule.with(help: """
            repeat by an RFC 5545 rule (needs --due); its alarms ring for
            every occurrence, done or not (one not done by the next is
            listed in 'chime missed'); completing it completes the latest
            occurrence that came due and makes the next one due;
            \(RuleShorthand.wordsHelp)
            """),
    ] + ChimeOptions.alarms + [
        ChimeOptions.noAlarm,
        ChimeOptions.key.with(help: """
            a key of your own, unique in the calendar: adding again with
            the same key updates that reminder instead of adding another
            """),
    ] + ChimeOptions.store, discussion: """
        Adds a reminder and prints its identifier's first eight digits (--json:
        the whole reminder, with the full identifier).
        """, epilogue: ItemOptions.timeHelp + "\n\n" + StoreOptions.exitStatusHelp)

    static func run(_ arguments: [String], context: CommandContext) throws(CommandFailure) {
        let command = "chime add reminder"
        let (parsed, given, checked, store) = try StoreOptions.start(syntax, arguments, positionals: ["TITLE"], access: .writing,
                                                                     context: context) { parsed, _ throws(CommandFailure) in
            if parsed[ChimeOptions.due] == nil {
                if parsed[ChimeOptions.repeatRule] != nil { throw .usage("\(command): --repeat needs --due (the first occurrence)") }
                if !parsed.all(ChimeOptions.alarm).isEmpty { throw .usage("\(command): --alarm needs --due (the time it counts from)") }
            }
            let options = try ItemOptions(parsed, context: context, command: command)
            var due = try parsed[ChimeOptions.due].map { text throws(CommandFailure) in options.itemTime(try options.time(text, "--due")) }
            let priority = try parsed[ChimeOptions.priority].map { text throws(CommandFailure) in try options.priority(text) } ?? 0
            let series = try parsed[ChimeOptions.repeatRule].map { text throws(CommandFailure) in try options.series(text, start: due) }
            let rule = series?.rule
            if let shift = series?.shift { due = due?.adding(days: shift) }
            let asked = try options.alarms(parsed, locationTitle: "", context: context)
            if parsed[ChimeOptions.noAlarm] && asked != nil {
                throw .usage("\(command): --no-alarm and an --alarm option exclude each other")
            }
            // Asked-for alarms replace the implied one; --no-alarm leaves it out.
            var alarms: [Alarm] = []
            if let asked {
                alarms = asked
            } else if !parsed[ChimeOptions.noAlarm] {
                alarms = try ItemOptions.impliedAlarms(for: due, environment: context.environment, command: command)
            }
            try options.applyMissedWindow(parsed, to: &alarms)
            try options.applyLocationOptions(parsed, to: &alarms)
            let key = try parsed[ChimeOptions.key].map { text throws(CommandFailure) in try options.key(text) }
            let url = try parsed[ChimeOptions.url].map { text throws(CommandFailure) in try options.url(text) }
            return (options, due, priority, rule, alarms, key, url)
        }
        let title = given[0]
        let (options, due, priority, rule, alarms, key, url) = checked
        ItemOptions.warnZoneOfDates(parsed, times: [due], kind: "reminder", context: context, command: command)
        let (saved, updated) = try StoreOptions.transaction(store, command) { () throws(CommandFailure) -> (Reminder, Bool) in
            let calendar = try store.calendar(named: parsed[ChimeOptions.calendar], forEvents: false, command: command)
            var reminder = Reminder(calendarIdentifier: calendar.identifier, title: title, notes: parsed[ChimeOptions.notes] ?? "",
                                    location: parsed[ChimeOptions.location] ?? "", url: url, priority: priority, due: due, recurrenceRule: rule, alarms: alarms, externalKey: key)
            let existing = try KeyHolder.updated(by: key, event: false, in: calendar, store: store, command: command)
            if let existing { reminder.identifier = existing }
            let updated = existing != nil
            let saved = try StoreOptions.run(command) { () throws(StoreError) -> Reminder in
                try store.save(reminder)
                return try store.reminder(identifier: reminder.identifier)
            }
            return (saved, updated)
        }
        if parsed[ChimeOptions.json] {
            let calendars = try StoreOptions.run(command) { () throws(StoreError) in try store.calendars() }
            let shown = try StoreOptions.shown([saved], store: store, now: options.now, command: command)[0]
            var object = ItemJSON(machine: context.machineTimeZone(), calendars: calendars)
                .reminder(shown.reminder, storedDue: shown.storedDue, now: options.now)
            object.updatedExisting = updated
            StoreOptions.printJSON(object, context: context)
        } else {
            context.standardOutput(saved.identifier.short)
        }
    }
}
