import AlarmScheduler
import CalendarModel
import CalendarStore
import DaemonControl
import Foundation

/// `chime next`: the coming firings of every alarm in the store, and why.
enum NextCommand: Command {
    static let name = "next"
    static let abstract = "Show the coming alarm firings, and why each rings then"
    static let syntax = CommandSyntax("chime next", options: [count,
                                                            ChimeOptions.after] + ChimeOptions.store, discussion: """
        Prints the next N firings (default 10) of every time-based alarm in the
        store, in order, like `systemd-analyze calendar` does for timers: when,
        the item, the alarm, and why that day: for items on a workday rule a
        workday, a makeup workday for a holiday, the days off passed over; for
        items that repeat by the Chinese calendar the day in it (农历三月初八):

          Mon 09-28 08:50  Clock in  [5d0c7e21]  at the time — workday; skipped 09-25…09-27 (中秋节)

        Reminders ring for their current due time while they are not completed.
        Location alarms ring on arriving or leaving, not at a time, and are not
        listed.
        """, epilogue: StoreOptions.exitStatusHelp)

    static let count = ChimeOptions.count(in: 0...10_000, help: "how many firings, at most 10000").defaulting(to: 10, shown: "10")

    static func run(_ arguments: [String], context: CommandContext) throws(CommandFailure) {
        let command = syntax.name
        let (parsed, _, store) = try StoreOptions.start(syntax, arguments, access: .reading, context: context)
        let count = parsed[Self.count]
        let zone = context.machineTimeZone()
        let now = context.second()
        var after = now
        if let text = parsed[ChimeOptions.after] {
            let options = ItemOptions(command: command, now: now, zone: zone, floating: false)
            after = try options.time(text, "--after").instant(in: zone)
        }
        let firings = try StoreOptions.run(command) { () throws(StoreError) in
            try FiringPlanner(store: store).firings(after: after, count: count)
        }
        StoreOptions.warnBeyondBound(store, context: context, command: command)
        let text = ItemText(zone: zone, now: now)
        if parsed[ChimeOptions.json] {
            // The daemon's `next` answer, less its `ok`.
            StoreOptions.printJSON(["firings": firings.map { NextFiring($0, zone: zone) }], context: context)
            return
        }
        if firings.isEmpty { context.standardOutput("No alarms to come.") }
        for firing in firings {
            let local = zone.localTime(at: firing.instant)
            var line = ItemText.line(day: ItemText.day(local.date), time: ItemText.clock(local), title: firing.title,
                                     identifier: firing.itemIdentifier)
            let allDay = firing.occurrence?.isAllDay == true
            line += "  " + text.alarm(firing.alarm, allDay: allDay)
            if case .relative = firing.alarm.trigger, let occurrence = firing.occurrence, occurrence.instant != firing.instant, !allDay {
                line += " " + ItemText.clock(zone.localTime(at: occurrence.instant))
            }
            if let explanation = firing.explanation { line += " — " + explanation }
            context.standardOutput(line)
        }
    }
}
