import AlarmScheduler
import CalendarModel
import CalendarStore
import Foundation

/// `chime snooze ID [DURATION|WHEN]`: the item's latest firing rings again later.
enum SnoozeCommand: Command {
    /// When a snooze rings: a duration from now, or a time.
    enum Later {
        case after(seconds: Int)
        case at(Int64)
    }

    /// The longest snooze, in seconds.
    static let longest = 7 * 86_400

    static let name = "snooze"
    static let changesStore = true
    static let abstract = "Make an item's latest alarm ring again later (default in 10 minutes)"
    static let syntax = CommandSyntax("chime snooze", forms: [
        .init("ID [DURATION|WHEN]", options: ChimeOptions.store),
        .init("ID", options: [ChimeOptions.dismiss.asRequired] + ChimeOptions.store),
    ], options: [ChimeOptions.dismiss] + ChimeOptions.store, discussion: """
        Snoozes the latest firing of the event or reminder ID (any unique prefix):
        it rings again DURATION from now (default 10m; 30s, 2h, '20 minutes', at
        most 7d) or at a time of day WHEN (9am, 'tomorrow 8:30', 'in an hour').
        Snoozing again moves it; --dismiss drops a pending snooze. The daemon
        picks the change up at once.
        """, epilogue: StoreOptions.exitStatusHelp)

    static func run(_ arguments: [String], context: CommandContext) throws(CommandFailure) {
        let command = "chime snooze"
        let (parsed, _, asked, store) = try StoreOptions.start(syntax, arguments, positionals: nil, access: .writing,
                                                                 context: context) { parsed, given throws(CommandFailure) in
            guard (1...2).contains(given.count) else { throw .usage("\(command): give ID and, optionally, DURATION or WHEN (see '\(command) --help')") }
            if parsed[ChimeOptions.dismiss] && given.count == 2 { throw .usage("\(command): --dismiss takes no DURATION") }
            guard given.count == 2 else { return Later.after(seconds: 600) }
            return try later(given[1], context: context, command: command)
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
        let fireAt: Int64
        switch asked {
        case .after(let seconds): fireAt = from + Int64(seconds)
        case .at(let instant): fireAt = instant
        }
        let snooze = try StoreOptions.run(command) { () throws(StoreError) in try ledger.snooze(delivery.key.description, until: fireAt) }
        if parsed[ChimeOptions.json] {
            StoreOptions.printJSON(["key": snooze.key.description, "at": RFC3339.text(snooze.fireAt, in: zone), "title": snooze.title], context: context)
        } else {
            let local = zone.localTime(at: snooze.fireAt)
            context.standardOutput("'\(snooze.title)' rings again at \(ItemText.day(local.date)) \(ItemText.clock(local))")
        }
    }

    /// `20m` from now, or a time such as `9am` or `tomorrow 8:30`: within
    /// `longest` either way, and a time must be ahead and have a time of day.
    static func later(_ text: String, context: CommandContext, command: String) throws(CommandFailure) -> Later {
        let seconds: Int
        do throws(TimeExpressionError) {
            seconds = try DurationExpression(text).seconds
        } catch {
            return try time(text, notADuration: error, context: context, command: command)
        }
        guard (1...longest).contains(seconds) else { throw .data("\(command): DURATION '\(text)' must be from 1s to 7d") }
        return .after(seconds: seconds)
    }

    /// `later` for text that is no duration (`durationError` says why).
    private static func time(_ text: String, notADuration durationError: TimeExpressionError, context: CommandContext,
                             command: String) throws(CommandFailure) -> Later {
        let now = context.second()
        let zone = context.machineTimeZone()
        guard let time = try? TimeExpression(text, now: now, zone: zone) else {
            throw .data("\(command): '\(text)' is neither a duration nor a time: \(durationError.description); "
                + "a time is 9am, 'tomorrow 8:30' or 'in an hour'")
        }
        if case .date = time.meaning { throw .data("\(command): '\(text)' is a day; give a time of day too, as in 'tomorrow 9am'") }
        let instant = time.instant(in: zone)
        guard instant > now else { throw .data("\(command): '\(text)' is \(RFC3339.text(instant, in: zone)), which has passed") }
        guard instant - now <= Int64(longest) else { throw .data("\(command): '\(text)' is more than 7 days away") }
        return .at(instant)
    }
}
