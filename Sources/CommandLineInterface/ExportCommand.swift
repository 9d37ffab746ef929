import CalendarExchange
import CalendarModel
import CalendarStore
import Foundation
import ICalendar

/// `chime export`: calendars or items as one iCalendar file.
enum ExportCommand: Command {
    static let name = "export"
    static let abstract = "Write calendars or items as an iCalendar (.ics) file"
    static let syntax = CommandSyntax("chime export", forms: [.init("[ID...]")],
                                      options: [ChimeOptions.calendars, ChimeOptions.from, ChimeOptions.to, output, ChimeOptions.db],
                                      discussion: """
        Writes RFC 5545 text on standard output (or to --output): events with
        their repeat rules, exceptions and changed occurrences, reminders, and
        alarms, with a VTIMEZONE for every zone they use. What an imported item
        brought that Chime does not model is written back as it came, so that
        importing the file again changes nothing.

        With IDs, just those items (a repeating event whole, with its changed
        occurrences); else every calendar, or those named with --calendar. With
        --from and --to, only what has something in that range; a repeating
        event is still written whole. One calendar exported whole is named in
        X-WR-CALNAME, which 'chime import' reads back.
        """, epilogue: StoreOptions.exitStatusHelp)

    static let output = Option("--output", short: "-o", value: "FILE", help: """
        write the file there (replacing it, private to you) instead of standard output
        """)

    static func run(_ arguments: [String], context: CommandContext) throws(CommandFailure) {
        let command = syntax.name
        let (parsed, identifiers, checked, store) = try StoreOptions.start(syntax, arguments, positionals: nil, access: .reading,
                                                                            context: context) { parsed, given throws(CommandFailure) in
            if !given.isEmpty && (parsed.has(ChimeOptions.calendars.spec) || parsed[ChimeOptions.from] != nil || parsed[ChimeOptions.to] != nil) {
                throw .usage("\(command): give IDs, or --calendar/--from/--to, not both")
            }
            let options = try ItemOptions(parsed, context: context, command: command)
            let from = try parsed[ChimeOptions.from].map { text throws(CommandFailure) in try ListCommand.bound(text, "--from", options) }
            let to = try parsed[ChimeOptions.to].map { text throws(CommandFailure) in try ListCommand.bound(text, "--to", options) }
            if let from, let to, to < from {
                throw .data("\(command): --to '\(parsed[ChimeOptions.to]!)' is before --from '\(parsed[ChimeOptions.from]!)'")
            }
            if (from == nil) != (to == nil) { throw .usage("\(command): --from and --to go together") }
            return from.flatMap { from in to.map { Date(timeIntervalSince1970: TimeInterval(from))..<Date(timeIntervalSince1970: TimeInterval($0)) } }
        }
        let range = checked
        let (items, calendarName) = try StoreOptions.run(command) { () throws(StoreError) -> (CalendarItems, String?) in
            if !identifiers.isEmpty {
                var wanted: [ItemIdentifier] = []
                for text in identifiers { wanted.append(try store.itemIdentifier(matching: text)) }
                return (try store.items(identifiers: wanted), nil)
            }
            let names = parsed.all(ChimeOptions.calendars)
            let calendars = names.isEmpty ? try store.calendars() : try names.map { name throws(StoreError) in try store.calendar(named: name) }
            var items = CalendarItems()
            for calendar in calendars {
                items.append(try store.items(of: calendar.identifier, overlapping: range))
            }
            return (items, calendars.count == 1 && range == nil ? calendars[0].title : nil)
        }
        let bytes: [UInt8]
        do {
            bytes = try CalendarExport.bytes(items, calendarName: calendarName, stamp: context.now())
        } catch {
            throw .data("\(command): \(error)")
        }
        if let path = parsed[output] {
            try write(bytes, to: path, command: command)
            return
        }
        // The text ends in CR LF; standard output adds the LF.
        (context.standardOutputVerbatim ?? context.standardOutput)(String(decoding: bytes.dropLast(), as: UTF8.self))
    }

    /// Writes the file whole or not at all: a temporary file beside it, mode 0600, renamed over it.
    static func write(_ bytes: [UInt8], to path: String, command: String) throws(CommandFailure) {
        let temporary = path + ".chime-\(getpid())"
        let created = FileManager.default.createFile(atPath: temporary, contents: Data(bytes), attributes: [.posixPermissions: 0o600])
        guard created, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw CommandFailure(message: "\(command): cannot write \(path)", status: ExitStatus.storeFailure)
        }
    }
}
