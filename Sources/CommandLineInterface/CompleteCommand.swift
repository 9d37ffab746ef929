import AlarmScheduler
import CalendarModel
import CalendarStore
import Foundation

/// `chime complete ID`: marks a reminder done.
enum CompleteCommand: Command {
    static let name = "complete"
    static let changesStore = true
    static let abstract = "Complete a reminder (a repeating one moves on to its next occurrence)"
    static let syntax = CommandSyntax("chime complete", forms: [.init("ID")], options: [occurrenceHelp] + ChimeOptions.store, discussion: """
        Marks the reminder ID (any unique prefix) completed now. A repeating
        reminder completes its current occurrence: a completed copy keeps that
        due time (it shows in 'chime list reminders --completed'), and the
        reminder itself becomes due at its next occurrence; after the last
        occurrence the reminder is completed for good. Completing a completed
        reminder changes nothing. With --occurrence, only the occurrence due
        then is completed: run again (a script's retry), it changes nothing,
        where without it the next occurrence would be completed too.
        """, epilogue: StoreOptions.exitStatusHelp)

    /// `--occurrence`, its help worded for reminders.
    static let occurrenceHelp = ChimeOptions.occurrence.with(value: "WHEN", help: """
        of a repeating reminder, complete the occurrence due at WHEN
        (a date: that day's) if it is the current one; one already past
        changes nothing, a later one is refused (65)
        """)

    static func run(_ arguments: [String], context: CommandContext) throws(CommandFailure) {
        let command = syntax.name
        let (parsed, given, store) = try StoreOptions.start(syntax, arguments, positionals: ["ID"], access: .writing, context: context)
        let id = given[0]
        // Read and completed in one transaction: a `chime complete` running
        // beside this one completes the occurrence after this one's.
        let zone = context.machineTimeZone()
        let now = context.second()
        let (before, after, past) = try StoreOptions.transaction(store, command) { () throws(CommandFailure) -> (Reminder, Reminder, Bool) in
            guard case .reminder(let stored) = try StoredItem.find(id, in: store, command: command) else {
                throw .data("\(command): '\(id)' is an event; only reminders are completed")
            }
            // As shown: at the occurrence completed.
            let before = try StoreOptions.shown([stored], store: store, now: now, command: command)[0].reminder
            if let text = parsed[ChimeOptions.occurrence], !before.isCompleted, try isPast(text, current: before, context: context, command: command) {
                return (before, before, true)
            }
            let after = try StoreOptions.run(command) { () throws(StoreError) -> Reminder in
                if !stored.isCompleted { try AlarmLedger(store: store).complete(stored.identifier, in: store) }
                return try store.reminder(identifier: stored.identifier)
            }
            return (before, after, false)
        }
        let movedOn = !after.isCompleted
        if parsed[ChimeOptions.json] {
            let calendars = try StoreOptions.run(command) { () throws(StoreError) in try store.calendars() }
            let json = ItemJSON(machine: zone, calendars: calendars)
            struct Completion: Encodable {
                var identifier: String
                var alreadyCompleted: Bool
                @Nullable var completedDue: String?
                @Nullable var nextDue: String?
                var reminder: ItemJSON.ReminderObject
            }
            StoreOptions.printJSON(Completion(identifier: after.identifier.rawValue, alreadyCompleted: before.isCompleted || past,
                                              completedDue: past ? nil : json.time(before.due), nextDue: movedOn ? json.time(after.due) : nil,
                                              reminder: json.reminder(after, storedDue: after.due, now: now)), context: context)
            return
        }
        let text = ItemText(zone: zone, now: now)
        if before.isCompleted {
            context.standardOutput("'\(after.title)' was already completed [\(after.identifier.short)]")
        } else if past {
            context.standardOutput("'\(after.title)': the occurrence \(parsed[ChimeOptions.occurrence] ?? "") is no longer pending (due now: "
                + "\(after.due.map(text.full) ?? "-")); nothing changed [\(after.identifier.short)]")
        } else if movedOn, let due = after.due {
            context.standardOutput("completed '\(after.title)' due \(before.due.map(text.full) ?? "-"); next due \(text.full(due)) [\(after.identifier.short)]")
        } else {
            context.standardOutput("completed '\(after.title)' [\(after.identifier.short)]")
        }
    }

    /// Whether `text` names an occurrence of `current` (a reminder as of its
    /// current occurrence) before the current one: already completed or
    /// passed over. The current one is false; a later one, or a reminder
    /// that does not repeat, is refused.
    static func isPast(_ text: String, current: Reminder, context: CommandContext, command: String) throws(CommandFailure) -> Bool {
        guard current.recurrenceRule != nil, let due = current.due else {
            throw .data("\(command): --occurrence: '\(current.title)' does not repeat")
        }
        let options = EditCommand.options(for: due, context, command: command)
        let named = try options.seriesTime(text, "--occurrence", start: due)
        if named < due.wallClock { return true }
        guard named == due.wallClock else {
            throw .data("\(command): --occurrence '\(text)': '\(current.title)' is due \(due.wallClock) first; "
                + "complete that one first (its occurrences are completed in order)")
        }
        return false
    }
}
