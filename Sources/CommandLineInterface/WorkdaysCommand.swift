import CalendarModel
import CalendarStore
import HolidayCalendars

/// `chime workdays --from DATE --to DATE`: the workdays of a range.
enum WorkdaysCommand: Command {
    static let name = "workdays"
    static let abstract = "List the workdays between two dates"
    /// A century: more is a mistake, not a question.
    static let maximumDays = 36_525

    static let syntax = CommandSyntax("chime workdays", options: [
        ChimeOptions.from.with(value: "DATE", help: "the first day").asRequired,
        ChimeOptions.to.with(value: "DATE", help: "the last day, included").asRequired,
        ChimeOptions.region,
    ] + ChimeOptions.store, discussion: """
        Prints every workday from --from to --to, both included, one ISO date per
        line (--json: an array of them). At most \(maximumDays) days at a time.
        """, epilogue: StoreOptions.exitStatusHelp)

    static func run(_ arguments: [String], context: CommandContext) throws(CommandFailure) {
        let command = syntax.name
        let (parsed, _, store) = try StoreOptions.start(syntax, arguments, access: .reading, context: context)
        guard let fromText = parsed[ChimeOptions.from], let toText = parsed[ChimeOptions.to] else {
            throw .usage("\(command): give --from DATE and --to DATE")
        }
        let from = try HolidayOptions.date(fromText, "--from", context: context, command: command)
        let to = try HolidayOptions.date(toText, "--to", context: context, command: command)
        guard from <= to else { throw .data("\(command): --to \(to) is before --from \(from)") }
        guard to.dayNumber - from.dayNumber < maximumDays else {
            throw .data("\(command): \(from) to \(to) is more than \(maximumDays) days; ask for less at a time")
        }
        let calendar = try HolidayOptions.workdayCalendar(parsed, store: store, command: command)
        let days = (from.dayNumber...to.dayNumber).map(CivilDate.init(dayNumber:)).filter(calendar.isWorkday)
        let missing = calendar.missingYears(in: from.year...to.year)
        HolidayOptions.warnAboutMissingYears(missing, in: calendar, context: context, command: command)
        if parsed[ChimeOptions.json] {
            struct Workdays: Encodable {
                var region: String
                var workdays: [String]
                var ordinaryWeekOnly: [Int]
            }
            StoreOptions.printJSON(Workdays(region: calendar.region, workdays: days.map(\.description), ordinaryWeekOnly: missing), context: context)
        } else {
            for day in days { context.standardOutput(day.description) }
        }
    }
}
