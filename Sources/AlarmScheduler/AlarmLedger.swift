import CalendarStore
import Foundation
import SQLiteDatabase

/// The scheduler's memory of what it showed on this machine: the delivery
/// log (so that no firing is shown twice or dropped without a trace), the
/// snoozes, the settled mark, the notifications on screen, and the geofence
/// monitor's states with the newest position fed in.
///
/// It lives in the store's file, on the store's connection, but it is not
/// the store's: CalendarStore holds calendars and items, which are what gets
/// exported and synced to other machines. This is one machine's record of
/// its own popups and whereabouts, and must never travel with them: another
/// machine has shown nothing, and a copied "delivered" would silence its
/// alarms. Its tables have their own migrations, recorded apart from the
/// store's (`ledger_migrations`).
///
/// Like the store, one ledger belongs to one thread or serial queue at a time.
public final class AlarmLedger {
    let database: Database
    /// The store's clock, for when snoozes and positions were recorded.
    let now: @Sendable () -> Date

    /// The ledger in `store`'s file, its tables migrated as needed (not on a
    /// store opened read-only, whose file holds the tables the store's own
    /// early migrations made).
    public init(store: CalendarStore) throws(StoreError) {
        database = store.database
        now = store.now
        guard !store.isReadOnly else { return }
        try StoreError.wrap { _ = try Self.migrator.migrate(database) }
    }

    /// The ledger of `store`'s file as it is, not migrated: for reading the
    /// tables that every store has (the planner's snoozes).
    init(reading store: CalendarStore) {
        database = store.database
        now = store.now
    }

    /// The store's clock in whole Unix seconds, the planner's instant.
    var nowSecond: Int64 { Self.second(now().timeIntervalSince1970) }

    /// A time as the ledger's REAL columns hold it (rows written before the
    /// ledger took whole seconds have fractions), as the planner's instant.
    static func second(_ seconds: Double) -> Int64 { Int64(seconds.rounded(.down)) }

    /// The ledger's schema history: append, never edit (see `Migrator`).
    static var migrator: Migrator {
        var migrator = Migrator(table: "ledger_migrations")
        migrator.registerMigration("v1: the delivery log, snoozes, settled mark, notifications and geofence states, from the store") { db in
            // The store's migrations v4, v5, v8 and v11 made these tables,
            // and they stay where they are with their rows: this adopts them
            // (a store made before the ledger has them already; the
            // definitions are those of the store's migrations). The settled
            // mark moves out of the store's settings.
            try db.executeScript("""
                CREATE TABLE IF NOT EXISTS deliveries (
                    key TEXT PRIMARY KEY NOT NULL,
                    alarm_id TEXT NOT NULL,
                    item_id TEXT NOT NULL,
                    title TEXT NOT NULL,
                    due_at INTEGER NOT NULL,
                    recorded_at REAL NOT NULL,
                    outcome TEXT NOT NULL CHECK (outcome IN ('showing', 'delivered', 'late', 'missed', 'interrupted'))
                );
                CREATE INDEX IF NOT EXISTS deliveries_due ON deliveries(due_at);
                CREATE TABLE IF NOT EXISTS snoozes (
                    key TEXT PRIMARY KEY NOT NULL,
                    firing_key TEXT NOT NULL,
                    alarm_id TEXT NOT NULL,
                    item_id TEXT NOT NULL,
                    title TEXT NOT NULL,
                    due_at INTEGER NOT NULL,
                    fire_at INTEGER NOT NULL,
                    created_at REAL NOT NULL
                );
                CREATE INDEX IF NOT EXISTS snoozes_fire_at ON snoozes(fire_at);
                CREATE TABLE IF NOT EXISTS geofence_states (
                    alarm_id TEXT PRIMARY KEY NOT NULL,
                    presence TEXT NOT NULL CHECK (presence IN ('unknown', 'inside', 'outside')),
                    last_fix_at REAL,
                    dwell_started_at REAL,
                    last_fired_at REAL
                );
                CREATE TABLE IF NOT EXISTS location_state (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    latest_fix_at REAL,
                    latitude REAL CHECK (latitude BETWEEN -90 AND 90),
                    longitude REAL CHECK (longitude BETWEEN -180 AND 180),
                    accuracy REAL CHECK (accuracy >= 0),
                    position_at REAL,
                    recorded_at REAL
                );
                INSERT OR IGNORE INTO location_state (id) VALUES (1);
                CREATE TABLE IF NOT EXISTS notifications_shown (
                    root_key TEXT PRIMARY KEY NOT NULL,
                    key TEXT NOT NULL,
                    server_id INTEGER NOT NULL CHECK (server_id > 0),
                    server TEXT NOT NULL,
                    firing TEXT NOT NULL,
                    shown_at REAL NOT NULL
                );
                CREATE INDEX IF NOT EXISTS notifications_shown_key ON notifications_shown(key);
                CREATE TABLE ledger_state (
                    key TEXT PRIMARY KEY NOT NULL,
                    value TEXT NOT NULL
                );
                INSERT INTO ledger_state (key, value) SELECT key, value FROM settings WHERE key = 'scheduler.settled';
                DELETE FROM settings WHERE key = 'scheduler.settled';
                """)
        }
        return migrator
    }

    /// Whether the ledger's tables are migrated (false only on a read-only
    /// store no writer has opened since the ledger came).
    private func isMigrated() throws -> Bool {
        try Self.migrator.pendingMigrations(in: database).isEmpty
    }

    /// How far the scheduler has planned and delivered: firings due at or
    /// before it are settled. Nil before the first run.
    public func settledThrough() throws(StoreError) -> Int64? {
        let text: String? = try StoreError.wrap {
            try isMigrated() ? try database.scalar("SELECT value FROM ledger_state WHERE key = 'scheduler.settled'")
                             : try database.scalar("SELECT value FROM settings WHERE key = 'scheduler.settled'")
        }
        return text.flatMap { Int64($0) }
    }

    public func setSettledThrough(_ instant: Int64) throws(StoreError) {
        try StoreError.wrap {
            try database.execute("""
                INSERT INTO ledger_state (key, value) VALUES ('scheduler.settled', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value
                """, [String(instant)])
        }
    }
}
