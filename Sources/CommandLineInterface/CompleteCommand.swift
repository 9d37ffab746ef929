import AlarmScheduler
import CalendarModel
import CalendarStore
import Foundation

/// `chime complete ID`: marks a reminder done.
enum CompleteCommand: Command {
    static let name = "complete"
    static let changesStore = true
    static let abstract = "Complete a reminder (a repeating one moves on to its next occurrence)"
    static let syntax = CommandSyntax("chime complete", forms: [.init("ID")], options: ChimeOptions.store, discussion: """
        Marks the reminder ID (any unique prefix) completed now. A repeating
        reminder completes its current occurrence: a completed copy keeps that
        due time (it shows in 'chime list reminders --completed'), and the
        reminder itself becomes due at its next occurrence; after the last
        occurrence the reminder is completed for good. Completing a completed
        reminder changes nothing.
        """, epilogue: StoreOptions.exitStatusHelp)

    static func run(_ arguments: [String], context: CommandContext) throws(CommandFailure) {
        let command = syntax.name
        let (parsed, given, store) = try StoreOptions.start(syntax, arguments, positionals: ["ID"], access: .writing, context: context)
        let id = given[0]
        // Read and completed in one transaction: a `chime complete` running
        // beside this one completes the occurrence after this one's.
        let zone = context.machineTimeZone()
        let now = context.second()
        let (before, after) = try StoreOptions.transaction(store, command) { () throws(CommandFailure) -> (Reminder, Reminder) in
            guard case .reminder(let stored) = try StoredItem.find(id, in: store, command: command) else {
                throw .data("\(command): '\(id)' is an event; only reminders are completed")
            }
            // As shown: at the occurrence completed.
            let before = try StoreOptions.shown([stored], store: store, now: now, command: command)[0].reminder
            let after = try StoreOptions.run(command) { () throws(StoreError) -> Reminder in
                if !stored.isCompleted { try AlarmLedger(store: store).complete(stored.identifier, in: store) }
                return try store.reminder(identifier: stored.identifier)
            }
            return (before, after)
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
            StoreOptions.printJSON(Completion(identifier: after.identifier.rawValue, alreadyCompleted: before.isCompleted,
                                              completedDue: json.time(before.due), nextDue: movedOn ? json.time(after.due) : nil,
                                              reminder: json.reminder(after, storedDue: after.due, now: now)), context: context)
            return
        }
        let text = ItemText(zone: zone, now: now)
        if before.isCompleted {
            context.standardOutput("'\(after.title)' was already completed [\(after.identifier.short)]")
        } else if movedOn, let due = after.due {
            context.standardOutput("completed '\(after.title)' due \(before.due.map(text.full) ?? "-"); next due \(text.full(due)) [\(after.identifier.short)]")
        } else {
            context.standardOutput("completed '\(after.title)' [\(after.identifier.short)]")
        }
    }
}
