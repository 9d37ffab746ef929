import CalendarModel
import CalendarStore
import Foundation

/// What every item command shares: `--db PATH` and `--json`, opening the
/// store, and turning the store's errors into messages and exit statuses.
enum StoreOptions {
    /// The exit statuses, as each item command's `--help` lists them.
    static let exitStatusHelp = """
    Exit status: 0 on success; 64 when the command line is wrong; 65 when a value
    is wrong (a time, zone, rule, coordinates, a duplicate key, a read-only
    calendar, an ambiguous ID); 66 when an ID, calendar or occurrence does not
    exist; 74 when the store cannot be opened, read or written.
    """

    /// Whether a command opens the store to read it only (a missing store
    /// answers as an empty one and is not created) or to change it.
    enum Access { case reading, writing }

    /// How every store command starts, always in this order: its arguments
    /// parsed by its syntax, the positionals it names checked, its own values
    /// read and checked (`check`, whose result the command gets back), and
    /// only then the store opened, so that a wrong command line never creates
    /// a store. `positionals: nil` leaves the count to `check`.
    static func start<Checked>(_ syntax: CommandSyntax, _ arguments: [String], positionals names: [String]? = [], access: Access,
                               context: CommandContext,
                               check: (ParsedArguments, [String]) throws(CommandFailure) -> Checked)
        throws(CommandFailure) -> (parsed: ParsedArguments, positionals: [String], checked: Checked, store: CalendarStore) {
        let parsed = try syntax.parse(arguments)
        let (given, checked, store) = try start(parsed, positionals: names, access: access, context: context, command: syntax.name, check: check)
        return (parsed, given, checked, store)
    }

    /// `start` for a command with nothing of its own to check first.
    static func start(_ syntax: CommandSyntax, _ arguments: [String], positionals names: [String]? = [], access: Access,
                      context: CommandContext) throws(CommandFailure) -> (parsed: ParsedArguments, positionals: [String], store: CalendarStore) {
        let (parsed, given, _, store) = try start(syntax, arguments, positionals: names, access: access, context: context) { _, _ in () }
        return (parsed, given, store)
    }

    /// `start` for an action of a command (`chime calendar add`): the
    /// command has parsed its arguments already, to choose the action.
    static func start<Checked>(_ parsed: ParsedArguments, positionals names: [String]? = [], access: Access, context: CommandContext,
                               command: String, check: (ParsedArguments, [String]) throws(CommandFailure) -> Checked)
        throws(CommandFailure) -> (positionals: [String], checked: Checked, store: CalendarStore) {
        let given = if let names { try positionals(parsed, names, command: command) } else { parsed.positionals }
        let checked = try check(parsed, given)
        let store = switch access {
        case .reading: try openForReading(parsed, context: context, command: command)
        case .writing: try open(parsed, context: context, command: command)
        }
        return (given, checked, store)
    }

    /// `start` for an action with nothing of its own to check first.
    static func start(_ parsed: ParsedArguments, positionals names: [String]? = [], access: Access, context: CommandContext,
                      command: String) throws(CommandFailure) -> (positionals: [String], store: CalendarStore) {
        let (given, _, store) = try start(parsed, positionals: names, access: access, context: context, command: command) { _, _ in () }
        return (given, store)
    }

    /// The store's path: `--db`, else `CHIME_DB`, else the XDG default.
    static func path(_ parsed: ParsedArguments, context: CommandContext) -> String {
        StoreLocation.path(explicit: parsed[ChimeOptions.db], environment: context.environment)
    }

    /// Opens (creating when needed) the store the command line names.
    static func open(_ parsed: ParsedArguments, context: CommandContext, command: String) throws(CommandFailure) -> CalendarStore {
        let path = path(parsed, context: context)
        try requireFolder(parsed, context: context, command: command)
        do {
            return try CalendarStore(path: path, machineTimeZone: context.machineTimeZone(), now: context.now)
        } catch {
            throw failure(error, command: command)
        }
    }

    /// Opens the store for a command that only reads. With no store at the
    /// path yet, an empty one in memory answers: the command says what it
    /// would of a new store, and creates neither the file nor its folder.
    static func openForReading(_ parsed: ParsedArguments, context: CommandContext,
                               command: String) throws(CommandFailure) -> CalendarStore {
        try requireFolder(parsed, context: context, command: command)
        guard FileManager.default.fileExists(atPath: path(parsed, context: context)) else {
            do {
                return try CalendarStore(path: ":memory:", machineTimeZone: context.machineTimeZone(), now: context.now)
            } catch {
                throw failure(error, command: command)
            }
        }
        return try open(parsed, context: context, command: command)
    }

    /// A path given with --db or CHIME_DB whose folder is not there is an
    /// error (see `StoreLocation.missingFolder`).
    static func requireFolder(_ parsed: ParsedArguments, context: CommandContext, command: String) throws(CommandFailure) {
        if let missing = StoreLocation.missingFolder(explicit: parsed[ChimeOptions.db], environment: context.environment) {
            throw CommandFailure(message: "\(command): \(missing)", status: ExitStatus.storeFailure)
        }
    }

    /// A store error as the command's failure: the store's own message,
    /// which names the value at fault, and the status for its kind.
    static func failure(_ error: StoreError, command: String) -> CommandFailure {
        let message = "\(command): \(error)"
        switch error {
        case .notFound, .notAnOccurrence:
            return .notFound(message)
        case .invalid, .ambiguous, .readOnlyCalendar, .duplicateCalendar, .duplicateExternalKey, .lastCalendar:
            return .data(message)
        case .calendarNotEmpty(let title, let items):
            return .data("\(command): calendar '\(title)' holds \(items) item\(items == 1 ? "" : "s"); add --yes to remove \(items == 1 ? "it" : "them") with it")
        case .database, .unusable, .damaged:
            return CommandFailure(message: message, status: ExitStatus.storeFailure)
        }
    }

    /// Runs store code, mapping its errors with `failure(_:command:)`.
    static func run<T>(_ command: String, _ body: () throws(StoreError) -> T) throws(CommandFailure) -> T {
        do {
            return try body()
        } catch {
            throw failure(error, command: command)
        }
    }

    /// Runs a command's look-ups and the writes that depend on them as one
    /// store transaction (see `CalendarStore.transaction`), so that another
    /// `chime` writing at the same time cannot come between them.
    /// `forImport`: as `CalendarStore.importTransaction` (an import written in pieces).
    static func transaction<T>(_ store: CalendarStore, _ command: String, forImport: Bool = false,
                               _ body: () throws(CommandFailure) -> T) throws(CommandFailure) -> T {
        do {
            return try forImport ? store.importTransaction(body) : store.transaction(body)
        } catch let failure as CommandFailure {
            throw failure
        } catch let error as StoreError {
            throw failure(error, command: command)
        } catch {
            throw CommandFailure(message: "\(command): \(error)", status: ExitStatus.storeFailure)
        }
    }

    /// Reminders as shown at `now`: a repeating one at its current
    /// occurrence (`CalendarStore.current`, the one `chime complete`
    /// completes), each with the due time stored.
    /// `byDue`: reminders listed by due time (the store's order, by the due
    /// time stored) are put in the order of the due times shown, the
    /// completed last as before, ties in the store's order.
    static func shown(_ reminders: [Reminder], store: CalendarStore, now: Int64, byDue: Bool = false,
                      command: String) throws(CommandFailure) -> [(reminder: Reminder, storedDue: ItemTime?)] {
        let shown = try run(command) { () throws(StoreError) in
            try reminders.map { reminder throws(StoreError) in (reminder: try store.current(reminder, through: now).reminder, storedDue: reminder.due) }
        }
        guard byDue else { return shown }
        let instant = { (reminder: Reminder) in reminder.due.flatMap { try? $0.instant(machine: store.machineTimeZone) } }
        return shown.enumerated().sorted { first, second in
            let a = first.element.reminder, b = second.element.reminder
            if a.isCompleted != b.isCompleted { return !a.isCompleted }
            switch (instant(a), instant(b)) {
            case let (x?, y?) where x != y: return x < y
            case (_?, nil): return true
            case (nil, _?): return false
            default: return first.offset < second.offset
            }
        }.map(\.element)
    }

    /// Tells of the series the command's reads met past the expansion bound
    /// (their occurrences stop there), on standard error: the output stays
    /// what it was, and nothing is left out unsaid.
    static func warnBeyondBound(_ store: CalendarStore, context: CommandContext, command: String) {
        for item in store.takeItemsBeyondBound() { context.standardError("\(command): \(item)") }
    }

    /// Every `--json` document's one style: pretty-printed, keys sorted (so
    /// the text is stable), slashes as they are.
    static let jsonEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// Prints a JSON document in the one style of `--json`.
    static func printJSON(_ value: some Encodable, context: CommandContext) {
        let data = (try? jsonEncoder.encode(value)) ?? Data("{}".utf8)
        // Not escaped as text: a JSON reader gets the exact text back.
        let document = TerminalText.escapedJSON(String(decoding: data, as: UTF8.self))
        (context.standardOutputVerbatim ?? context.standardOutput)(document)
    }

    /// Refuses positionals beyond `count`, and too few of them.
    static func positionals(_ parsed: ParsedArguments, _ names: [String], command: String) throws(CommandFailure) -> [String] {
        let given = parsed.positionals
        if given.count < names.count {
            throw .usage("\(command): missing \(names[given.count]) (see '\(command) --help')")
        }
        if given.count > names.count {
            throw .usage("\(command): unexpected argument '\(given[names.count])'; quote a \(names.last ?? "value") that has spaces (see '\(command) --help')")
        }
        return given
    }
}
