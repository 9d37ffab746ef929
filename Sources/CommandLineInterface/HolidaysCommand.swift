import CalendarExchange
import CalendarModel
import CalendarStore
import Foundation
import HolidayCalendars

/// `chime holidays [--year Y] | status | import FILE… | update | source | week | morning`:
/// the days off and makeup workdays behind the workday calendar.
enum HolidaysCommand: Command {
    static let name = "holidays"
    static let changesStore = true
    static let abstract = "Show, import and update the holiday data behind workdays"
    static let syntax = CommandSyntax("chime holidays", forms: [
        .init("", options: [ChimeOptions.year] + common),
        .init("status", options: common),
        .init("import FILE…", options: common),
        .init("update", options: [source] + common),
        .init("source [SOURCE]", options: ChimeOptions.store),
        .init("week [DAYS]", options: common),
        .init("morning [TIME]", options: ChimeOptions.store),
    ], options: [ChimeOptions.year, source] + common, discussion: """
        (no action)  the year's days off and makeup workdays (default: this year)
        status       every year with data, where it comes from, and the years missing
        import       reads holiday-cn JSON or ICS files (2027.json, 2027.ics) or
                     Chime's compact format (.txt); each year replaces the data the
                     store had for it. A malformed or inconsistent file is refused
                     with the file and entry at fault, and nothing changes.
        update       fetches holiday-cn's file of each year from 2007 to next year
                     and imports those that are new or changed. --from takes a web
                     address (with {year} in it, or a base that /YEAR.json is added
                     to) or a folder of YEAR.json files; default: the source set
                     with 'chime holidays source', else holiday-cn's own files:
                     \(HolidayFeed.defaultPattern)
        source       shows or sets where holiday data comes from: an address or
                     a folder as for --from, holiday-cn (the default), or off.
                     While workday rules are in use, chimed fetches the years
                     they need (this year's, and next year's from October) once
                     a day, and says when one arrives or changes; off stops
                     that (update still fetches, from holiday-cn).
        week         shows or sets the ordinary week: mon-fri (the default),
                     mon-sat, sun-thu, or a list such as MO,TU,WE,TH,FR,SA
        morning      shows or sets when your morning ends, HH:MM (default 12:00):
                     on half days of leave or work ('chime leave add --half'), a
                     reminder at that minute or before is the morning's, a
                     later one the afternoon's. Any minute of the lunch break
                     will do: with 08:30–12:30 and 14:00–18:00, 12:30 or 13:00.

        The bundled data covers 2007 to 2026; imported years take the place of
        bundled ones year by year.
        """, epilogue: """
        Exit status: 0 on success; 64 when the command line is wrong; 65 when a file
        or value is wrong; 66 when a file does not exist; 69 when the source cannot
        be reached; 74 when the store cannot be read or written.
        """)

    /// `--from` as update reads it: a source, not a time.
    static let source = ChimeOptions.from.with(value: "SOURCE", help: "where update fetches from")
    static let common: [any DeclaredOption] = [ChimeOptions.region] + ChimeOptions.store

    static func run(_ arguments: [String], context: CommandContext) throws(CommandFailure) {
        let parsed = try syntax.parse(arguments)
        let (action, command, rest) = try parsed.action(of: "chime holidays", among: ["list", "status", "import", "update", "source", "week", "morning"],
                                                        implicit: "list").parts
        if parsed[ChimeOptions.year] != nil && action != "list" { throw .usage("\(command): --year is for 'chime holidays' alone") }
        if parsed[ChimeOptions.from] != nil && action != "update" { throw .usage("\(command): --from is for 'chime holidays update'") }
        switch action {
        case "list": try list(rest, context: context, command: command)
        case "status": try status(rest, context: context, command: command)
        case "import": try importFiles(rest, context: context, command: command)
        case "update": try update(rest, context: context, command: command)
        case "source": try setSource(rest, context: context, command: command)
        case "week": try week(rest, context: context, command: command)
        case "morning": try morning(rest, context: context, command: command)
        default:
            preconditionFailure("\(command): action(of:among:) took an action with no case here")
        }
    }

    static func list(_ parsed: ParsedArguments, context: CommandContext, command: String) throws(CommandFailure) {
        let (_, year, store) = try StoreOptions.start(parsed, access: .reading, context: context,
                                                      command: command) { parsed, _ throws(CommandFailure) in
            try parsed[ChimeOptions.year].map { text throws(CommandFailure) -> Int in
                guard let year = Int(text), (1900...9999).contains(year) else { throw .data("\(command): --year '\(text)' is not a year") }
                return year
            } ?? HolidayOptions.today(context).year
        }
        let calendar = try HolidayOptions.workdayCalendar(parsed, store: store, command: command)
        let entries = calendar.exceptions(inYear: year)
        let missing = calendar.hasData(forYear: year) ? [] : [year]
        HolidayOptions.warnAboutMissingYears(missing, in: calendar, context: context, command: command)
        if parsed[ChimeOptions.json] {
            struct Day: Encodable {
                var date: String
                var offDay: Bool
                var name: String
            }
            struct Year: Encodable {
                var region: String
                var year: Int
                var hasData: Bool
                var days: [Day]
            }
            let days = entries.map { Day(date: $0.date.description, offDay: $0.isOffDay, name: $0.name) }
            StoreOptions.printJSON(Year(region: calendar.region, year: year, hasData: missing.isEmpty, days: days), context: context)
            return
        }
        if entries.isEmpty {
            context.standardOutput(missing.isEmpty ? "No days off or makeup workdays in \(year)." : "No holiday data for \(year).")
        }
        for entry in entries {
            context.standardOutput("\(entry.date) \(ItemText.weekdays[entry.date.weekday.rawValue])  \(entry.isOffDay ? "off " : "work")  \(entry.name)")
        }
    }

    static func status(_ parsed: ParsedArguments, context: CommandContext, command: String) throws(CommandFailure) {
        let (_, store) = try StoreOptions.start(parsed, access: .reading, context: context, command: command)
        let calendar = try HolidayOptions.workdayCalendar(parsed, store: store, command: command)
        let thisYear = HolidayOptions.today(context).year
        let first = calendar.coveredYears.first ?? thisYear
        let missing = calendar.missingYears(in: first...(thisYear + 1))
        if parsed[ChimeOptions.json] {
            struct Year: Encodable {
                var year: Int
                var source, format, hash: String
                var offDays, makeupWorkdays, notices: Int
            }
            struct Status: Encodable {
                var region: String
                var years: [Year]
                var missing: [Int]
                var ordinaryWeek: [String]
            }
            let years = calendar.years.map {
                Year(year: $0.year, source: $0.source.location, format: $0.source.format.rawValue, hash: $0.contentHash,
                     offDays: $0.offDayCount, makeupWorkdays: $0.makeupWorkdayCount, notices: $0.notices.count)
            }
            StoreOptions.printJSON(Status(region: calendar.region, years: years, missing: missing,
                                          ordinaryWeek: calendar.ordinaryWeek.workingDays.sorted().map(\.code)), context: context)
            return
        }
        context.standardOutput("region \(calendar.region), ordinary week \(HolidayOptions.weekText(calendar.ordinaryWeek))")
        for year in calendar.years {
            context.standardOutput("\(year.year)  \(String(year.offDayCount).leftPadded(2)) off  \(String(year.makeupWorkdayCount).leftPadded(2)) work  "
                                   + "\(year.contentHash.prefix(12))  \(year.source.location)")
        }
        context.standardOutput(missing.isEmpty ? "missing: none" : "missing: " + missing.map(String.init).joined(separator: ", ")
                               + " (the ordinary week answers; 'chime holidays update' fetches published years)")
    }

    static func importFiles(_ parsed: ParsedArguments, context: CommandContext, command: String) throws(CommandFailure) {
        let (_, years, store) = try StoreOptions.start(parsed, positionals: nil, access: .writing, context: context,
                                                       command: command) { parsed, paths throws(CommandFailure) in
            guard !paths.isEmpty else { throw .usage("\(command): name one or more FILEs (see 'chime holidays --help')") }
            let region = parsed[ChimeOptions.region].lowercased()
            var years: [HolidayYear] = []
            for path in paths {
                guard FileManager.default.fileExists(atPath: path) else { throw .notFound("\(command): no file '\(path)'") }
                do {
                    years += try HolidayData.read(path: path, region: region)
                } catch {
                    throw .data("\(command): \(error); nothing imported")
                }
            }
            try refuseDuplicates(years, command: command)
            return years
        }
        let changes = try StoreOptions.run(command) { () throws(StoreError) in try store.importHolidayYears(years) }
        report(changes, checked: changes.count, parsed: parsed, context: context)
    }

    static func update(_ parsed: ParsedArguments, context: CommandContext, command: String) throws(CommandFailure) {
        let (_, given, store) = try StoreOptions.start(parsed, access: .writing, context: context,
                                                       command: command) { parsed, _ throws(CommandFailure) in try source(parsed, command: command) }
        let region = try HolidayOptions.region(parsed, store: store, command: command)
        let thisYear = HolidayOptions.today(context).year
        let stored = try StoreOptions.run(command) { () throws(StoreError) in try store.holidayUpdateSource() }
        let fetched: (years: [HolidayYear], unpublished: [Int])
        do throws(HolidayFeedError) {
            // --from, else the source set, else (also when that is off) holiday-cn.
            let feed = if let given { given } else if let named = try HolidayFeed.named(by: stored) { named } else { try HolidayFeed(nil) }
            fetched = try feed.years(2007...(thisYear + 1), region: region)
        } catch {
            throw CommandFailure(message: "\(command): \(error); nothing imported", status: error.status)
        }
        let changes = try StoreOptions.run(command) { () throws(StoreError) in try store.importHolidayYears(fetched.years) }
        report(changes, checked: fetched.years.count, parsed: parsed, context: context, unpublished: fetched.unpublished.filter { $0 >= thisYear })
    }

    /// The source `--from` names, checked before the store is opened; nil without --from.
    static func source(_ parsed: ParsedArguments, command: String) throws(CommandFailure) -> HolidayFeed? {
        guard let text = parsed[ChimeOptions.from] else { return nil }
        do { return try HolidayFeed(text) } catch {
            throw CommandFailure(message: "\(command): \(error); nothing imported", status: error.status)
        }
    }

    /// `chime holidays source [SOURCE | holiday-cn | off]`.
    static func setSource(_ parsed: ParsedArguments, context: CommandContext, command: String) throws(CommandFailure) {
        if parsed.has(ChimeOptions.region.spec) { throw .usage("\(command): --region is not for 'chime holidays source': one source serves every year of cn") }
        let (_, given, store) = try StoreOptions.start(parsed, positionals: nil, access: parsed.positionals.isEmpty ? .reading : .writing,
                                                       context: context, command: command) { parsed, given throws(CommandFailure) -> CalendarStore.HolidayUpdateSource? in
            guard given.count <= 1 else { throw .usage("\(command): one SOURCE at most (see 'chime holidays --help')") }
            guard let text = given.first else { return nil }
            switch text {
            case "holiday-cn": return .holidayCN
            case "off": return .off
            default:
                let feed: HolidayFeed
                do throws(HolidayFeedError) { feed = try HolidayFeed(text, given: "SOURCE") } catch {
                    throw CommandFailure(message: "\(command): \(error)", status: error.status)
                }
                // A folder is kept as a whole path: chimed does not run where the command did.
                guard case .folder(let path) = feed.location else { return .given(text) }
                let kept = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true))
                    .standardizedFileURL.path
                return .given(kept)
            }
        }
        if let given { try StoreOptions.run(command) { () throws(StoreError) in try store.setHolidayUpdateSource(given) } }
        let current = try StoreOptions.run(command) { () throws(StoreError) in try store.holidayUpdateSource() }
        // A web source as a pattern, {year} in it; a folder gone since is shown as it was given.
        let shown: String = switch current {
        case .holidayCN, .off: HolidayFeed.defaultPattern
        case .given(let text): (try? HolidayFeed(text))?.description ?? text
        }
        if parsed[ChimeOptions.json] {
            struct Source: Encodable {
                var source: String
                var daemonFetches: Bool
            }
            StoreOptions.printJSON(Source(source: shown, daemonFetches: current != .off), context: context)
        } else if current == .off {
            context.standardOutput("off: chimed does not fetch holiday data; 'chime holidays update' fetches from holiday-cn (\(shown))")
        } else {
            context.standardOutput("holiday data comes from \(shown)\(current == .holidayCN ? " (holiday-cn)" : ""); "
                                   + "chimed fetches the years workday rules need once a day (this year's, and next year's from October)")
        }
    }

    static func week(_ parsed: ParsedArguments, context: CommandContext, command: String) throws(CommandFailure) {
        // Showing the week only reads.
        let (_, _, store) = try StoreOptions.start(parsed, positionals: nil, access: parsed.positionals.isEmpty ? .reading : .writing,
                                                   context: context, command: command) { _, given throws(CommandFailure) in
            guard given.count <= 1 else { throw .usage("\(command): one DAYS at most (see 'chime holidays --help')") }
        }
        let region = try HolidayOptions.region(parsed, store: store, command: command)
        if let text = parsed.positionals.first {
            guard let week = HolidayOptions.week(text), !week.workingDays.isEmpty else {
                throw .data("\(command): '\(text)' is not a week; give mon-fri, mon-sat, sun-thu or a list such as MO,TU,WE,TH,FR")
            }
            try StoreOptions.run(command) { () throws(StoreError) in try store.setOrdinaryWeek(week, region: region) }
        }
        let week = try StoreOptions.run(command) { () throws(StoreError) in try store.ordinaryWeek(region: region) }
        if parsed[ChimeOptions.json] {
            struct Week: Encodable {
                var region: String
                var ordinaryWeek: [String]
            }
            StoreOptions.printJSON(Week(region: region, ordinaryWeek: week.workingDays.sorted().map(\.code)), context: context)
        } else {
            context.standardOutput("ordinary week (\(region)): \(HolidayOptions.weekText(week))")
        }
    }

    static func morning(_ parsed: ParsedArguments, context: CommandContext, command: String) throws(CommandFailure) {
        if parsed.has(ChimeOptions.region.spec) { throw .usage("\(command): --region is not for 'chime holidays morning': the morning is yours, in every region") }
        // Showing the morning only reads.
        let (_, _, store) = try StoreOptions.start(parsed, positionals: nil, access: parsed.positionals.isEmpty ? .reading : .writing,
                                                   context: context, command: command) { _, given throws(CommandFailure) in
            guard given.count <= 1 else { throw .usage("\(command): one TIME at most (see 'chime holidays --help')") }
        }
        if let text = parsed.positionals.first {
            guard let minutes = ItemOptions.minuteOfDay(text), minutes <= DayHalf.latestMorningEnd else {
                throw .data("\(command): '\(text)' is not a time of day HH:MM from 00:00 to 23:58, the last minute of your morning")
            }
            try StoreOptions.run(command) { () throws(StoreError) in try store.setMorningEnd(minutes) }
        }
        let minutes = try StoreOptions.run(command) { () throws(StoreError) in try store.morningEnd() }
        let time = ItemText.clock(LocalDateTime(localSeconds: Int64(minutes) * 60))
        if parsed[ChimeOptions.json] {
            struct Morning: Encodable {
                var morningEnd: String
            }
            StoreOptions.printJSON(Morning(morningEnd: time), context: context)
        } else {
            context.standardOutput("the morning ends at \(time): a reminder at \(time) or before is the morning's on a half day, a later one the afternoon's")
        }
    }

    /// Two files for one year in one import: which should win is not ours to guess.
    static func refuseDuplicates(_ years: [HolidayYear], command: String) throws(CommandFailure) {
        var seen: [String: String] = [:]
        for year in years {
            let key = "\(year.region) \(year.year)"
            if let other = seen[key] {
                throw .data("\(command): \(year.year) is given twice (\(other) and \(year.source.location)); nothing imported")
            }
            seen[key] = year.source.location
        }
    }

    /// One line per year that is new or changed, then a summary.
    static func report(_ changes: [CalendarStore.HolidayYearChange], checked: Int, parsed: ParsedArguments,
                       context: CommandContext, unpublished: [Int] = []) {
        let counts = Dictionary(grouping: changes, by: \.kind).mapValues(\.count)
        if parsed[ChimeOptions.json] {
            struct Year: Encodable {
                var year: Int
                var change: String
                var offDays, makeupWorkdays, notices: Int
                var source: String
            }
            struct Report: Encodable {
                var years: [Year]
                var unpublished: [Int]
            }
            let years = changes.map {
                Year(year: $0.year, change: $0.kind.rawValue, offDays: $0.offDays, makeupWorkdays: $0.makeupWorkdays,
                     notices: $0.notices, source: $0.source)
            }
            StoreOptions.printJSON(Report(years: years, unpublished: unpublished), context: context)
            return
        }
        for change in changes where change.kind != .unchanged { context.standardOutput(change.description) }
        let summary = "\(checked) year\(checked == 1 ? "" : "s") checked: \(counts[.new] ?? 0) new, "
            + "\(counts[.changed] ?? 0) changed, \(counts[.unchanged] ?? 0) unchanged"
        context.standardOutput(summary + (unpublished.isEmpty ? "" : "; not published yet: " + unpublished.map(String.init).joined(separator: ", ")))
    }
}

extension String {
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
