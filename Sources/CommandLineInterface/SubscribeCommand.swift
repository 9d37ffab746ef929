import CalendarExchange
import CalendarModel
import CalendarStore
import Foundation
import HTTPDownload

/// `chime subscribe`: a read-only calendar filled from a feed on the web.
enum SubscribeCommand: Command {
    static let name = "subscribe"
    static let abstract = "Subscribe to a calendar on the web (a read-only calendar chimed keeps fresh)"
    static let syntax = CommandSyntax("chime subscribe", forms: [.init("URL")], options: [calendarName, every] + ChimeOptions.store,
                                      discussion: """
        Makes a read-only calendar from an iCalendar feed (http, https or
        webcal URL: a holiday calendar, a team's shared calendar, a timetable),
        downloads it once now, and leaves it to chimed to download again every
        --every (and to 'chime refresh' at once). Its items ring like any
        other; editing them is refused. A download asks only for what changed
        (ETag, If-Modified-Since), takes at most \(Downloader.Request.defaultMaximumBodySize >> 20) MiB and a minute, and
        when it fails the calendar keeps its last good copy and chimed tries
        again sooner. 'chime calendar remove --yes' with its name removes it.
        """, epilogue: StoreOptions.exitStatusHelp + "\n69 when the first download fails (nothing is kept).")

    static let calendarName = Option("--name", value: "NAME", help: """
        the calendar's name (default: the name the feed gives itself, else the
        URL's host)
        """)
    static let every = Option("--every", value: "DURATION", help: """
        how often chimed downloads it again: at least 1m, at most 366d
        """, convert: { text in
            (try? DurationExpression(text)).flatMap {
                (Subscription.minimumRefreshInterval...Subscription.maximumRefreshInterval).contains(Int64($0.seconds)) ? Int64($0.seconds) : nil
            }
        }).defaulting(to: 86_400, shown: "1d")

    static var changesStore: Bool { true }

    static func run(_ arguments: [String], context: CommandContext) throws(CommandFailure) {
        let command = syntax.name
        let (parsed, given, address, store) = try StoreOptions.start(syntax, arguments, positionals: ["URL"], access: .writing,
                                                                     context: context) { _, given throws(CommandFailure) in
            do { return try subscriptionHTTPAddress(given[0]) } catch { throw .data("\(command): \(error)") }
        }
        let url = given[0]
        let host = URL(string: address)?.host ?? url
        let title = parsed[calendarName] ?? host
        let now = context.second()
        // The same feed twice would ring each of its alarms twice.
        let existing = try StoreOptions.run(command) { () throws(StoreError) -> ItemCalendar? in
            guard let subscription = try store.subscriptions().first(where: {
                (try? subscriptionHTTPAddress($0.url)) == address
            }) else { return nil }
            return try store.calendar(identifier: subscription.calendarIdentifier)
        }
        if let existing {
            throw .data("\(command): '\(url)' is already subscribed as '\(existing.title)' ('chime refresh \(existing.title)' downloads it again)")
        }
        let outcome = try StoreOptions.run(command) { () throws(StoreError) -> SubscriptionRefresh.Outcome in
            let calendar = ItemCalendar(title: title, kind: .subscribed(url: url), allowsContentModifications: false)
            try store.save(calendar)
            let subscription = Subscription(calendarIdentifier: calendar.identifier, url: url, refreshInterval: parsed[every])
            try store.saveSubscription(subscription)
            var outcome = try SubscriptionRefresh.refresh(subscription, store: store, now: now)
            if outcome.failure != nil {
                try store.removeCalendar(calendar.identifier, removingItems: true)
            } else if parsed[calendarName] == nil, let name = outcome.feedName, name != title,
                      (try? store.calendar(named: name)) == nil {
                var renamed = outcome.calendar
                renamed.title = name
                try store.save(renamed)
                outcome.calendar = renamed
            }
            return outcome
        }
        if let failure = outcome.failure {
            throw CommandFailure(message: "\(command): \(failure); not subscribed", status: ExitStatus.unavailable)
        }
        RefreshCommand.report([outcome], parsed: parsed, context: context)
    }
}
