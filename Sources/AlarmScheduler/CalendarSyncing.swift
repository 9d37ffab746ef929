/// What syncs the store's CalDAV accounts for the daemon (CalDAVSync's
/// `AccountSync`, given by chimed's command line): the daemon only says
/// when, so that the scheduler never links an HTTP client.
public protocol CalendarSyncing: Sendable {
    /// Syncs every collection of every account of the store at `storePath`,
    /// through a connection of its own, and says each outcome in `log`.
    /// Runs off the daemon's queue: a sync may take a minute.
    func syncAccounts(storePath: String, log: @Sendable (String) -> Void) -> CalendarSyncResult
}

/// What the daemon needs to know of a sync that ended.
public struct CalendarSyncResult: Sendable, Equatable {
    /// Whether the store has any collection to sync: a daemon without
    /// accounts sets no interval timer.
    public var hasAccounts: Bool
    /// The store's change counter as the sync's own connection read it
    /// after its last write (nil: not read), so that the daemon tells the
    /// sync's writes from later ones; its own connection may still read
    /// the counter from before them for a moment.
    public var changeCounter: Int64?
    /// Local versions this sync kept aside because the server's copy had
    /// changed too (412): the person is told, once, by a notice.
    public var conflicts: Int
    /// The calendars (titles) that the server suddenly lists as empty and
    /// that the sync kept whole until the person confirms.
    public var keptEmpty: [String]

    public init(hasAccounts: Bool, changeCounter: Int64?, conflicts: Int = 0, keptEmpty: [String] = []) {
        self.hasAccounts = hasAccounts
        self.changeCounter = changeCounter
        self.conflicts = conflicts
        self.keptEmpty = keptEmpty
    }
}
