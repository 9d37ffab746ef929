import CalendarModel
import CalendarStore
import HolidayCalendars

/// What `workday`, `workdays` and `holidays` share: the region, dates, the
/// ordinary week's text form, and the warning about years without data.
enum HolidayOptions {
    /// `--region`, lower-cased; a region needs bundled or imported data.
    static func region(_ parsed: ParsedArguments, store: CalendarStore?, command: String) throws(CommandFailure) -> String {
        let region = parsed[ChimeOptions.region].lowercased()
        if HolidayData.bundledRegions.contains(region) { return region }
        if let store, !(try StoreOptions.run(command) { () throws(StoreError) in try store.importedHolidayYears(region: region) }).isEmpty {
            return region
        }
        throw .data("\(command): --region '\(region)': no workday calendar for it (known: \(HolidayData.bundledRegions.joined(separator: ", ")))")
    }

    /// A date option or argument, read on the machine's wall clock
    /// (`2026-10-01`, `today`, `tomorrow`, `monday`).
    static func date(_ text: String, _ what: String, context: CommandContext, command: String) throws(CommandFailure) -> CivilDate {
        let options = ItemOptions(command: command, now: context.second(),
                                  zone: context.machineTimeZone(), floating: false)
        return AddEventCommand.day(try options.time(text, what), options)
    }

    static func today(_ context: CommandContext) -> CivilDate {
        context.machineTimeZone().localTime(at: context.second()).date
    }

    /// The store's workday calendar for `--region`.
    static func workdayCalendar(_ parsed: ParsedArguments, store: CalendarStore,
                                command: String) throws(CommandFailure) -> WorkdayCalendar {
        let region = try region(parsed, store: store, command: command)
        return try StoreOptions.run(command) { () throws(StoreError) in try store.workdayCalendar(region: region) }
    }

    /// Warns on standard error when answers for `years` fell back to
    /// `calendar`'s ordinary week (years without holiday data); nothing when none did.
    static func warnAboutMissingYears(_ years: [Int], in calendar: WorkdayCalendar, context: CommandContext, command: String) {
        guard !years.isEmpty else { return }
        let list = years.map(String.init).joined(separator: ", ")
        context.standardError("\(command): warning: no \(calendar.region) holiday data for \(list); "
            + "the ordinary week (\(weekText(calendar.ordinaryWeek))) answers instead. "
            + "Once the notice is out, 'chime holidays update' fetches it (or 'chime holidays import FILE').")
    }

    /// `Mon–Fri`, `Sun–Thu`, or a list for weeks that are not a run of days.
    static func weekText(_ week: OrdinaryWeek) -> String {
        let names = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let days = week.workingDays.map(\.rawValue).sorted()
        guard !days.isEmpty else { return "no working days" }
        // A run, possibly wrapping past Saturday (Sun–Thu does not wrap; Sat–Wed does).
        for first in days where !week.workingDays.contains(Weekday(rawValue: (first + 6) % 7)!) {
            let run = (0..<days.count).map { (first + $0) % 7 }
            if Set(run) == Set(days) {
                return days.count == 1 ? names[first] : "\(names[first])–\(names[run.last!])"
            }
        }
        return days.map { names[$0] }.joined(separator: ", ")
    }

    /// `mon-fri`, `sun-thu`, `mon-sat` or a list `MO,TU,WE,TH,FR`.
    static func week(_ text: String) -> OrdinaryWeek? {
        let codes = ["su": Weekday.sunday, "mo": .monday, "tu": .tuesday, "we": .wednesday, "th": .thursday, "fr": .friday, "sa": .saturday]
        func day(_ word: Substring) -> Weekday? { codes[String(word.lowercased().prefix(2))] }
        let lowered = text.lowercased()
        if lowered.contains("-") {
            let ends = lowered.split(separator: "-")
            guard ends.count == 2, let first = day(ends[0]), let last = day(ends[1]) else { return nil }
            var days: Set<Weekday> = [first]
            var current = first
            while current != last {
                current = Weekday(rawValue: (current.rawValue + 1) % 7)!
                days.insert(current)
            }
            return OrdinaryWeek(workingDays: days)
        }
        let words = lowered.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let days = words.compactMap { day(Substring($0)) }
        guard !words.isEmpty, days.count == words.count else { return nil }
        return OrdinaryWeek(workingDays: Set(days))
    }
}
