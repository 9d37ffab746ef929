/// What refreshes subscribed calendars for the daemon (CalendarExchange's
/// `SubscriptionRefresh`, given by chimed's command line): the daemon only
/// says when, so that the scheduler never links a downloader.
public protocol SubscriptionRefreshing: Sendable {
    /// Refreshes every subscription of the store at `storePath` that is due
    /// at `now` (Unix seconds), through a connection of its own, and says
    /// each outcome in `log`. Runs off the daemon's queue: a download may take a minute.
    func refreshDue(storePath: String, now: Int64, log: @Sendable (String) -> Void)
}
