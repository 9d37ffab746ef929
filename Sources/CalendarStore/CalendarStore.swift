import CalendarModel
import Foundation
import HolidayCalendars
import RecurrenceEngine
import SQLiteDatabase

/// Chime's calendars, events and reminders in one SQLite file: EventKit's
/// `EKEventStore`, with batching (`commit: false`, then `commit()` or
/// `reset()`), spans for recurring events, and a change counter another
/// process can watch.
///
/// One store object belongs to one thread or serial queue at a time.
/// Several processes may open the same file: SQLite's WAL and a busy
/// timeout let them take turns, and every change commits in one transaction.
public final class CalendarStore {
    public let path: String
    /// The connection, which the scheduler's ledger (AlarmScheduler) shares:
    /// its tables live in the same file, under migrations of their own.
    package let database: Database
    /// Floating times and all-day dates are read on this zone's wall clock.
    /// Set when the machine's zone changes: nothing read is cached by zone,
    /// so the store stays open across the change.
    public var machineTimeZone: TimeZoneRules
    /// Changes saved with `commit: false`, applied in order by `commit()`.
    private var pending: [(Database) throws -> Void] = []
    /// Calendars looked up while a batch is pending.
    private var batchCalendars: [ItemIdentifier: ItemCalendar] = [:]
    /// How many calendars are read-only, counted once while a batch is pending.
    private var batchReadOnlyCount: Int?
    /// Inside `asSource`: writes come from the calendars' own source.
    private var writingAsSource = false
    // `parsedRules` and `recentZone` are read for every row of a range
    // query. The store is not Sendable (one thread at a time) and no access
    // to them overlaps another, so the runtime's exclusivity check of each
    // access (1 % of a week's query, callgrind) is left out.
    /// Rules parsed from their stored text, by the text.
    @exclusivity(unchecked) var parsedRules: [String: RecurrenceRule] = [:]
    /// Rules compiled for the times of day their series start at.
    let recurrencePlans = RecurrencePlanCache()
    /// Workday calendars by region, with the change counter they were built at.
    var workdayCalendars: [String: (counter: Int64, calendar: WorkdayCalendar)] = [:]
    /// How many events the last range query returned.
    var lastQueryCount = 0
    /// The zone `zone(of:)` found last.
    @exclusivity(unchecked) var recentZone: TimeZoneRules?
    /// Series that reads met past the expansion bound, with the reason, and
    /// those already handed out (`takeItemsBeyondBound()`).
    var beyondBound: [ItemIdentifier: String] = [:]
    var beyondBoundTaken: Set<ItemIdentifier> = []
    /// What an `importTransaction` keeps for the whole import while it runs.
    var importState: ImportState?
    /// The clock the store reads for completion dates; tests pass their own.
    package let now: @Sendable () -> Date
    /// Opened without ever writing: nothing, the ledger's migrations included, may write.
    package let isReadOnly: Bool
    /// Being made (see `init`'s `building`): no other connection may rely
    /// on reading it while it is written.
    package let isBuilding: Bool

    public static let defaultCalendarTitle = "Personal"

    /// Opens the store at `path`, creating it (folder 0700, file 0600) and
    /// migrating its schema as needed. `readOnly` opens an existing store
    /// without ever writing to it; `creating: false` opens an existing one
    /// for writing, and refuses when there is none (a background writer of
    /// a daemon whose store was removed must not put an empty one in its
    /// place, whose WAL a store renamed there next would be read with).
    /// A store made now starts with
    /// `defaultCalendar` (by default a new one titled `defaultCalendarTitle`)
    /// as the default for events and reminders (a calendar planned for
    /// before the store was made).
    ///
    /// `building`: a store made at a path nothing else knows yet, that its
    /// maker throws away when anything fails and puts in place only once
    /// whole and closed, after syncing the file (SystemCalls' `DiskSync`;
    /// as `chime import` makes a first store). It is written with its rollback journal in memory and
    /// commits that do not wait for the disk: no page goes through a WAL and
    /// is copied again at a checkpoint, and SQLite does not rewrite the
    /// checksums of every WAL frame after the first one a large transaction
    /// overwrote. A 10,000-event `chime import` into a new store went from
    /// a median of 191 to 173 ms, the final sync included. Its next opening makes it WAL like any
    /// store. While a transaction that spilled pages is open, another
    /// connection cannot read it at all.
    public init(path: String, readOnly: Bool = false, creating: Bool = true, machineTimeZone: TimeZoneRules = .current(),
                now: @escaping @Sendable () -> Date = { Date() }, defaultCalendar: ItemCalendar? = nil, building: Bool = false) throws(StoreError) {
        precondition(!building || (creating && !readOnly), "CalendarStore: only a store made for writing is built")
        self.path = path
        self.machineTimeZone = machineTimeZone
        self.now = now
        self.isReadOnly = readOnly
        self.isBuilding = building
        if !creating && !FileManager.default.fileExists(atPath: path) { throw .unusable(path: path, reason: "there is no store there") }
        do {
            if readOnly {
                database = try Database(path: path, options: .readOnly)
            } else {
                if creating { try Database.createParentDirectory(of: path, permissions: 0o700) }
                database = try Database(path: path, options: DatabaseOptions(access: creating ? .readWriteCreate : .readWrite,
                                                                             journalMode: building ? .memory : .wal, filePermissions: 0o600,
                                                                             syncsCommits: !building))
                // SQLite's default 2 MB page cache spills a large batch to the
                // WAL page by page before it commits; 32 MB is allocated only
                // as used.
                try database.execute("PRAGMA cache_size = -131072")
                _ = try Self.migrator.migrate(database)
                try ensureDefaultCalendar(defaultCalendar ?? ItemCalendar(title: Self.defaultCalendarTitle))
            }
        } catch let error as DatabaseError {
            throw .database(error)
        } catch {
            throw .unusable(path: path, reason: "\(error)")
        }
    }

    // MARK: Batching

    /// Applies everything saved or removed with `commit: false`, in one transaction.
    public func commit() throws(StoreError) {
        let work = pending
        pending = []
        try StoreError.wrap {
            try database.transaction {
                // A batch the log could not hold anyway is not logged; a gap
                // tells readers behind it to re-plan everything.
                let suspended = work.count > Self.itemChangesKept ? try Self.suspendItemChangeLog(database) : nil
                for change in work { try change(database) }
                if let suspended { try Self.resumeItemChangeLog(suspended, database) }
                try database.execute("UPDATE store_state SET change_counter = change_counter + 1 WHERE id = 1")
                try Self.pruneItemChanges(database)
            }
        }
    }

    /// Runs `body` as one write transaction (`BEGIN IMMEDIATE`): what it
    /// reads cannot change before what it writes commits, so a look-up and
    /// the save that depends on it (an external key, the occurrence a
    /// completion moves past) are one step even with other processes
    /// writing. Another writer waits for it (up to the busy timeout), and it
    /// for them. Saves inside commit with it; a throw rolls all of it back
    /// and is rethrown as it is. Failing to begin or commit throws
    /// `StoreError.database`.
    public func transaction<T, Failure: Error>(_ body: () throws(Failure) -> T) throws -> T {
        try transaction(foldingNested: false, body)
    }

    /// `transaction`, with the transactions nested in it folded into it
    /// when `foldingNested` (see `Database.transaction(_:foldingNested:_:)`).
    func transaction<T, Failure: Error>(foldingNested: Bool, _ body: () throws(Failure) -> T) throws -> T {
        do {
            return try database.transaction(.immediate, foldingNested: foldingNested) { try body() }
        } catch let error as DatabaseError {
            throw StoreError.database(error)
        }
    }

    /// Forgets everything saved or removed with `commit: false`.
    public func reset() { pending = [] }

    public var hasUncommittedChanges: Bool { !pending.isEmpty }

    /// Queues a change, and commits the queue when asked to.
    func perform(commit: Bool, _ change: @escaping (Database) throws -> Void) throws(StoreError) {
        pending.append(change)
        if commit { try self.commit() }
    }

    /// Grows by one with every committed change, whichever process made it.
    public func changeCounter() throws(StoreError) -> Int64 {
        try StoreError.wrap { try database.scalar("SELECT change_counter FROM store_state WHERE id = 1") ?? 0 }
    }

    // MARK: Calendars

    public func calendars() throws(StoreError) -> [ItemCalendar] {
        try StoreError.wrap { try database.query("SELECT * FROM calendars ORDER BY title").map(Self.calendar) }
    }

    public func calendar(identifier: ItemIdentifier) throws(StoreError) -> ItemCalendar {
        let rows = try StoreError.wrap { try database.query("SELECT * FROM calendars WHERE id = ?", [identifier.rawValue]) }
        guard let row = rows.first else { throw .notFound(kind: "calendar", identifier: identifier.rawValue) }
        return try StoreError.wrap { try Self.calendar(row) }
    }

    /// A calendar by its title, ignoring case.
    public func calendar(named title: String) throws(StoreError) -> ItemCalendar {
        let rows = try StoreError.wrap { try database.query("SELECT * FROM calendars WHERE title = ?", [title]) }
        guard let row = rows.first else { throw .notFound(kind: "calendar", identifier: title) }
        return try StoreError.wrap { try Self.calendar(row) }
    }

    /// Adds a calendar or updates one with the same identifier (rename, recolour).
    /// The title is checked and the calendar written in one transaction,
    /// so of two processes adding one title, the second is told it exists.
    public func save(_ calendar: ItemCalendar) throws(StoreError) {
        do { try calendar.validate() } catch { throw .invalid(error) }
        try StoreError.wrap { try transaction { () throws(StoreError) in try saveChecked(calendar) } }
    }

    private func saveChecked(_ calendar: ItemCalendar) throws(StoreError) {
        let clash = try StoreError.wrap {
            try database.scalar("SELECT id FROM calendars WHERE title = ? AND id != ?", [calendar.title, calendar.identifier.rawValue]) as String?
        }
        if clash != nil { throw .duplicateCalendar(title: calendar.title) }
        let url: String? = if case .subscribed(let url) = calendar.kind { url } else { nil }
        try perform(commit: true) { db in
            try db.execute("""
                INSERT INTO calendars (id, title, color, subscription_url, allows_modifications, created_at)
                VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT(id) DO UPDATE SET title = excluded.title, color = excluded.color,
                    subscription_url = excluded.subscription_url, allows_modifications = excluded.allows_modifications
                """, [calendar.identifier.rawValue, calendar.title, calendar.color, url,
                      calendar.allowsContentModifications, Date().timeIntervalSince1970])
        }
    }

    /// Removes a calendar. One that holds items is removed, with them, only
    /// when `removingItems` says so. The last calendar stays, also when two
    /// processes remove the last two at once (the counting and the removing
    /// are one transaction).
    public func removeCalendar(_ identifier: ItemIdentifier, removingItems: Bool = false) throws(StoreError) {
        try StoreError.wrap { try transaction { () throws(StoreError) in try removeChecked(identifier, removingItems: removingItems) } }
    }

    private func removeChecked(_ identifier: ItemIdentifier, removingItems: Bool) throws(StoreError) {
        let calendar = try calendar(identifier: identifier)
        let (items, calendars): (Int, Int) = try StoreError.wrap {
            (try database.scalar("SELECT count(*) FROM items WHERE calendar_id = ?", [identifier.rawValue]) ?? 0,
             try database.scalar("SELECT count(*) FROM calendars") ?? 0)
        }
        if items > 0 && !removingItems { throw .calendarNotEmpty(title: calendar.title, items: items) }
        if calendars <= 1 { throw .lastCalendar(title: calendar.title) }
        try perform(commit: true) { db in
            try db.execute("DELETE FROM calendars WHERE id = ?", [identifier.rawValue])
        }
    }

    /// The calendar new events go to unless told otherwise.
    public func defaultCalendarForNewEvents() throws(StoreError) -> ItemCalendar {
        try defaultCalendar(column: "default_event_calendar")
    }

    /// The calendar new reminders go to unless told otherwise.
    public func defaultCalendarForNewReminders() throws(StoreError) -> ItemCalendar {
        try defaultCalendar(column: "default_reminder_calendar")
    }

    public func setDefaultCalendar(_ identifier: ItemIdentifier, forEvents: Bool = true, forReminders: Bool = true) throws(StoreError) {
        _ = try calendar(identifier: identifier)
        try perform(commit: true) { db in
            if forEvents { try db.execute("UPDATE store_state SET default_event_calendar = ? WHERE id = 1", [identifier.rawValue]) }
            if forReminders { try db.execute("UPDATE store_state SET default_reminder_calendar = ? WHERE id = 1", [identifier.rawValue]) }
        }
    }

    private func defaultCalendar(column: String) throws(StoreError) -> ItemCalendar {
        let chosen: String? = try StoreError.wrap { try database.scalar("SELECT \(column) FROM store_state WHERE id = 1") }
        if let chosen, let identifier = ItemIdentifier(chosen) { return try calendar(identifier: identifier) }
        // The default was removed: the oldest calendar stands in.
        let rows = try StoreError.wrap { try database.query("SELECT * FROM calendars ORDER BY created_at, title LIMIT 1") }
        guard let row = rows.first else { throw .notFound(kind: "calendar", identifier: "(default)") }
        return try StoreError.wrap { try Self.calendar(row) }
    }

    private func ensureDefaultCalendar(_ calendar: ItemCalendar) throws {
        let count: Int = try database.scalar("SELECT count(*) FROM calendars") ?? 0
        guard count == 0 else { return }
        try database.transaction(.immediate) {
            // Counted again under the write lock: processes that open a new
            // store together each saw none, and only the first one adds it.
            let count: Int = try database.scalar("SELECT count(*) FROM calendars") ?? 0
            guard count == 0 else { return }
            try database.execute("""
                INSERT INTO calendars (id, title, color, allows_modifications, created_at) VALUES (?, ?, ?, 1, ?)
                """, [calendar.identifier.rawValue, calendar.title, calendar.color, Date().timeIntervalSince1970])
            try database.execute("""
                UPDATE store_state SET default_event_calendar = ?, default_reminder_calendar = ?,
                    change_counter = change_counter + 1 WHERE id = 1
                """, [calendar.identifier.rawValue, calendar.identifier.rawValue])
        }
    }

    static func calendar(_ row: Row) throws -> ItemCalendar {
        let url: String? = try row.value("subscription_url")
        return ItemCalendar(identifier: ItemIdentifier(try row.value("id"))!, title: try row.value("title"),
                            color: try row.value("color"), kind: url.map { .subscribed(url: $0) } ?? .local,
                            allowsContentModifications: try row.value("allows_modifications"))
    }

    /// Refuses a write to an item of a read-only calendar. Within a batch
    /// each calendar is looked up once.
    /// For a save that may move a stored item to `calendar`: the calendar
    /// it leaves must take changes too. Only read-only calendars can refuse,
    /// so without any (the usual store) there is nothing to look up; a
    /// batch of 100,000 saves would otherwise make as many queries.
    func requireMovable(_ item: ItemIdentifier, to calendar: ItemIdentifier) throws(StoreError) {
        if pending.isEmpty { batchReadOnlyCount = nil }
        let readOnly: Int
        if let known = batchReadOnlyCount {
            readOnly = known
        } else {
            readOnly = try StoreError.wrap { try database.scalar("SELECT count(*) FROM calendars WHERE allows_modifications = 0") ?? 0 }
        }
        batchReadOnlyCount = readOnly
        guard readOnly > 0 else { return }
        let current: String? = try StoreError.wrap {
            try database.scalar("SELECT calendar_id FROM items WHERE id = ?", [item.rawValue])
        }
        guard let current, current != calendar.rawValue, let old = ItemIdentifier(current) else { return }
        try requireWritable(old)
    }

    func requireWritable(_ calendarIdentifier: ItemIdentifier) throws(StoreError) {
        if pending.isEmpty { batchCalendars.removeAll() }
        let calendar: ItemCalendar
        if let known = batchCalendars[calendarIdentifier] {
            calendar = known
        } else {
            calendar = try self.calendar(identifier: calendarIdentifier)
            batchCalendars[calendarIdentifier] = calendar
        }
        if !calendar.allowsContentModifications && !writingAsSource { throw .readOnlyCalendar(title: calendar.title) }
    }

    /// Runs `body` as the writer of the calendars' own source (the server's
    /// collection a sync brings down): the one writer a read-only calendar
    /// takes, as a subscription's refresh is for a subscribed one.
    public func asSource<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        let outer = writingAsSource
        writingAsSource = true
        defer { writingAsSource = outer }
        return try body()
    }

    /// Whether `asSource` is running.
    var isWritingAsSource: Bool { writingAsSource }
}
