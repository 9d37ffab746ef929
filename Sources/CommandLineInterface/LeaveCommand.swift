import CalendarModel
import CalendarStore
import HolidayCalendars

/// `chime leave add|remove|list`: the person's days of leave, which workday rules pass over.
enum LeaveCommand: Command {
    static let name = "leave"
    static let changesStore = true
    static let abstract = "Take days of leave, which workday reminders pass over, or list them"
    static let lastDay = ChimeOptions.to.with(value: "DATE", help: "the last day, included (default: DATE alone)")
    static let firstDay = ChimeOptions.from.with(value: "DATE", help: "the first day to list (default: today)")
    static let leaveName = Option("--name", value: "TEXT", help: "what the leave is, as you call it (年假, sick leave)")
    static let syntax = CommandSyntax("chime leave", forms: [
        .init("add DATE", options: [lastDay, leaveName] + ChimeOptions.store),
        .init("remove DATE", options: [lastDay] + ChimeOptions.store),
        .init("list", options: [firstDay, lastDay] + ChimeOptions.store),
    ], options: [firstDay, lastDay, leaveName] + ChimeOptions.store, discussion: """
        add       takes DATE (to --to) as leave: a day off on every workday
                  calendar, so that reminders on a workday rule (a clock-in at
                  08:50 every workday) do not ring then, makeup workdays
                  included. A day already taken gets the new --name, if one
                  is given.
        remove    gives the days of DATE (to --to) back
        list      the days of leave from --from (default today) on, or to --to

        DATE is a date or any WHEN that names a day (2026-12-10, friday, 'dec
        24', 明天, 12月24日). At most \(CalendarStore.leaveSpanLimit) days at a time, in the years
        \(CalendarStore.leaveYears.lowerBound)–\(CalendarStore.leaveYears.upperBound). 'chime workday DATE' says "day off (leave: NAME)".
        """, epilogue: StoreOptions.exitStatusHelp)

    struct Listing: Encodable {
        struct Day: Encodable {
            var date: String
            var name: String
        }
        var action: String
        var days: [Day]
    }

    static func run(_ arguments: [String], context: CommandContext) throws(CommandFailure) {
        let parsed = try syntax.parse(arguments)
        let (action, command, rest) = try parsed.action(of: "chime leave", among: ["add", "remove", "list"]).parts
        if parsed[leaveName] != nil && action != "add" { throw .usage("\(command): --name is for 'chime leave add'") }
        if parsed[ChimeOptions.from] != nil && action != "list" { throw .usage("\(command): --from is for 'chime leave list'; give DATE") }
        let day = { (text: String, what: String) throws(CommandFailure) in try HolidayOptions.date(text, what, context: context, command: command) }
        let days: [LeaveDay]
        switch action {
        case "add", "remove":
            let started = try StoreOptions.start(rest, positionals: ["DATE"], access: .writing, context: context,
                                                 command: command) { parsed, given throws(CommandFailure) in
                let first = try day(given[0], "DATE")
                let last = try parsed[ChimeOptions.to].map { text throws(CommandFailure) in try day(text, "--to") } ?? first
                guard first <= last else { throw .data("\(command): --to \(last) is before \(first)") }
                return first...last
            }
            let range = started.checked
            let store = started.store
            let changed = try StoreOptions.run(command) { () throws(StoreError) -> Int in
                action == "add" ? try store.addLeave(range, name: parsed[leaveName]) : try store.removeLeave(range)
            }
            days = try StoreOptions.run(command) { () throws(StoreError) in try store.leaveDays(in: range) }
            if !parsed[ChimeOptions.json] {
                let span = range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound) to \(range.upperBound)"
                let count = { (n: Int) in n == 1 ? "1 day" : "\(n) days" }
                context.standardOutput(action == "add" ? "leave \(span): \(count(changed)) taken" + (changed < days.count ? ", \(count(days.count - changed)) taken already" : "")
                                                       : "leave \(span): \(count(changed)) given back")
            }
        default:
            let started = try StoreOptions.start(rest, positionals: [], access: .reading, context: context,
                                                 command: command) { parsed, _ throws(CommandFailure) in
                let first = try parsed[ChimeOptions.from].map { text throws(CommandFailure) in try day(text, "--from") } ?? HolidayOptions.today(context)
                let last = try parsed[ChimeOptions.to].map { text throws(CommandFailure) in try day(text, "--to") }
                if let last, last < first { throw .data("\(command): --to \(last) is before --from \(first)") }
                return (first, last)
            }
            let (first, last) = started.checked
            let store = started.store
            days = try StoreOptions.run(command) { () throws(StoreError) in
                try store.leaveDays(in: first...(last ?? CivilDate(year: CalendarStore.leaveYears.upperBound, month: 12, day: 31)!))
            }
            if !parsed[ChimeOptions.json] {
                if days.isEmpty { context.standardOutput("No leave.") }
                for leave in days {
                    context.standardOutput("\(leave.date) \(ItemText.weekdays[leave.date.weekday.rawValue])" + (leave.name.isEmpty ? "" : "  \(leave.name)"))
                }
            }
        }
        if parsed[ChimeOptions.json] {
            StoreOptions.printJSON(Listing(action: action, days: days.map { Listing.Day(date: $0.date.description, name: $0.name) }),
                                   context: context)
        }
    }
}
