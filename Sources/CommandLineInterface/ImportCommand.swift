import CalendarExchange
import CalendarModel
import CalendarStore
import Foundation
import ICalendar

/// `chime import`: iCalendar files (or standard input) into a calendar.
enum ImportCommand: Command {
    static let name = "import"
    static let abstract = "Import events, reminders and alarms from iCalendar (.ics) files"
    static let syntax = CommandSyntax("chime import", forms: [.init("FILE... | -")], options: [calendar, skipBroken, check] + ChimeOptions.store,
                                      discussion: """
        Reads iCalendar (RFC 5545) files, or standard input for '-', into a
        calendar: VEVENTs become events, VTODOs reminders and VALARMs alarms
        (display, audio and email alarms all ring as notifications; Apple's and
        RFC 9074's arrive and leave alarms ring on positions), with their repeat
        rules, exceptions and changed occurrences. Time zones may be IANA names,
        Windows names, or whatever the file's VTIMEZONE defines.

        The UID is each item's key: importing the same file again changes
        nothing, and importing an updated file updates what changed. When a UID
        comes again, the copy with the higher SEQUENCE wins; with equal
        SEQUENCEs, the later LAST-MODIFIED (else DTSTAMP); with neither newer,
        the file's copy wins when it differs. What Chime does not model
        (attendees, the organizer, X- properties, …) is kept with the item and
        written back by 'chime export'.

        A component that cannot be read (a broken line, a rule or zone Chime
        cannot hold) is reported with its file, line and UID, and then nothing
        is written (exit status 65) unless --skip-broken is given. Limits: a file
        of at most \(ICalendarReader.Limits.standard.fileSize >> 20) MiB, an unfolded line of at most \(ICalendarReader.Limits.standard.lineLength >> 20) MiB,
        components nested at most \(ICalendarReader.Limits.standard.depth) deep; past them the import stops with an error.
        """, epilogue: StoreOptions.exitStatusHelp)

    static let calendar = Option("--calendar", value: "NAME", help: """
        the calendar to import into, made if missing (default: the one the
        file names in X-WR-CALNAME, made if missing; else the default calendar)
        """)
    static let skipBroken = Flag("--skip-broken", help: "import what can be read; report the components that cannot")
    static let check = Flag("--check", help: "read and report only; write nothing")

    static var changesStore: Bool { true }

    static func run(_ arguments: [String], context: CommandContext) throws(CommandFailure) {
        let command = syntax.name
        let parsed = try syntax.parse(arguments)
        let sources = parsed.positionals
        guard !sources.isEmpty else { throw .usage("\(command): name a FILE to import, or - for standard input (see '\(command) --help')") }
        if sources.filter({ $0 == "-" }).count > 1 { throw .usage("\(command): standard input (-) can be read once") }
        let checking = parsed[check]
        // Read every file before the store is opened: a missing file never
        // creates a store. Only standard input's bytes are kept (it can be
        // read once); a file is read again when planned, so that an import
        // never holds a file's bytes beside its tree and items.
        var files: [(source: String, bytes: [UInt8]?)] = []
        for source in sources {
            do {
                let bytes = try CalendarImport.bytes(of: source)
                files.append((source, source == "-" ? bytes : nil))
            } catch {
                throw CommandFailure(message: "\(command): \(error)", status: FileManager.default.fileExists(atPath: source) || source == "-"
                                     ? ExitStatus.dataError : ExitStatus.notFound)
            }
        }
        // With no store yet, a file that cannot be imported must not create
        // one: it is read first against an empty store in memory, and the
        // store is made only to write, with that one's default calendar,
        // which the first look targets. --check only looks. The look counts
        // what it reads and holds nothing of it (a writer without a store).
        let exists = FileManager.default.fileExists(atPath: StoreOptions.path(parsed, context: context))
        var newStoreDefault: ItemCalendar?
        if checking || !exists {
            let (_, store) = try StoreOptions.start(parsed, positionals: nil, access: .reading, context: context, command: command)
            let plans = try plan(files, into: store, writer: ImportWriter(store: nil), parsed: parsed, context: context)
            let faults = plans.flatMap(\.faults)
            if checking {
                for fault in faults { context.standardError("\(command): \(fault)") }
                for warning in plans.flatMap(\.warnings) { context.standardError("\(command): warning: \(warning)") }
                report(plans, reports: nil, parsed: parsed, context: context)
                if !faults.isEmpty { throw .data("\(command): \(faults.count) component\(faults.count == 1 ? "" : "s") cannot be imported") }
                return
            }
            if !faults.isEmpty && !parsed[skipBroken] { throw nothingImported(faults, context: context) }
            newStoreDefault = try StoreOptions.run(command) { () throws(StoreError) in try store.defaultCalendarForNewEvents() }
        }
        // The import proper, in one transaction: each file is written in
        // pieces while it is read (ImportWriter), so that its items are
        // never all held, and a fault it will not skip rolls all back.
        let store = try StoreOptions.open(parsed, context: context, command: command, newStoreDefault: newStoreDefault)
        let (plans, reports) = try StoreOptions.transaction(store, command, forImport: true) {
            () throws(CommandFailure) -> ([CalendarImport.Plan], [ImportReport]) in
            let writer = ImportWriter(store: store)
            let plans = try plan(files, into: store, writer: writer, parsed: parsed, context: context)
            let faults = plans.flatMap(\.faults)
            if !faults.isEmpty && !parsed[skipBroken] { throw nothingImported(faults, context: context) }
            let reports = try StoreOptions.run(command) { () throws(StoreError) in try CalendarImport.apply(plans, store: store, writer: writer) }
            return (plans, reports)
        }
        for fault in plans.flatMap(\.faults) { context.standardError("\(command): skipped \(fault)") }
        report(plans, reports: reports, parsed: parsed, context: context)
    }

    /// Reports `faults` and gives the failure of an import that writes nothing for them.
    static func nothingImported(_ faults: [ImportFault], context: CommandContext) -> CommandFailure {
        let command = syntax.name
        for fault in faults { context.standardError("\(command): \(fault)") }
        return .data("\(command): nothing imported: \(faults.count) component\(faults.count == 1 ? "" : "s") cannot be read "
                     + "(--skip-broken imports the rest)")
    }

    /// Every file read and mapped against `store`, each written (or counted) through `writer` as it is read.
    static func plan(_ files: [(source: String, bytes: [UInt8]?)], into store: CalendarStore, writer: ImportWriter,
                     parsed: ParsedArguments, context: CommandContext) throws(CommandFailure) -> [CalendarImport.Plan] {
        let command = syntax.name
        let (defaultCalendar, reminderCalendar) = try StoreOptions.run(command) { () throws(StoreError) in
            (try store.defaultCalendarForNewEvents(), try store.defaultCalendarForNewReminders())
        }
        var plans: [CalendarImport.Plan] = []
        for file in files {
            do {
                let bytes = try file.bytes ?? CalendarImport.bytes(of: file.source)
                plans.append(try CalendarImport.plan(bytes, source: file.source, calendarName: parsed[calendar], defaultCalendar: defaultCalendar,
                                                     reminderCalendar: reminderCalendar, store: store, writer: writer))
            } catch {
                throw .data("\(command): \(error)")
            }
        }
        return plans
    }

    /// Per file and calendar: how many items came, and what became of them.
    static func report(_ plans: [CalendarImport.Plan], reports: [ImportReport]?, parsed: ParsedArguments, context: CommandContext) {
        struct Part: Encodable {
            var file, calendar: String
            var newCalendar: Bool
            var events, reminders: Int
            var added, updated, unchanged, keptNewer: Int?
        }
        struct Report: Encodable {
            var imported: [Part]
            var skipped: [String]
            var checkedOnly: Bool
        }
        var parts: [Part] = []
        var index = 0
        for plan in plans {
            for part in plan.parts {
                var line = Part(file: plan.source, calendar: part.calendar.title, newCalendar: part.isNew,
                                events: part.eventCount, reminders: part.reminderCount)
                if let reports, index < reports.count {
                    let report = reports[index]
                    (line.added, line.updated, line.unchanged, line.keptNewer) = (report.added, report.updated, report.unchanged, report.keptNewer)
                }
                index += 1
                parts.append(line)
            }
        }
        if parsed[ChimeOptions.json] {
            StoreOptions.printJSON(Report(imported: parts, skipped: plans.flatMap(\.faults).map(\.description), checkedOnly: reports == nil),
                                   context: context)
            return
        }
        for part in parts {
            var text = "\(part.file): \(part.events) event\(part.events == 1 ? "" : "s"), \(part.reminders) reminder\(part.reminders == 1 ? "" : "s")"
            text += (reports == nil ? " would go to" : " into") + " '\(part.calendar)'" + (part.newCalendar ? " (new)" : "")
            if let added = part.added, let updated = part.updated, let unchanged = part.unchanged, let kept = part.keptNewer {
                text += ": \(added) added, \(updated) updated, \(unchanged) unchanged"
                if kept > 0 { text += ", \(kept) kept (the stored copy is newer)" }
            }
            context.standardOutput(text)
        }
    }
}
