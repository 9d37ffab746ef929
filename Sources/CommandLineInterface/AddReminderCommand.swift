import CalendarModel
import CalendarStore
import Foundation

/// `chime add reminder`: adds a reminder and prints its identifier.
enum AddReminderCommand {
    static let help = """
    usage: chime add reminder TITLE [--due WHEN] [--tz ZONE | --floating] [--priority N]
                              [--notes TEXT] [--calendar NAME] [--repeat RRULE]
                              [--alarm OFFSET ... | --no-alarm] [--alarm-at WHEN ...]
                              [--alarm-arrive LAT,LON[,RADIUS] ...] [--alarm-leave LAT,LON[,RADIUS] ...]
                              [--key KEY] [--db PATH] [--json]

    Adds a reminder and prints its identifier's first eight digits (--json:
    the whole reminder, with the full identifier).

      --due WHEN         when it is due: a date alone (due that day) or a time
      --tz ZONE          the IANA zone of the due time (default: the machine's)
      --floating         a due time that follows whatever zone the machine is in
      --priority N       0 none, 1 highest … 9 lowest, or none, high (1), medium (5), low (9)
      --notes TEXT       notes
      --calendar NAME    the calendar (default: the one for new reminders)
      --repeat RRULE     repeat by an RFC 5545 rule (needs --due); its alarms ring for
                         every occurrence, done or not (one not done by the next is
                         listed in 'chime missed'); completing it completes the latest
                         occurrence that came due and makes the next one due;
    \(RuleShorthand.wordsHelp)
    \(ItemOptions.alarmHelp)
      --no-alarm         no alarm: without any alarm option, a reminder with a due
                         time rings at it, and one due on a date rings at 09:00 that
                         day (CHIME_DAY_ALARM=HH:MM sets another time)
      --key KEY          a key of your own, unique in the calendar: adding again with
                         the same key updates that reminder instead of adding another
    \(StoreOptions.helpFooter)

    \(ItemOptions.timeHelp)

    \(StoreOptions.exitStatusHelp)
    """

    static let parser = ArgumentParser(command: "chime add reminder", options: StoreOptions.common + ItemOptions.zoneOptions
        + ItemOptions.alarmOptions + [
            .init(name: "--due", takesValue: true),
            .init(name: "--priority", takesValue: true),
            .init(name: "--notes", takesValue: true),
            .init(name: "--calendar", takesValue: true),
            .init(name: "--repeat", takesValue: true),
            .init(name: "--key", takesValue: true),
            .init(name: "--no-alarm", takesValue: false),
        ])

    static func run(_ arguments: [String], context: CommandContext) throws(CommandFailure) {
        let command = "chime add reminder"
        let parsed = try parser.parse(arguments)
        let title = try StoreOptions.positionals(parsed, ["TITLE"], command: command)[0]
        if parsed.value("--due") == nil {
            if parsed.value("--repeat") != nil { throw .usage("\(command): --repeat needs --due (the first occurrence)") }
            if !parsed.all("--alarm").isEmpty { throw .usage("\(command): --alarm needs --due (the time it counts from)") }
        }
        let options = try ItemOptions(parsed, context: context, command: command)
        let due = try parsed.value("--due").map { text throws(CommandFailure) in options.itemTime(try options.time(text, "--due")) }
        let priority = try parsed.value("--priority").map { text throws(CommandFailure) in try options.priority(text) } ?? 0
        let rule = try parsed.value("--repeat").map { text throws(CommandFailure) in try options.rule(text) }
        let asked = try options.alarms(parsed, locationTitle: "")
        if parsed.has("--no-alarm") && asked != nil {
            throw .usage("\(command): --no-alarm and an --alarm option exclude each other")
        }
        // Asked-for alarms replace the implied one; --no-alarm leaves it out.
        var alarms: [Alarm] = []
        if let asked {
            alarms = asked
        } else if !parsed.has("--no-alarm") {
            alarms = try ItemOptions.impliedAlarms(for: due, environment: context.environment, command: command)
        }
        try options.applyMissedWindow(parsed, to: &alarms)
        try options.applyLocationOptions(parsed, to: &alarms)
        let key = try parsed.value("--key").map { text throws(CommandFailure) in try options.key(text) }

        let store = try StoreOptions.open(parsed, context: context, command: command)
        let (saved, updated) = try StoreOptions.transaction(store, command) { () throws(CommandFailure) -> (Reminder, Bool) in
            let calendar = try store.calendar(named: parsed.value("--calendar"), forEvents: false, command: command)
            var reminder = Reminder(calendarIdentifier: calendar.identifier, title: title, notes: parsed.value("--notes") ?? "",
                                    priority: priority, due: due, recurrenceRule: rule, alarms: alarms, externalKey: key)
            let existing = try KeyHolder.updated(by: key, event: false, in: calendar, store: store, command: command)
            if let existing { reminder.identifier = existing }
            let updated = existing != nil
            let saved = try StoreOptions.run(command) { () throws(StoreError) -> Reminder in
                try store.save(reminder)
                return try store.reminder(identifier: reminder.identifier)
            }
            return (saved, updated)
        }
        if parsed.has("--json") {
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
