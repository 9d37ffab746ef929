import AlarmScheduler
import CalendarModel
import CalendarStore
import Foundation

/// `chime missed`: the firings that came due while nothing was watching.
enum MissedCommand: Command {
    static let name = "missed"
    static let abstract = "List alarms that came due while the daemon was down or the machine asleep"
    static let syntax = CommandSyntax("chime missed", options: [count]
                                      + ChimeOptions.store, discussion: """
        Lists, newest first, the firings the scheduler passed over (missed) or
        showed after their time (late): when each was due, the item, and what
        became of it. Per alarm, only the latest firing missed within a few
        hours is shown late; the rest are only recorded here. An occurrence of
        a repeating reminder not completed before the next one came due is
        listed once as not done: the reminder moved on, and rings for the next.
        """, epilogue: StoreOptions.exitStatusHelp)

    static let count = ChimeOptions.count(in: 1...10_000, help: "how many, at most 10000").defaulting(to: 20, shown: "20")

    static func run(_ arguments: [String], context: CommandContext) throws(CommandFailure) {
        let (parsed, _, store) = try StoreOptions.start(syntax, arguments, access: .reading, context: context)
        let count = parsed[Self.count]
        let now = context.second()
        let missed = try StoreOptions.run(syntax.name) { () throws(StoreError) in
            // With the occurrences of repeating reminders passed over while not done.
            let logged = try AlarmLedger(store: store).deliveries(outcomes: [.missed, .late, .interrupted], limit: count)
            let open = try store.occurrencesNotDone(through: now, limit: count).map { AlarmLedger.Delivery($0, recordedAt: now) }
            return Array((logged + open).sorted { $0.due != $1.due ? $0.due > $1.due : $0.key < $1.key }.prefix(count))
        }
        let zone = context.machineTimeZone()
        if parsed[ChimeOptions.json] {
            struct Missed: Encodable {
                var due, item, alarm, title, outcome, key: String
            }
            let list = missed.map {
                Missed(due: RFC3339.text($0.due, in: zone), item: $0.item.rawValue, alarm: $0.alarm.rawValue, title: $0.title,
                       outcome: $0.isNotDone ? "not-done" : $0.outcome.rawValue, key: $0.key.description)
            }
            StoreOptions.printJSON(["missed": list], context: context)
            return
        }
        if missed.isEmpty { context.standardOutput("Nothing missed.") }
        for delivery in missed {
            let local = zone.localTime(at: delivery.due)
            var outcome = switch delivery.outcome {
            case .late: "shown late"
            case .interrupted: "interrupted while shown"
            default: "missed"
            }
            if delivery.isNotDone { outcome = "not done (the reminder moved on)" }
            context.standardOutput(ItemText.line(day: ItemText.day(local.date), time: ItemText.clock(local), title: delivery.title,
                                                 identifier: delivery.item) + "  \(outcome)")
        }
    }
}
