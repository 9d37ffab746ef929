import CalendarStore

/// What fetches missing holiday data for the daemon (chimed's command line
/// gives one built on CalendarExchange's `HolidayFeed`): the daemon only
/// says which years, so that the scheduler never links a downloader.
public protocol HolidayRefreshing: Sendable {
    /// Fetches `years` of `region` from the source the store at `storePath`
    /// names, through a connection of its own, and imports those published.
    /// Returns what the import did (nothing for a region or a source it does
    /// not fetch for, or a year not published yet); nil when the source could
    /// not be read, so that the daemon tries again before the next day. Runs
    /// off the daemon's queue: a download may take a while.
    func fetch(years: [Int], region: String, storePath: String, log: @Sendable (String) -> Void) -> [CalendarStore.HolidayYearChange]?
}
