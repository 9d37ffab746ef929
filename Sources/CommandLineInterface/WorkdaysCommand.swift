import CalendarModel
import CalendarStore
import HolidayCalendars

/// `chime workdays --from DATE --to DATE`: the workdays of a range.
enum WorkdaysCommand: Command {
    static let name = "workdays"
    static let abstract = "List the workdays between two dates"
    static let help = """
    usage: chime workdays --from DATE --to DATE [--region CODE] [--db PATH] [--json]

    Prints every workday from --from to --to, both included, one ISO date per
    line (--json: an array of them). At most \(maximumDays) days at a time.

    \(HolidayOptions.regionHelp)
    \(StoreOptions.helpFooter)

    \(StoreOptions.exitStatusHelp)
    """

    /// A century: more is a mistake, not a question.
    static let maximumDays = 36_525

    static let parser = ArgumentParser(command: "chime workdays", options: HolidayOptions.options + [
        .init(name: "--from", takesValue: true),
        .init(name: "--to", takesValue: true),
    ])

    static func run(_ arguments: [String], context: CommandContext) throws(CommandFailure) {
        let command = "chime workdays"
        let parsed = try parser.parse(arguments)
        _ = try StoreOptions.positionals(parsed, [], command: command)
        guard let fromText = parsed.value("--from"), let toText = parsed.value("--to") else {
            throw .usage("\(command): give --from DATE and --to DATE")
        }
        let from = try HolidayOptions.date(fromText, "--from", context: context, command: command)
        let to = try HolidayOptions.date(toText, "--to", context: context, command: command)
        guard from <= to else { throw .data("\(command): --to \(to) is before --from \(from)") }
        guard to.dayNumber - from.dayNumber < maximumDays else {
            throw .data("\(command): \(from) to \(to) is more than \(maximumDays) days; ask for less at a time")
        }
        let store = try StoreOptions.openForReading(parsed, context: context, command: command)
        let region = try HolidayOptions.region(parsed, store: store, command: command)
        let calendar = try StoreOptions.run(command) { () throws(StoreError) in try store.workdayCalendar(region: region) }
        let days = (from.dayNumber...to.dayNumber).map(CivilDate.init(dayNumber:)).filter(calendar.isWorkday)
        let missing = calendar.missingYears(in: from.year...to.year)
        if let warning = HolidayOptions.missingYearsWarning(missing, region: region, week: calendar.ordinaryWeek, command: command) {
            context.standardError(warning)
        }
        if parsed.has("--json") {
            struct Workdays: Encodable {
                var region: String
                var workdays: [String]
                var ordinaryWeekOnly: [Int]
            }
            StoreOptions.printJSON(Workdays(region: region, workdays: days.map(\.description), ordinaryWeekOnly: missing), context: context)
        } else {
            for day in days { context.standardOutput(day.description) }
        }
    }
}
