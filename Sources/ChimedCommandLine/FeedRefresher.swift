import AlarmScheduler
import CalendarExchange
import CalendarModel
import CalendarStore

/// chimed's refresher of subscribed calendars: CalendarExchange's refresh
/// through a store connection of its own, so that a slow download never
/// holds the daemon's queue or its connection.
struct FeedRefresher: SubscriptionRefreshing {
    var machineZone: @Sendable () -> TimeZoneRules

    func refreshDue(storePath: String, now: Int64, log: @Sendable (String) -> Void) {
        do {
            let store = try CalendarStore(path: storePath, creating: false, machineTimeZone: machineZone())
            for subscription in try store.subscriptionsDue(at: now) {
                let outcome = try SubscriptionRefresh.refresh(subscription, store: store, now: now)
                let name = "'\(outcome.calendar.title)'"
                if let failure = outcome.failure {
                    log("chimed: subscription \(name) not refreshed, keeps its last copy: \(failure)")
                } else if outcome.notModified {
                    log("chimed: subscription \(name) not changed")
                } else {
                    let report = outcome.report ?? ImportReport()
                    log("chimed: subscription \(name) refreshed: \(report.added) added, \(report.updated) updated, \(report.removed) removed"
                        + (outcome.skipped.isEmpty ? "" : ", \(outcome.skipped.count) left out, nothing removed"))
                    for fault in outcome.skipped { log("chimed: subscription \(name): left out \(fault)") }
                }
            }
        } catch {
            log("chimed: subscriptions: \(error)")
        }
    }
}
