import CalendarModel
import CalendarStore
import Foundation

/// `chime status`: where the store is, whether this user may use it, and
/// how much it holds.
enum StatusCommand: Command {
    static let name = "status"
    static let abstract = "Show the store's path, access, calendars, item counts and change counter"
    static let syntax = CommandSyntax("chime status", options: ChimeOptions.store, discussion: """
        Shows the store's path; its access status: "not determined" (no store yet;
        the first change creates it), "authorized", "denied" (permissions forbid
        it) or "restricted" (a read-only file or medium); and, when it can be
        read, the number of calendars, events and reminders (a recurring item
        counts once) and the change counter, which grows with every change.
        Never creates or changes the store.
        """, epilogue: StoreOptions.exitStatusHelp)

    static func run(_ arguments: [String], context: CommandContext) throws(CommandFailure) {
        let command = "chime status"
        let parsed = try syntax.parse(arguments)
        _ = try StoreOptions.positionals(parsed, [], command: command)
        let path = StoreOptions.path(parsed, context: context)
        let access = AccessStatus.of(path: path)
        var counts: CalendarStore.Summary?
        if access == .authorized || access == .restricted {
            do {
                // Read-only: status never creates or migrates a store.
                counts = try CalendarStore(path: path, readOnly: true, machineTimeZone: context.machineTimeZone()).summary()
            } catch {
                throw CommandFailure(message: "\(command): cannot read the store at \(path): \(error)", status: ExitStatus.storeFailure)
            }
        }
        if parsed[ChimeOptions.json] {
            struct Status: Encodable {
                var path, access: String
                @Nullable var calendars: Int?
                @Nullable var events: Int?
                @Nullable var reminders: Int?
                @Nullable var incompleteReminders: Int?
                @Nullable var changeCounter: Int64?
            }
            StoreOptions.printJSON(Status(path: path, access: access.rawValue, calendars: counts?.calendars, events: counts?.events,
                                          reminders: counts?.reminders, incompleteReminders: counts?.incompleteReminders,
                                          changeCounter: counts?.changeCounter), context: context)
            return
        }
        var rows = [("Store", path), ("Access", access.rawValue)]
        if let counts {
            rows += [
                ("Calendars", "\(counts.calendars)"),
                ("Events", "\(counts.events)"),
                ("Reminders", "\(counts.reminders) (\(counts.incompleteReminders) not completed)"),
                ("Changes", "\(counts.changeCounter)"),
            ]
        }
        for line in ItemText.table(rows) { context.standardOutput(line) }
    }
}
