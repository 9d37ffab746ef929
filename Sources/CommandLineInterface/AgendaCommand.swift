import CalendarModel
import CalendarStore
import Foundation
import HolidayCalendars

/// `chime agenda`: today and tomorrow at a glance.
enum AgendaCommand: Command {
    static let name = "agenda"
    static let abstract = "Show today's and tomorrow's events and the reminders due by then"
    static let syntax = CommandSyntax("chime agenda", options: [ChimeOptions.calendars] + ChimeOptions.store, discussion: """
        The everyday view: the events of today and tomorrow (repeating ones as
        their occurrences), then the reminders not yet completed that are due by
        the end of tomorrow, overdue ones included. With workday rules in use,
        a day that is not what its weekday says (a holiday, a makeup workday,
        leave, a day worked) is said first. On the machine's wall clock:

          Sat 10-10              workday (makeup workday for 国庆节)
          Tue 12-01 08:50–09:00  Stand-up  [3fa2c1d0]
          Wed 12-02 all day      Team offsite  [77b0e2aa]

          Reminders
          Mon 11-30 17:00        Pay rent (overdue)  [c41d9e07]
          Tue 12-01              Buy milk  [0b9a6f3e]
        """, epilogue: StoreOptions.exitStatusHelp)

    static func run(_ arguments: [String], context: CommandContext) throws(CommandFailure) {
        let command = syntax.name
        let (parsed, _, store) = try StoreOptions.start(syntax, arguments, access: .reading, context: context)
        let zone = context.machineTimeZone()
        let now = context.second()
        let today = zone.localTime(at: now).date
        let low = zone.resolve(LocalDateTime(date: today)!).instant
        let high = zone.resolve(LocalDateTime(date: today.adding(days: 2))!).instant
        let range = Date(timeIntervalSince1970: TimeInterval(low))..<Date(timeIntervalSince1970: TimeInterval(high))
        let (calendars, events, stored) = try StoreOptions.run(command) { () throws(StoreError) in
            let chosen = try parsed.all(ChimeOptions.calendars).map { name throws(StoreError) in try store.calendar(named: name).identifier }
            return (try store.calendars(), try store.events(overlapping: range, calendars: chosen),
                    try store.reminders(.incomplete(dueFrom: nil, dueTo: range.upperBound), calendars: chosen))
        }
        let days = try StoreOptions.run(command) { () throws(StoreError) in try notableDays(today, store: store) }
        let shown = try StoreOptions.shown(stored, store: store, now: now, byDue: true, command: command)
        let reminders = shown.map(\.reminder)
        StoreOptions.warnBeyondBound(store, context: context, command: command)
        if parsed[ChimeOptions.json] {
            let json = ItemJSON(machine: zone, calendars: calendars)
            struct Agenda: Encodable {
                var from, to: String
                var days: [WorkdayJSON]
                var events: [ItemJSON.EventObject]
                var reminders: [ItemJSON.ReminderObject]
            }
            StoreOptions.printJSON(Agenda(from: RFC3339.text(low, in: zone), to: RFC3339.text(high, in: zone),
                                          days: days.answers.map { WorkdayJSON($0, region: days.region) }, events: events.map(json.event),
                                          reminders: shown.map { json.reminder($0.reminder, storedDue: $0.storedDue, now: now) }), context: context)
            return
        }
        let text = ItemText(zone: zone, now: now)
        for answer in days.answers {
            context.standardOutput(ItemText.day(answer.date) + String(repeating: " ", count: 14) + answer.description)
        }
        if events.isEmpty && reminders.isEmpty {
            context.standardOutput(days.answers.isEmpty ? "Nothing today or tomorrow." : "No events or reminders today or tomorrow.")
            return
        }
        for event in events { context.standardOutput(text.line(event)) }
        guard !reminders.isEmpty else { return }
        if !events.isEmpty { context.standardOutput("") }
        context.standardOutput("Reminders")
        for reminder in reminders { context.standardOutput(text.line(reminder)) }
    }

    /// Today and tomorrow where either is not what its weekday says: a
    /// holiday, a makeup workday, leave, a day worked. Only with workday
    /// rules in use (whoever has none has no use for China's notices), on
    /// their region's calendar (cn first when several are in use).
    static func notableDays(_ today: CivilDate, store: CalendarStore) throws(StoreError) -> (answers: [WorkdayAnswer], region: String) {
        let regions = try store.workdayRegionsInUse()
        guard let region = regions.contains("cn") ? "cn" : regions.sorted().first else { return ([], "") }
        let calendar = try store.workdayCalendar(region: region)
        let answers = [today, today.adding(days: 1)].map(calendar.answer).filter { answer in
            switch answer.reason {
            case .ordinaryWorkday, .weekend: false
            case .holiday, .makeupWorkday, .leave, .work: true
            }
        }
        return (answers, region)
    }
}
