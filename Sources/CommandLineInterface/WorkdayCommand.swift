import CalendarModel
import CalendarStore
import HolidayCalendars

/// `chime workday [DATE]`: is this a working day, and why.
enum WorkdayCommand: Command {
    static let name = "workday"
    static let abstract = "Say whether a date is a workday, and why (exit 0 workday, 1 day off)"
    static let syntax = CommandSyntax("chime workday", forms: [.init("[DATE]")], options: [ChimeOptions.region] + ChimeOptions.store,
                                      discussion: """
        Prints whether DATE (default today) is a workday or a day off, with the
        reason: an ordinary workday, the weekend, a holiday's name, a makeup
        workday (调休补班) for a holiday, or a day of your own ('chime leave',
        'chime work'). Exits 0 on a workday and 1 on a day off, so that scripts
        can write `chime workday && …`.

        A year without holiday data is answered by the ordinary week, with a
        warning that names the year and the command that fetches it.
        """, epilogue: """
        Exit status: 0 workday; 1 day off; 64 when the command line is wrong; 65
        when the date or region is wrong; 74 when the store cannot be read.
        """)

    static func run(_ arguments: [String], context: CommandContext) throws(CommandFailure) {
        let command = "chime workday"
        let (parsed, _, date, store) = try StoreOptions.start(syntax, arguments, positionals: nil, access: .reading,
                                                              context: context) { _, given throws(CommandFailure) in
            guard given.count <= 1 else { throw .usage("\(command): one DATE at most (see '\(command) --help')") }
            return try given.first.map { text throws(CommandFailure) in
                try HolidayOptions.date(text, "DATE", context: context, command: command)
            } ?? HolidayOptions.today(context)
        }
        let calendar = try HolidayOptions.workdayCalendar(parsed, store: store, command: command)
        let answer = calendar.answer(on: date)
        HolidayOptions.warnAboutMissingYears(answer.missingYear.map { [$0] } ?? [], in: calendar, context: context, command: command)
        if parsed[ChimeOptions.json] {
            StoreOptions.printJSON(WorkdayJSON(answer, region: calendar.region), context: context)
        } else {
            context.standardOutput("\(date) \(ItemText.weekdays[date.weekday.rawValue]): \(answer.isWorkday ? "workday" : "day off") (\(answer.reason))")
        }
        if !answer.isWorkday { throw CommandFailure(message: "", status: ExitStatus.dayOff) }
    }
}
