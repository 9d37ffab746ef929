import CalendarStore
import Foundation

/// `chime status`: where the store is and whether this user may use it.
enum StatusCommand: Command {
    static let name = "status"
    static let abstract = "Show the store's path, access and counts"
    static let help = """
    usage: chime status [--db PATH] [--json]

    Shows where the store lives (--db, else $CHIME_DB, else
    $XDG_DATA_HOME/chime/chime.db), whether this user may read and write it
    (authorized, not determined: no store yet, denied, restricted: read-only),
    and how many calendars, events and reminders it holds.

    Exit status: 0, or 74 when the store cannot be opened.
    """

    static let parser = ArgumentParser(command: "chime status", options: StoreAccess.options)

    static func run(_ arguments: [String], context: CommandContext) throws(CommandFailure) {
        let parsed = try parser.parse(arguments)
        guard parsed.positionals.isEmpty else { throw .usage("chime status: takes no arguments") }
        let path = StoreLocation.path(explicit: parsed.value("--db"), environment: context.environment)
        let access = AccessStatus.of(path: path)
        var report: [String: Any] = ["path": path, "access": access.rawValue]
        if access == .authorized || access == .restricted {
            let store = try StoreAccess("chime status", parsed, context: context)
            let counts = try store.attempt { () throws(StoreError) -> (Int, Int, Int, Int64) in
                (try store.store.calendars().count, try store.store.reminders(.all).count,
                 try store.store.eventCount(), try store.store.changeCounter())
            }
            report["calendars"] = counts.0
            report["reminders"] = counts.1
            report["events"] = counts.2
            report["changes"] = counts.3
        }
        if parsed.has("--json") {
            StoreAccess.printJSONObject(report, context: context)
            return
        }
        context.standardOutput("store:  \(path)")
        context.standardOutput("access: \(access.rawValue)")
        if let calendars = report["calendars"], let events = report["events"], let reminders = report["reminders"] {
            context.standardOutput("items:  \(calendars) calendars, \(events) events, \(reminders) reminders")
        }
    }
}
