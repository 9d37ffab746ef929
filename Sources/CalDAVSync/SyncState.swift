import CalendarModel
import CalendarStore
import Foundation
import SQLiteDatabase

/// What CalDAV sync remembers between runs: the accounts, each server
/// collection mapped to a Chime calendar with its sync token and ctag, and
/// for each resource on the server its ETag, the server's text as last
/// seen (the base a later merge patches) and a digest of Chime's own export
/// of that UID at the last sync (a local edit shows as another digest).
///
/// Like `AlarmLedger`, it lives in the store's file, on the store's
/// connection, but it is not the store's: its tables have their own
/// migrations (`sync_migrations`), and it never holds a password, only the
/// command that prints one. One state belongs to one thread at a time.
public final class SyncState {
    let store: CalendarStore
    var database: Database { store.database }

    /// An account: where its calendars were found and how to log in.
    public struct Account: Equatable, Sendable {
        public var name: String
        public var address: String
        public var user: String?
        /// Run each time a password is needed; its first line of output is the password.
        public var passwordCommand: [String]?

        public init(name: String, address: String, user: String?, passwordCommand: [String]?) {
            self.name = name
            self.address = address
            self.user = user
            self.passwordCommand = passwordCommand
        }
    }

    /// A server collection and the Chime calendar it maps to.
    public struct Collection: Equatable, Sendable {
        public var account: String
        /// Absolute, as discovery found it.
        public var url: String
        public var calendar: ItemIdentifier
        public var displayName: String?
        /// VEVENT, VTODO, ...; nil when the server named none.
        public var components: [String]?
        public var isReadOnly: Bool
        /// RFC 6578's token as of the last sync; nil before the first.
        public var syncToken: String?
        public var collectionTag: String?
        /// The store's item change log as it stood when the last complete
        /// sync began to look for local changes (`CalendarStore.itemChangeMark`):
        /// a change after it may need uploading. Nil before the first.
        public var localMark: Int64?

        /// Whether the collection may hold `component` (VEVENT, VTODO).
        public func holds(_ component: String) -> Bool { components?.contains(component.uppercased()) ?? true }
    }

    /// One resource of a collection as the last sync left it.
    public struct Resource: Equatable, Sendable {
        /// The resource's absolute URL, percent-encoded as the server sent it.
        public var href: String
        public var uid: String
        public var entityTag: String?
        /// The server's iCalendar text as last seen.
        public var base: String
        /// `SyncDigest` of Chime's export of the UID after the last sync.
        public var localDigest: String
    }

    /// A local version the server refused (412) and that Chime did not upload.
    public struct Conflict: Equatable, Sendable {
        public var collectionURL: String
        public var uid: String
        public var href: String
        /// Chime's export of the UID at the time, kept so that nothing is lost.
        public var local: String
        public var recordedAt: Date
    }

    public init(store: CalendarStore) throws(StoreError) {
        self.store = store
        try StoreError.wrap { _ = try Self.migrator.migrate(store.database) }
    }

    /// The schema history: append, never edit (see `Migrator`).
    static var migrator: Migrator {
        var migrator = Migrator(table: "sync_migrations")
        migrator.registerMigration("v1: CalDAV accounts, collections, resources and conflicts") { db in
            try db.executeScript("""
                CREATE TABLE sync_accounts (
                    name TEXT PRIMARY KEY NOT NULL,
                    address TEXT NOT NULL,
                    user TEXT,
                    password_command TEXT
                );
                CREATE TABLE sync_collections (
                    url TEXT PRIMARY KEY NOT NULL,
                    account TEXT NOT NULL REFERENCES sync_accounts(name) ON DELETE CASCADE,
                    calendar_id TEXT NOT NULL,
                    display_name TEXT,
                    components TEXT,
                    read_only INTEGER NOT NULL CHECK (read_only IN (0, 1)),
                    sync_token TEXT,
                    ctag TEXT
                );
                CREATE TABLE sync_resources (
                    collection TEXT NOT NULL REFERENCES sync_collections(url) ON DELETE CASCADE,
                    href TEXT NOT NULL,
                    uid TEXT NOT NULL,
                    etag TEXT,
                    base TEXT NOT NULL,
                    local_digest TEXT NOT NULL,
                    PRIMARY KEY (collection, href)
                );
                CREATE INDEX sync_resources_uid ON sync_resources(collection, uid);
                CREATE TABLE sync_conflicts (
                    collection TEXT NOT NULL,
                    uid TEXT NOT NULL,
                    href TEXT NOT NULL,
                    local TEXT NOT NULL,
                    recorded_at REAL NOT NULL
                );
                """)
        }
        migrator.registerMigration("v2: the change-log mark of a collection's last sync") { db in
            try db.execute("ALTER TABLE sync_collections ADD COLUMN local_mark INTEGER")
        }
        return migrator
    }

    // MARK: Accounts

    public func save(_ account: Account) throws(StoreError) {
        // Arguments as JSON: a command is a list of words, never one shell line.
        let command = try account.passwordCommand.map { words throws(StoreError) -> String in
            guard let data = try? JSONEncoder().encode(words), let text = String(data: data, encoding: .utf8) else {
                throw .invalid(ValidationError(field: "password command", value: words.joined(separator: " "), reason: "cannot be stored"))
            }
            return text
        }
        try StoreError.wrap {
            try database.execute("""
                INSERT INTO sync_accounts (name, address, user, password_command) VALUES (?, ?, ?, ?)
                ON CONFLICT(name) DO UPDATE SET address = excluded.address, user = excluded.user, password_command = excluded.password_command
                """, [account.name, account.address, account.user, command])
        }
    }

    public func accounts() throws(StoreError) -> [Account] {
        try StoreError.wrap {
            try database.query("SELECT name, address, user, password_command FROM sync_accounts ORDER BY name").map { row in
                let command: String? = try row.value(3)
                return Account(name: try row.value(0), address: try row.value(1), user: try row.value(2),
                               passwordCommand: command.flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) })
            }
        }
    }

    /// Forgets an account with its collections and resources (not the Chime calendars they filled).
    public func removeAccount(_ name: String) throws(StoreError) {
        try StoreError.wrap {
            try database.transaction {
                try database.execute("DELETE FROM sync_resources WHERE collection IN (SELECT url FROM sync_collections WHERE account = ?)", [name])
                try database.execute("DELETE FROM sync_collections WHERE account = ?", [name])
                try database.execute("DELETE FROM sync_accounts WHERE name = ?", [name])
            }
        }
    }

    // MARK: Collections

    public func save(_ collection: Collection) throws(StoreError) {
        try StoreError.wrap {
            try database.execute("""
                INSERT INTO sync_collections (url, account, calendar_id, display_name, components, read_only, sync_token, ctag, local_mark)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(url) DO UPDATE SET account = excluded.account, calendar_id = excluded.calendar_id,
                    display_name = excluded.display_name, components = excluded.components, read_only = excluded.read_only,
                    sync_token = excluded.sync_token, ctag = excluded.ctag, local_mark = excluded.local_mark
                """, [collection.url, collection.account, collection.calendar.rawValue, collection.displayName,
                      collection.components?.joined(separator: ","), collection.isReadOnly ? 1 : 0, collection.syncToken,
                      collection.collectionTag, collection.localMark])
        }
    }

    public func collections(of account: String? = nil) throws(StoreError) -> [Collection] {
        try StoreError.wrap {
            try query("SELECT url, account, calendar_id, display_name, components, read_only, sync_token, ctag, local_mark FROM sync_collections",
                      where: "account", is: account, orderedBy: "url").map { row in
                let calendarText: String = try row.value(2)
                guard let calendar = ItemIdentifier(calendarText) else {
                    throw StoreError.unusable(path: store.path, reason: "sync_collections: calendar_id '\(calendarText)' is no identifier")
                }
                let components: String? = try row.value(4)
                let readOnly: Int64 = try row.value(5)
                return Collection(account: try row.value(1), url: try row.value(0), calendar: calendar, displayName: try row.value(3),
                                  components: components.map { $0.split(separator: ",").map(String.init) }, isReadOnly: readOnly != 0,
                                  syncToken: try row.value(6), collectionTag: try row.value(7), localMark: try row.value(8))
            }
        }
    }

    /// Records the token and ctag a sync reached and the change-log mark
    /// it looked for local changes from (inside the transaction of the changes they brought).
    func setTokens(of collectionURL: String, syncToken: String?, collectionTag: String?, localMark: Int64?) throws {
        try database.execute("UPDATE sync_collections SET sync_token = ?, ctag = ?, local_mark = ? WHERE url = ?",
                             [syncToken, collectionTag, localMark, collectionURL])
    }

    // MARK: Resources

    public func resources(of collectionURL: String) throws(StoreError) -> [Resource] {
        try StoreError.wrap {
            try database.query("SELECT href, uid, etag, base, local_digest FROM sync_resources WHERE collection = ? ORDER BY href",
                               [collectionURL]).map { row in
                Resource(href: try row.value(0), uid: try row.value(1), entityTag: try row.value(2), base: try row.value(3),
                         localDigest: try row.value(4))
            }
        }
    }

    func save(_ resource: Resource, in collectionURL: String) throws {
        try database.execute("""
            INSERT INTO sync_resources (collection, href, uid, etag, base, local_digest) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT(collection, href) DO UPDATE SET uid = excluded.uid, etag = excluded.etag, base = excluded.base,
                local_digest = excluded.local_digest
            """, [collectionURL, resource.href, resource.uid, resource.entityTag, resource.base, resource.localDigest])
    }

    func removeResource(_ href: String, in collectionURL: String) throws {
        try database.execute("DELETE FROM sync_resources WHERE collection = ? AND href = ?", [collectionURL, href])
    }

    // MARK: Conflicts

    func record(_ conflict: Conflict) throws {
        try database.execute("INSERT INTO sync_conflicts (collection, uid, href, local, recorded_at) VALUES (?, ?, ?, ?, ?)",
                             [conflict.collectionURL, conflict.uid, conflict.href, conflict.local, conflict.recordedAt.timeIntervalSince1970])
    }

    /// Forgets every conflict kept for `uid` (`ConflictResolution`).
    func removeConflicts(of uid: String) throws {
        try database.execute("DELETE FROM sync_conflicts WHERE uid = ?", [uid])
    }

    public func conflicts(of collectionURL: String? = nil) throws(StoreError) -> [Conflict] {
        try StoreError.wrap {
            try query("SELECT collection, uid, href, local, recorded_at FROM sync_conflicts",
                      where: "collection", is: collectionURL, orderedBy: "rowid").map { row in
                Conflict(collectionURL: try row.value(0), uid: try row.value(1), href: try row.value(2), local: try row.value(3),
                         recordedAt: Date(timeIntervalSince1970: try row.value(4)))
            }
        }
    }

    /// The rows of `select`, in `order`: all of them, or those whose
    /// `column` is `value` when a value is given (a list's optional filter).
    private func query(_ select: String, where column: String, is value: String?, orderedBy order: String) throws -> [Row] {
        guard let value else { return try database.query("\(select) ORDER BY \(order)") }
        return try database.query("\(select) WHERE \(column) = ? ORDER BY \(order)", [value])
    }
}
