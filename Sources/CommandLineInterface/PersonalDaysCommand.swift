import CalendarModel
import CalendarStore
import HolidayCalendars

/// A command that keeps one kind of the person's own days (`chime leave`,
/// `chime work`): its `days` say everything but its abstract.
protocol KeepsPersonalDays: Command {
    static var days: PersonalDaysCommand { get }
}

extension KeepsPersonalDays {
    static var name: String { days.noun }
    static var syntax: CommandSyntax { days.syntax }
    static var changesStore: Bool { true }

    static func run(_ arguments: [String], context: CommandContext) throws(CommandFailure) {
        try days.run(arguments, context: context)
    }
}

/// What `chime leave` and `chime work` share: each keeps one kind of the
/// person's own days, added, given back and listed the same way.
struct PersonalDaysCommand {
    let kind: PersonalDay.Kind
    /// The command's name, which starts each line of output: `leave`, `work`.
    let noun: String
    /// How a day added is said: `taken`, `added`.
    let added: String
    /// How a day removed is said: `given back`, `removed`.
    let removed: String
    /// `list` with nothing to list.
    let none: String
    let name: Option<String>
    let syntax: CommandSyntax

    static let lastDay = ChimeOptions.to.with(value: "DATE", help: "the last day, included (default: DATE alone)")
    static let firstDay = ChimeOptions.from.with(value: "DATE", help: "the first day to list (default: today)")
    static let half = Option<DayHalf>("--half", value: "HALF", help: "morning (上午, to 12:00) or afternoon (下午): that half of each day only",
                                      expected: "morning or afternoon (上午, 下午)", convert: { text in
        DayHalf(rawValue: text.lowercased()) ?? ["上午": .morning, "下午": .afternoon][text]
    })

    /// `actions`: the discussion's paragraph on add, remove and list;
    /// `answer`: what `chime workday` says of such a day.
    init(_ noun: String, kind: PersonalDay.Kind, added: String, removed: String, none: String,
         name: Option<String>, actions: String, answer: String) {
        (self.kind, self.noun, self.added, self.removed, self.none, self.name) = (kind, noun, added, removed, none, name)
        let allowance: [CommandSyntax.Form] = kind == .leave ? [.init("allowance [DAYS]", options: ChimeOptions.store)] : []
        syntax = CommandSyntax("chime " + noun, forms: [
            .init("add DATE", options: [Self.lastDay, Self.half, name] + ChimeOptions.store),
            .init("remove DATE", options: [Self.lastDay] + ChimeOptions.store),
            .init("list", options: [Self.firstDay, Self.lastDay] + ChimeOptions.store),
        ] + allowance, options: [Self.firstDay, Self.lastDay, Self.half, name] + ChimeOptions.store, discussion: """
            \(actions)

            DATE is a date or any WHEN that names a day (2026-12-10, friday, 'dec
            24', 明天, 12月24日). At most \(CalendarStore.personalDaySpanLimit) days at a time, in the years
            \(CalendarStore.personalDayYears.lowerBound)–\(CalendarStore.personalDayYears.upperBound). A date is a day of leave or a day worked, not both:
            adding it as one takes it from the other. With --half, each day is
            that half only, and the other half is what the calendar says; a
            day given again takes the new half, or the whole day without
            --half. Reminders are judged by the half their time is in (the
            morning to 12:00 included, or the end 'chime holidays morning'
            sets), all-day ones by the whole day.

            'chime workday DATE' then says "\(answer)".
            """, epilogue: StoreOptions.exitStatusHelp)
    }

    struct Listing: Encodable {
        struct Day: Encodable {
            var date: String
            var name: String
            /// `morning` or `afternoon`; left out for a whole day.
            var half: String?
        }
        var action: String
        var days: [Day]
        /// Of leave (add and list): how many of the days (a half day
        /// counting half) the calendar has as workdays, the person's own
        /// days aside.
        var workdaysOfLeave: Double?
        /// Of work: how many of them it has off.
        var daysOffWorked: Double?
        /// Of leave added with an allowance set: each year the days fall in, how much is left.
        var balances: [Balance]?
    }

    /// A year's leave against the allowance (`chime leave allowance`).
    struct Balance: Encodable {
        var year: Int
        /// Nil when none is set.
        var allowance: Double?
        /// Workdays of leave taken in the year, halves counting half.
        var taken: Double
        /// `allowance - taken`: below 0 when more was taken.
        var left: Double?

        /// `2026: 7 of 10 left`, `2026: 1.5 over the 10`.
        var text: String {
            guard let allowance, let left else { return "\(year): \(Alarm.numberText(taken)) workdays of leave taken" }
            return "\(year): " + (left >= 0 ? "\(Alarm.numberText(left)) of \(Alarm.numberText(allowance)) left"
                                   : "\(Alarm.numberText(-left)) over the \(Alarm.numberText(allowance))")
        }
    }

    /// The leave of `year` against the store's allowance.
    static func balance(_ year: Int, store: CalendarStore, calendar: WorkdayCalendar, command: String) throws(CommandFailure) -> Balance {
        let (allowance, days) = try StoreOptions.run(command) { () throws(StoreError) in
            (try store.leaveAllowance(),
             try store.personalDays(in: CivilDate(year: year, month: 1, day: 1)!...CivilDate(year: year, month: 12, day: 31)!, kinds: [.leave]))
        }
        let taken = counted(days, calendar: calendar)
        return Balance(year: year, allowance: allowance, taken: taken, left: allowance.map { $0 - taken })
    }

    /// How much of `days` counts against leave (their workdays) or as work
    /// on days off, by the calendar without the person's own days; half
    /// days count half.
    static func counted(_ days: [PersonalDay], calendar: WorkdayCalendar) -> Double {
        let plain = calendar.withoutPersonalDays()
        return days.reduce(0) { sum, day in
            plain.isWorkday(day.date) == (day.kind == .leave) ? sum + (day.half == nil ? 1 : 0.5) : sum
        }
    }

    /// `1 day`, `3 days`.
    static func dayCount(_ count: Int) -> String { count == 1 ? "1 day" : "\(count) days" }

    /// `3 workdays of leave`, `1 workday of leave`, `half a day off worked`, `no workday of leave`.
    func countedText(_ amount: Double) -> String {
        let (one, many, what) = kind == .leave ? ("workday", "workdays", "of leave") : ("day off", "days off", "worked")
        let number: String = switch amount {
        case 0: "no \(one)"
        case 0.5: "half a \(one)"
        case 1: "1 \(one)"
        default: (amount.rounded() == amount ? String(Int(amount)) : String(amount)) + " " + many
        }
        return number + " " + what
    }

    func run(_ arguments: [String], context: CommandContext) throws(CommandFailure) {
        let parsed = try syntax.parse(arguments)
        let (action, command, rest) = try parsed.action(of: syntax.name, among: ["add", "remove", "list"] + (kind == .leave ? ["allowance"] : [])).parts
        if parsed[name] != nil && action != "add" { throw .usage("\(command): --name is for '\(syntax.name) add'") }
        if parsed[Self.half] != nil && action != "add" { throw .usage("\(command): --half is for '\(syntax.name) add'") }
        if parsed[ChimeOptions.from] != nil && action != "list" { throw .usage("\(command): --from is for '\(syntax.name) list'; give DATE") }
        let day = { (text: String, what: String) throws(CommandFailure) in try HolidayOptions.date(text, what, context: context, command: command) }
        let days: [PersonalDay]
        var counted: Double?
        var balances: [Balance]?
        switch action {
        case "allowance":
            return try allowance(rest, context: context, command: command)
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
            let changed = try StoreOptions.run(command) { [kind, name] () throws(StoreError) -> Int in
                action == "add" ? try store.addPersonalDays(range, kind: kind, half: parsed[Self.half], name: parsed[name])
                    : try store.removePersonalDays(range, kind: kind)
            }
            days = try StoreOptions.run(command) { [kind] () throws(StoreError) in try store.personalDays(in: range, kinds: [kind]) }
            if action == "add" {
                let calendar = try StoreOptions.run(command) { () throws(StoreError) in try store.workdayCalendar() }
                counted = Self.counted(days, calendar: calendar)
                if kind == .leave, try StoreOptions.run(command, { () throws(StoreError) in try store.leaveAllowance() }) != nil {
                    balances = try (range.lowerBound.year...range.upperBound.year).map { year throws(CommandFailure) in
                        try Self.balance(year, store: store, calendar: calendar, command: command)
                    }
                }
            }
            if !parsed[ChimeOptions.json] {
                let span = (range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound) to \(range.upperBound)")
                    + (parsed[Self.half].map { " (\($0))" } ?? "")
                let count = Self.dayCount
                context.standardOutput(action == "add"
                    ? "\(noun) \(span): \(count(changed)) \(added)" + (changed < days.count ? ", \(count(days.count - changed)) \(added) already" : "")
                        + " (\(countedText(counted ?? 0))" + (balances.map { "; " + $0.map(\.text).joined(separator: ", ") } ?? "") + ")"
                    : "\(noun) \(span): \(count(changed)) \(removed)")
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
            let end = last ?? CivilDate(year: CalendarStore.personalDayYears.upperBound, month: 12, day: 31)!
            days = try StoreOptions.run(command) { [kind] () throws(StoreError) in try store.personalDays(in: first...end, kinds: [kind]) }
            if !days.isEmpty {
                counted = Self.counted(days, calendar: try StoreOptions.run(command) { () throws(StoreError) in try store.workdayCalendar() })
            }
            if !parsed[ChimeOptions.json] {
                if days.isEmpty { context.standardOutput(none) }
                for personal in days {
                    context.standardOutput("\(personal.date) \(ItemText.weekdays[personal.date.weekday.rawValue])"
                        + (personal.half.map { " (\($0))" } ?? "") + (personal.name.isEmpty ? "" : "  \(personal.name)"))
                }
                // What a year's leave came to, say: `--from 2026-01-01 --to 2026-12-31`.
                if let counted { context.standardOutput("in all: \(Self.dayCount(days.count)), \(countedText(counted))") }
            }
        }
        if parsed[ChimeOptions.json] {
            StoreOptions.printJSON(Listing(action: action, days: days.map { Listing.Day(date: $0.date.description, name: $0.name, half: $0.half?.rawValue) },
                                           workdaysOfLeave: kind == .leave ? counted : nil, daysOffWorked: kind == .work ? counted : nil,
                                           balances: balances),
                                   context: context)
        }
    }

    /// `chime leave allowance [DAYS|none]`: shows or sets the workdays of
    /// leave a year allows, with this year's balance.
    func allowance(_ parsed: ParsedArguments, context: CommandContext, command: String) throws(CommandFailure) {
        let (_, change, store) = try StoreOptions.start(parsed, positionals: nil, access: parsed.positionals.isEmpty ? .reading : .writing,
                                                        context: context, command: command) { _, given throws(CommandFailure) -> Double?? in
            guard given.count <= 1 else { throw .usage("\(command): one DAYS at most (see '\(syntax.name) --help')") }
            guard let text = given.first else { return nil }
            if text.lowercased() == "none" { return .some(nil) }
            guard let days = DecimalNumber.value(text[...]), (0...366).contains(days), (days * 2).rounded() == days * 2 else {
                throw .data("\(command): '\(text)' is not a number of days from 0 to 366, in halves (10, 5.5), or none")
            }
            return .some(days)
        }
        if let change { try StoreOptions.run(command) { () throws(StoreError) in try store.setLeaveAllowance(change) } }
        let calendar = try StoreOptions.run(command) { () throws(StoreError) in try store.workdayCalendar() }
        let balance = try Self.balance(HolidayOptions.today(context).year, store: store, calendar: calendar, command: command)
        if parsed[ChimeOptions.json] {
            StoreOptions.printJSON(balance, context: context)
        } else if let allowance = balance.allowance {
            context.standardOutput("annual leave: \(Alarm.numberText(allowance)) workdays a year; \(balance.text) (\(Alarm.numberText(balance.taken)) taken)")
        } else {
            context.standardOutput("no annual leave allowance set ('\(syntax.name) allowance DAYS' sets one); \(balance.text)")
        }
    }
}
