import AlarmScheduler
import CalendarModel
import CalendarStore
import Foundation

/// `chime snooze ID [DURATION]`: the item's latest firing rings again later.
enum SnoozeCommand: Command {
    static let name = "snooze"
    static let changesStore = true
    static let abstract = "Make an item's latest alarm ring again later (default in 10 minutes)"
    static let syntax = CommandSyntax("chime snooze", forms: [
        .init("ID [DURATION]", options: ChimeOptions.store),
        .init("ID", options: [ChimeOptions.dismiss.asRequired] + ChimeOptions.store),
    ], options: [ChimeOptions.dismiss] + ChimeOptions.store, discussion: """
        Snoozes the latest firing of the event or reminder ID (any unique prefix):
        it rings again DURATION from now (default 10m; 30s, 2h, 1d…, at most 7d).
        Snoozing again moves it; --dismiss drops a pending snooze. The daemon
        picks the change up at once.
        """, epilogue: StoreOptions.exitStatusHelp)

    static func run(_ arguments: [String], context: CommandContext) throws(CommandFailure) {
        let command = "chime snooze"
        let (parsed, _, seconds, store) = try StoreOptions.start(syntax, arguments, positionals: nil, access: .writing,
                                                                 context: context) { parsed, given throws(CommandFailure) in
            guard (1...2).contains(given.count) else { throw .usage("\(command): give ID and, optionally, DURATION (see '\(command) --help')") }
            if parsed[ChimeOptions.dismiss] && given.count == 2 { throw .usage("\(command): --dismiss takes no DURATION") }
            guard given.count == 2 else { return 600 }
            let seconds: Int
            do { seconds = try DurationExpression(given[1]).seconds } catch {
                throw .data("\(command): DURATION: \(error)")
            }
            guard (1...7 * 86_400).contains(seconds) else { throw .data("\(command): DURATION '\(given[1])' must be from 1s to 7d") }
            return seconds
        }
        let ledger = try StoreOptions.run(command) { () throws(StoreError) in try AlarmLedger(store: store) }
        let item = try StoreOptions.run(command) { () throws(StoreError) in try store.itemIdentifier(matching: parsed.positionals[0]) }
        guard let delivery = try StoreOptions.run(command, { () throws(StoreError) in try ledger.latestDelivery(of: item) }) else {
            throw .notFound("\(command): '\(parsed.positionals[0])' has not rung yet; nothing to snooze")
        }
        let zone = context.machineTimeZone()
        if parsed[ChimeOptions.dismiss] {
            let dropped = try StoreOptions.run(command) { () throws(StoreError) in try ledger.dismiss(delivery.key.description) }
            if parsed[ChimeOptions.json] {
                struct Dismissal: Encodable {
                    var key: String
                    var dropped: Int
                }
                StoreOptions.printJSON(Dismissal(key: delivery.key.description, dropped: dropped), context: context)
            } else {
                context.standardOutput(dropped == 0 ? "no snooze of '\(delivery.title)' to drop" : "dismissed '\(delivery.title)'")
            }
            return
        }
        // From the next whole second, so that it never rings sooner than asked.
        let from = Int64(context.now().timeIntervalSince1970.rounded(.up))
        let snooze = try StoreOptions.run(command) { () throws(StoreError) in try ledger.snooze(delivery.key.description, for: Int64(seconds), from: from) }
        if parsed[ChimeOptions.json] {
            StoreOptions.printJSON(["key": snooze.key.description, "at": RFC3339.text(snooze.fireAt, in: zone), "title": snooze.title], context: context)
        } else {
            let local = zone.localTime(at: snooze.fireAt)
            context.standardOutput("'\(snooze.title)' rings again at \(ItemText.day(local.date)) \(ItemText.clock(local))")
        }
    }
}
