import CalendarModel
import CalendarStore
import Foundation
import HolidayCalendars
import RecurrenceEngine

/// `chime rrule`: expands a recurrence rule, like `systemd-analyze calendar
/// --iterations` does for timer expressions.
enum RRuleCommand: Command {
    static let name = "rrule"
    static let abstract = "Expand a recurrence rule (RFC 5545 RRULE) into its occurrences"
    static let syntax = CommandSyntax("chime rrule", forms: [.init("RULE")], options: [
        ChimeOptions.start.with(value: "START", help: """
            the first occurrence: a wall-clock time 2026-12-01T08:50:00
            in ZONE, or a date 2026-12-01 for an all-day rule; a time
            with an offset (…+08:00, …Z) is converted to ZONE (default:
            today in ZONE, a date)
            """),
        ChimeOptions.tz.with(help: "an IANA time zone such as Asia/Shanghai (default: the machine's)"),
        count,
        ChimeOptions.after.with(value: "INSTANT", help: """
            print only occurrences strictly after an RFC 3339 instant
            with an offset or Z, e.g. 2027-01-01T00:00:00Z
            """),
        ChimeOptions.exdate.with(value: "DATE", help: "leave out an occurrence (EXDATE); repeatable, or comma-separated"),
        ChimeOptions.rdate,
        ChimeOptions.db.with(help: """
            the store whose holiday data and ordinary week workday rules
            use (default as for every command; when there is no store,
            the bundled data and Mon–Fri)
            """),
    ], discussion: """
        Prints the occurrences of RULE, one per line, in order: RFC 3339 local
        time with the zone's offset (2026-12-01T08:50:00+08:00), or dates alone
        when START is a date. RULE is an RFC 5545 recurrence rule, e.g.
        'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR', with Chime's workday parts
        (X-WORKDAY, X-BREAK, X-REGION) and RFC 7529's RSCALE=CHINESE, leap
        months (BYMONTH=4L) and SKIP, or one of the words or phrases below.
        """, epilogue: """
        Words for RULE:
        \(RuleShorthand.help)

        Phrases for RULE (days of the week may be written out or as mon … sun;
        the time of day comes from START):
        \(RuleShorthand.phraseHelp)
        Any phrase may end in 'until WHEN' ('every day until friday'), read like
        any time against START: a day alone means through its end. Chinese
        phrases say the same: 每天, 每两周, 每个工作日, 每周一三五, 每周一到周五,
        每月1号和15号, 每月最后一个周五, 每年12月24日, with 共10次 or 直到12月31日;
        in the Chinese calendar (1900–2100), 每年农历 (on START's Chinese date),
        每年农历八月十五, 每年农历闰四月初八, 每年除夕, 每月农历初一和十五. A lunar
        day that a month or year may lack (a 30th, a leap month) is kept on the
        day before (SKIP=BACKWARD), as birthdays are.

        The start is the first occurrence of RFC 5545 text, whatever its day; a
        word or a phrase starts on the first of its days on or after START
        ('every monday' from a Wednesday starts on the Monday). A wall time
        that falls into a daylight-saving gap moves forward by the gap's length;
        one that happens twice takes the first.

        Exit status: 0 on success (also when the rule has no occurrences to print),
        64 when the command line is wrong, 65 when the rule, a date or the zone is wrong.
        """)

    static let count = ChimeOptions.count(in: 0...Int.max, help: "how many occurrences to print").defaulting(to: 10, shown: "10")

    static func run(_ arguments: [String], context: CommandContext) throws(CommandFailure) {
        let parsed = try syntax.parse(arguments)
        guard parsed.positionals.count == 1 else {
            throw .usage(parsed.positionals.isEmpty
                ? "chime rrule: missing RULE (see 'chime rrule --help')"
                : "chime rrule: expected one RULE, got \(parsed.positionals.count) arguments; quote the rule")
        }
        let count = parsed[Self.count]
        let zone: TimeZoneRules
        if let name = parsed[ChimeOptions.tz] {
            do { zone = try TimeZoneRules.named(name) } catch { throw .data("chime rrule: --tz: \(error)") }
        } else {
            zone = context.machineTimeZone()
        }
        // The start, read first: a phrase's `until` is read against it.
        var start: ItemTime
        if let startText = parsed[ChimeOptions.start] {
            if let date = CivilDate(parsing: startText) {
                start = .date(date)
            } else if let wall = wallTime(startText, in: zone) {
                start = .zoned(wall, zone: zone.identifier)
            } else {
                throw .data("chime rrule: --start: '\(startText)' is not a date (2026-12-01) or a date and time (2026-12-01T08:50:00)")
            }
        } else {
            // 'chime rrule workdays' asks for the coming days: from today, as dates.
            start = .date(zone.localTime(at: context.second()).date)
        }
        let rule: RecurrenceRule
        do {
            let options = ItemOptions(command: "chime rrule", now: context.second(), zone: zone, floating: false)
            let shift: Int
            (rule, shift) = try RuleShorthand.series(parsed.positionals[0], start: start) { words, first throws(RecurrencePhrase.Refusal) in
                try options.until(words, start: first)
            }
            start = start.adding(days: shift)
        } catch {
            throw .data("chime rrule: \(error)")
        }
        var after: Int64?
        if let text = parsed[ChimeOptions.after] {
            guard let instant = RFC3339.instant(text) else {
                throw .data("chime rrule: --after: '\(text)' is not an RFC 3339 time with an offset or Z, such as 2027-01-01T00:00:00Z")
            }
            after = Int64(instant.rounded(.down))
        }

        let workdays = try workdayCalendar(for: rule, parsed, context: context)
        let recurrence: Recurrence
        switch start {
        case .date(let date):
            let exceptions = try dates(ChimeOptions.exdate, parsed)
            let extras = try dates(ChimeOptions.rdate, parsed)
            do {
                recurrence = try Recurrence(rule: rule, startDate: date, timeZone: zone, exceptionDates: exceptions, extraDates: extras,
                                            workdays: workdays)
            } catch {
                throw .data("chime rrule: \(error)")
            }
        case .zoned(let wall, _, _), .floating(let wall):
            recurrence = Recurrence(rule: rule, start: wall, timeZone: zone,
                                    exceptionDates: try times(ChimeOptions.exdate, parsed, zone),
                                    extraDates: try times(ChimeOptions.rdate, parsed, zone), workdays: workdays)
        }
        guard count > 0 else { return }
        let sequence = after.map { recurrence.occurrences(after: $0) } ?? recurrence.occurrences()
        var years: Set<Int> = []
        var printed = 0
        for occurrence in sequence.prefix(count) {
            context.standardOutput(occurrence.rfc3339)
            years.insert(occurrence.day.year)
            printed += 1
        }
        // The occurrences stop at the expansion bound: say so, as the store's readers do.
        if let problem = recurrence.boundError { context.standardError("chime rrule: \(problem)") }
        if let workdays {
            // Fewer than asked: a rule of makeup workdays or of days after a
            // holiday finds none in a year without data, and the search
            // passed such years without a word: name them up to the year
            // after this one.
            var missing = Set(years.filter { !workdays.hasData(forYear: $0) })
            if printed < count {
                let first = after.map { zone.localTime(at: $0).date.year } ?? start.wallClock.date.year
                let thisYear = HolidayOptions.today(context).year
                missing.formUnion(workdays.missingYears(in: min(first, thisYear + 1)...max(first, thisYear + 1)))
            }
            HolidayOptions.warnAboutMissingYears(missing.sorted(), in: workdays, context: context, command: "chime rrule")
        }
    }

    /// For a workday rule, the calendar it consults: the store's when there
    /// is one (imported years, the ordinary week set), else the bundled data.
    static func workdayCalendar(for rule: RecurrenceRule, _ parsed: ParsedArguments,
                                context: CommandContext) throws(CommandFailure) -> WorkdayCalendar? {
        guard rule.workdayRule != nil else { return nil }
        let region = rule.workdayRegion ?? "cn"
        let path = StoreOptions.path(parsed, context: context)
        if FileManager.default.fileExists(atPath: path) {
            return try StoreOptions.run("chime rrule") { () throws(StoreError) in
                try CalendarStore(path: path, readOnly: true, machineTimeZone: context.machineTimeZone()).workdayCalendar(region: region)
            }
        }
        let bundled: WorkdayCalendar?
        do { bundled = try WorkdayCalendar.bundled(region: region) } catch { throw .data("chime rrule: \(error)") }
        guard let bundled else {
            throw .data("chime rrule: X-REGION=\(region.uppercased()): no holiday data for it (known: "
                        + HolidayData.bundledRegions.map { $0.uppercased() }.joined(separator: ", ") + ")")
        }
        return bundled
    }

    /// A wall-clock time in `zone`: written without an offset, or converted
    /// from one written with an offset.
    static func wallTime(_ text: String, in zone: TimeZoneRules) -> LocalDateTime? {
        if let local = LocalDateTime(parsing: text) { return local }
        guard let instant = RFC3339.instant(text) else { return nil }
        return zone.localTime(at: Int64(instant.rounded(.down)))
    }

    private static func values(_ option: Option<String>, _ parsed: ParsedArguments) -> [String] {
        parsed.all(option).flatMap { $0.split(separator: ",").map(String.init) }
    }

    private static func dates(_ option: Option<String>, _ parsed: ParsedArguments) throws(CommandFailure) -> [CivilDate] {
        var result: [CivilDate] = []
        for text in values(option, parsed) {
            guard let date = CivilDate(parsing: text) else {
                throw .data("chime rrule: \(option.spec.name): '\(text)' is not a date such as 2026-12-01 (the start is a date)")
            }
            result.append(date)
        }
        return result
    }

    private static func times(_ option: Option<String>, _ parsed: ParsedArguments, _ zone: TimeZoneRules) throws(CommandFailure) -> [LocalDateTime] {
        var result: [LocalDateTime] = []
        for text in values(option, parsed) {
            guard let time = wallTime(text, in: zone) else {
                throw .data("chime rrule: \(option.spec.name): '\(text)' is not a date and time such as 2026-12-01T08:50:00")
            }
            result.append(time)
        }
        return result
    }
}
