import CalendarExchange
import CalendarModel
import CalendarStore
import Foundation

/// `chime refresh`: subscribed calendars downloaded again now.
enum RefreshCommand: Command {
    static let name = "refresh"
    static let abstract = "Download subscribed calendars again now"
    static let syntax = CommandSyntax("chime refresh", forms: [.init("[NAME...]")], options: ChimeOptions.store, discussion: """
        Downloads the named subscribed calendars (default: every one) again
        now, as chimed does on each one's interval, and says what changed.
        The feed is the calendar: what it holds replaces what is stored, and
        what it no longer holds is removed. A feed that cannot be downloaded
        or read, or is cut short, keeps its last good copy; one with a
        component that does not read takes the rest, removes nothing, and
        names what it left out.
        """, epilogue: StoreOptions.exitStatusHelp + "\n69 when a feed could not be refreshed.")

    static var changesStore: Bool { true }

    static func run(_ arguments: [String], context: CommandContext) throws(CommandFailure) {
        let command = syntax.name
        let (parsed, names, store) = try StoreOptions.start(syntax, arguments, positionals: nil, access: .writing, context: context)
        let now = context.second()
        let outcomes = try StoreOptions.run(command) { () throws(StoreError) -> [SubscriptionRefresh.Outcome] in
            var subscriptions = try store.subscriptions()
            if !names.isEmpty {
                let wanted = try names.map { name throws(StoreError) -> ItemIdentifier in
                    let calendar = try store.calendar(named: name)
                    guard subscriptions.contains(where: { $0.calendarIdentifier == calendar.identifier }) else {
                        throw .invalid(ValidationError(field: "calendar", value: name, reason: "is not a subscribed calendar"))
                    }
                    return calendar.identifier
                }
                subscriptions = subscriptions.filter { wanted.contains($0.calendarIdentifier) }
            }
            return try subscriptions.map { subscription throws(StoreError) in
                try SubscriptionRefresh.refresh(subscription, store: store, now: now)
            }
        }
        if outcomes.isEmpty && !parsed[ChimeOptions.json] { context.standardOutput("No subscribed calendars.") }
        report(outcomes, parsed: parsed, context: context)
        let failed = outcomes.filter { $0.failure != nil }
        if !failed.isEmpty {
            // One line each: a message is written as one line, its line breaks escaped.
            for outcome in failed { context.standardError("\(command): '\(outcome.calendar.title)': \(outcome.failure!)") }
            throw CommandFailure(message: "", status: ExitStatus.unavailable)
        }
    }

    /// One line a calendar: what its refresh did.
    static func report(_ outcomes: [SubscriptionRefresh.Outcome], parsed: ParsedArguments, context: CommandContext) {
        struct Line: Encodable {
            var calendar, url, outcome: String
            @Nullable var failure: String?
            var added, updated, removed, unchanged, skipped: Int
            /// The components left out, each with its line, UID and why.
            var leftOut: [String]
        }
        let lines = outcomes.map { outcome -> Line in
            let report = outcome.report ?? ImportReport()
            return Line(calendar: outcome.calendar.title, url: outcome.subscription.url,
                        outcome: outcome.failure != nil ? "failed" : outcome.notModified ? "not-modified" : "fetched",
                        failure: outcome.failure,
                        added: report.added, updated: report.updated, removed: report.removed, unchanged: report.unchanged,
                        skipped: outcome.skipped.count, leftOut: outcome.skipped.map(\.description))
        }
        for line in lines {
            for fault in line.leftOut { context.standardError("\(syntax.name): '\(line.calendar)': left out \(fault)") }
        }
        if parsed[ChimeOptions.json] {
            StoreOptions.printJSON(["refreshed": lines], context: context)
            return
        }
        for line in lines {
            switch line.outcome {
            case "failed": context.standardOutput("\(line.calendar): not refreshed, keeps its last copy: \(line.failure ?? "")")
            case "not-modified": context.standardOutput("\(line.calendar): not changed since the last download")
            default:
                var text = "\(line.calendar): \(line.added) added, \(line.updated) updated, \(line.removed) removed, \(line.unchanged) unchanged"
                if line.skipped > 0 {
                    text += ", \(line.skipped) component\(line.skipped == 1 ? "" : "s") left out (cannot be read; "
                        + "nothing is removed until the feed reads whole)"
                }
                context.standardOutput(text)
            }
        }
    }
}
