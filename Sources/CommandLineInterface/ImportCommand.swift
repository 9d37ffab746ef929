import CalendarExchange
import CalendarModel
import CalendarStore
import Foundation
import ICalendar
import SystemCalls

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
        // The first file is surveyed while the files are checked and the
        // store is opened or made: a file of its own is read by the survey's
        // thread from the start (standard input, which can be read once,
        // from the bytes read below). Read here first, the survey of a
        // 10,000-event file began 3 ms later.
        var first = checking || sources[0] == "-" ? nil : SurveyedFile(source: sources[0])
        // Read every file before the store is opened: a missing file never
        // creates a store. Only standard input's bytes are kept (it can be
        // read once); a file is read again when planned, so that an import
        // never holds a file's bytes beside its tree and items.
        var files: [(source: String, bytes: [UInt8]?)] = []
        for source in sources {
            do {
                let bytes = try CalendarImport.bytes(of: source)
                if files.isEmpty && !checking && first == nil { first = SurveyedFile(source: source, bytes: bytes) }
                files.append((source, source == "-" ? bytes : nil))
            } catch {
                throw CommandFailure(message: "\(command): \(error)", status: FileManager.default.fileExists(atPath: source) || source == "-"
                                     ? ExitStatus.dataError : ExitStatus.notFound)
            }
        }
        // --check only looks, against the store or, with none yet, an empty
        // one in memory; the look counts what it reads and holds nothing of
        // it (a writer without a store).
        if checking {
            let (_, store) = try StoreOptions.start(parsed, positionals: nil, access: .reading, context: context, command: command)
            let plans = try plan(files, into: store, writer: ImportWriter(store: nil), parsed: parsed, context: context)
            let faults = plans.flatMap(\.faults)
            for fault in faults { context.standardError("\(command): \(fault)") }
            for warning in plans.flatMap(\.warnings) { context.standardError("\(command): warning: \(warning)") }
            report(plans, reports: nil, parsed: parsed, context: context)
            if !faults.isEmpty { throw .data("\(command): \(faults.count) component\(faults.count == 1 ? "" : "s") cannot be imported") }
            return
        }
        let path = StoreOptions.path(parsed, context: context)
        let imported: Imported
        if !FileManager.default.fileExists(atPath: path),
           let made = try importIntoNewStore(files, at: path, parsed: parsed, context: context, first: first) {
            imported = made
        } else {
            imported = try importFiles(files, into: try StoreOptions.open(parsed, context: context, command: command), parsed: parsed,
                                       context: context, first: first)
        }
        let (plans, reports) = imported
        for fault in plans.flatMap(\.faults) { context.standardError("\(command): skipped \(fault)") }
        // Read leniently (a line without its fold's space joined to the one
        // before, say): taken, but said, as --check says it.
        for warning in plans.flatMap(\.warnings) { context.standardError("\(command): warning: \(warning)") }
        report(plans, reports: reports, parsed: parsed, context: context)
    }

    /// What an import read, and what became of it.
    typealias Imported = (plans: [CalendarImport.Plan], reports: [ImportReport])

    /// The import proper, in one transaction: each file is written in
    /// pieces while it is read (ImportWriter), so that its items are never
    /// all held, and a fault it will not skip rolls all back. The reading
    /// runs on a thread of its own beside the writing (`concurrently`).
    static func importFiles(_ files: [(source: String, bytes: [UInt8]?)], into store: CalendarStore, parsed: ParsedArguments,
                            context: CommandContext, first: SurveyedFile? = nil) throws(CommandFailure) -> Imported {
        let command = syntax.name
        return try StoreOptions.transaction(store, command, forImport: true) { () throws(CommandFailure) -> Imported in
            let writer = ImportWriter(store: store)
            let plans = try writer.concurrently { () throws(CommandFailure) in
                try plan(files, into: store, writer: writer, parsed: parsed, context: context, first: first)
            }
            let faults = plans.flatMap(\.faults)
            if !faults.isEmpty && !parsed[skipBroken] { throw nothingImported(faults, context: context) }
            let reports = try StoreOptions.run(command) { () throws(StoreError) in try CalendarImport.apply(plans, store: store, writer: writer) }
            return (plans, reports)
        }
    }

    /// With no store yet, a file that cannot be imported must not create
    /// one. The import makes its store under a name of its own beside
    /// `path`, and puts it in place only once it is whole and closed (its
    /// WAL folded in): a failure, or an interruption, leaves no store at
    /// `path`. The files are read once, as into a store that exists (a
    /// first look against an empty store, then the import, cost a 10,000-event
    /// file's first import a third more). Nil, with nothing done, when a
    /// store appeared at `path` meanwhile (another command made it): the
    /// import is then to go into that one.
    static func importIntoNewStore(_ files: [(source: String, bytes: [UInt8]?)], at path: String, parsed: ParsedArguments,
                                   context: CommandContext, first: SurveyedFile? = nil) throws(CommandFailure) -> Imported? {
        let command = syntax.name
        try StoreOptions.requireFolder(parsed, context: context, command: command)
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let building = folder + "/." + url.lastPathComponent + ".importing-\(getpid())"
        let leftovers = ["", "-wal", "-shm", "-journal"].map { building + $0 }
        // The default location's folders the store makes, taken away again
        // (deepest first, and only while empty) when nothing is put there.
        var madeFolders: [String] = []
        var ancestor = url.deletingLastPathComponent()
        while ancestor.path != "/", !FileManager.default.fileExists(atPath: ancestor.path), madeFolders.count < 64 {
            madeFolders.append(ancestor.path)
            ancestor = ancestor.deletingLastPathComponent()
        }
        var placed = false
        defer {
            for file in leftovers { unlink(file) }
            if !placed { for made in madeFolders { rmdir(made) } }
        }
        for file in leftovers { unlink(file) }
        removeAbandonedStores(beside: url)
        // In a scope of its own, so that the store is closed before it is moved.
        func build() throws(CommandFailure) -> Imported {
            let store: CalendarStore
            do {
                store = try CalendarStore(path: building, machineTimeZone: context.machineTimeZone(), now: context.now, building: true)
            } catch {
                throw StoreOptions.failure(error, command: command)
            }
            return try importFiles(files, into: store, parsed: parsed, context: context, first: first)
        }
        let imported = try build()
        if FileManager.default.fileExists(atPath: building + "-wal") || FileManager.default.fileExists(atPath: building + "-journal") {
            throw CommandFailure(message: "\(command): the new store \(building) was not closed cleanly; nothing was put at \(path)",
                                 status: ExitStatus.storeFailure)
        }
        // Built without syncing its commits (see `CalendarStore.init`'s `building`): on disk, whole, before it is put in place.
        do {
            try DiskSync.sync(path: building)
        } catch {
            throw CommandFailure(message: "\(command): cannot sync the new store \(building): \(error); nothing was put at \(path)",
                                 status: ExitStatus.storeFailure)
        }
        // link(2) puts it in place only where nothing is: a store made
        // meanwhile is never replaced. Where the file system has no links,
        // rename(2) after a look, which a store made in between could lose to.
        func unplaced(_ failure: SystemError) -> CommandFailure {
            CommandFailure(message: "\(command): cannot put the new store at \(path): \(failure)", status: ExitStatus.storeFailure)
        }
        if link(building, path) != 0 {
            let failure = SystemError.last("link", path: path)
            switch failure.code {
            case EEXIST:
                return nil
            case EPERM, EOPNOTSUPP:
                guard !FileManager.default.fileExists(atPath: path) else { return nil }
                guard rename(building, path) == 0 else { throw unplaced(SystemError.last("rename", path: path)) }
            default:
                throw unplaced(failure)
            }
        }
        placed = true
        // The name in the folder, on disk with the file.
        try? DiskSync.sync(path: folder, isFolder: true)
        return imported
    }

    /// The stores that first imports into `path` were making when they
    /// were killed (their process is gone), with their WAL and shared
    /// memory: they hold personal data nobody will use.
    static func removeAbandonedStores(beside path: URL) {
        let prefix = "." + path.lastPathComponent + ".importing-"
        let folder = path.deletingLastPathComponent().path
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names.prefix(100_000) where name.hasPrefix(prefix) {
            let digits = name.dropFirst(prefix.count).prefix { $0.isASCII && $0.isNumber }
            guard let pid = pid_t(digits), pid > 0, pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            unlink(folder + "/" + name)
        }
    }

    /// Reports `faults` and gives the failure of an import that writes nothing for them.
    static func nothingImported(_ faults: [ImportFault], context: CommandContext) -> CommandFailure {
        let command = syntax.name
        for fault in faults { context.standardError("\(command): \(fault)") }
        return .data("\(command): nothing imported: \(faults.count) component\(faults.count == 1 ? "" : "s") cannot be read "
                     + "(--skip-broken imports the rest)")
    }

    /// Every file read and mapped against `store`, each written (or
    /// counted) through `writer` as it is read; the first with its bytes
    /// and survey from `first`, where it has them still.
    static func plan(_ files: [(source: String, bytes: [UInt8]?)], into store: CalendarStore, writer: ImportWriter,
                     parsed: ParsedArguments, context: CommandContext, first: SurveyedFile? = nil) throws(CommandFailure) -> [CalendarImport.Plan] {
        let command = syntax.name
        let (defaultCalendar, reminderCalendar) = try writer.onStore {
            Result { () throws(CommandFailure) in
                try StoreOptions.run(command) { () throws(StoreError) in
                    (try store.defaultCalendarForNewEvents(), try store.defaultCalendarForNewReminders())
                }
            }
        }.get()
        var plans: [CalendarImport.Plan] = []
        for (index, file) in files.enumerated() {
            do {
                let ahead = index == 0 ? try first?.take() : nil
                let bytes = try ahead?.bytes ?? file.bytes ?? CalendarImport.bytes(of: file.source)
                plans.append(try CalendarImport.plan(bytes, source: file.source, calendarName: parsed[calendar], defaultCalendar: defaultCalendar,
                                                     reminderCalendar: reminderCalendar, store: store, writer: writer, surveyed: ahead?.surveyed))
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
