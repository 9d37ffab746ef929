import Foundation

/// Named schema migrations, applied in the order they were registered (those
/// pending in one transaction, each in a savepoint), and recorded in the table
/// `schema_migrations(name TEXT PRIMARY KEY, applied_at REAL)`.
///
/// ```swift
/// var migrator = Migrator()
/// migrator.registerMigration("v1: calendars and items") { db in
///     try db.executeScript("CREATE TABLE calendars(…); CREATE TABLE items(…);")
/// }
/// migrator.registerMigration("v2: item notes") { db in
///     try db.execute("ALTER TABLE items ADD COLUMN notes TEXT")
/// }
/// try migrator.migrate(db)
/// ```
///
/// The rule that keeps this safe: **append, never edit.** Once a release has
/// shipped a migration, its name and its body stay as they are; a change to the
/// schema is a new migration at the end. The migrator can check names, not
/// bodies: it refuses a database whose recorded migrations are not exactly the
/// first ones registered, in order (`MigrationError.historyMismatch`: one was
/// renamed, removed or reordered), or that has migrations this code does not
/// know (`MigrationError.unknownMigrations`: a newer Chime upgraded it).
///
/// Foreign keys stay on during migrations (`PRAGMA foreign_keys` cannot change
/// inside a transaction). A migration that rebuilds a referenced table should
/// start with `PRAGMA defer_foreign_keys = ON`, so the check happens at commit.
public struct Migrator: Sendable {
    public typealias Migration = @Sendable (Database) throws -> Void

    private var migrations: [(name: String, migrate: Migration)] = []
    /// The table the history is recorded in: several owners of one file
    /// (the store, the scheduler's ledger) each keep their own.
    public let table: String

    public init(table: String = "schema_migrations") {
        self.table = table
    }

    /// Appends a migration. Names must be unique (a repeated name traps: it is
    /// a programming error).
    public mutating func registerMigration(_ name: String, _ migrate: @escaping Migration) {
        precondition(!migrations.contains { $0.name == name }, "migration \"\(name)\" registered twice")
        migrations.append((name, migrate))
    }

    /// The registered names, in order.
    public var migrationNames: [String] {
        migrations.map(\.name)
    }

    /// The names recorded in the database, in the order they were applied;
    /// empty when the table does not exist yet.
    public func appliedMigrations(in db: Database) throws -> [String] {
        let tableExists: Bool? = try db.scalar(
            "SELECT count(*) > 0 FROM sqlite_master WHERE type = 'table' AND name = ?", [table])
        guard tableExists == true else { return [] }
        return try db.query("SELECT name FROM \(table) ORDER BY rowid").map { try $0.value(0) }
    }

    /// The registered migrations the database has not had yet, in order. Throws
    /// a `MigrationError` when the database's history does not fit this code.
    public func pendingMigrations(in db: Database) throws -> [String] {
        let applied = try appliedMigrations(in: db)
        try check(applied)
        return Array(migrationNames.dropFirst(applied.count))
    }

    /// Applies the pending migrations in order, in one immediate
    /// transaction, each in a savepoint of its own together with its
    /// record, and returns their names. With nothing pending it only reads
    /// (so it also works on a read-only connection). A failing migration is
    /// rolled back whole, the ones before it stay applied (committed), and
    /// its error is thrown. One commit for all: each commit syncs the file,
    /// and a new store's eighteen commits were most of the time it took to
    /// make (chime import into a new store: 18 fdatasyncs). Safe against
    /// another process migrating the same file at the same time: the history
    /// is read again under the write lock.
    @discardableResult
    public func migrate(_ db: Database) throws -> [String] {
        guard try !pendingMigrations(in: db).isEmpty else { return [] }
        var failure: (any Error)?
        let appliedNow: [String] = try db.transaction(.immediate) {
            try db.execute("""
                CREATE TABLE IF NOT EXISTS \(table)(
                    name TEXT PRIMARY KEY NOT NULL,
                    applied_at REAL NOT NULL)
                """)
            let recorded = try appliedMigrations(in: db)
            try check(recorded)
            var applied: [String] = []
            for next in migrations.dropFirst(recorded.count) {
                do {
                    try db.transaction {
                        try next.migrate(db)
                        try db.execute("INSERT INTO \(table)(name, applied_at) VALUES (?, ?)", [next.name, Date().timeIntervalSince1970])
                    }
                } catch {
                    // With none before it, nothing stays, the history's table
                    // included; nor when SQLite ended the transaction itself.
                    if applied.isEmpty || !db.isInTransaction { throw error }
                    failure = error
                    break
                }
                applied.append(next.name)
            }
            return applied
        }
        if let failure { throw failure }
        return appliedNow
    }

    private func check(_ recorded: [String]) throws {
        let known = Set(migrationNames)
        let unknown = recorded.filter { !known.contains($0) }
        if !unknown.isEmpty {
            throw MigrationError.unknownMigrations(unknown)
        }
        if recorded != Array(migrationNames.prefix(recorded.count)) {
            throw MigrationError.historyMismatch(recorded: recorded, registered: migrationNames)
        }
    }
}

/// Why `Migrator` refused a database.
public enum MigrationError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The database records migrations this code does not have: a newer
    /// version of the program upgraded it.
    case unknownMigrations([String])
    /// The recorded migrations are not the first registered ones in the same
    /// order: a migration was renamed, removed, inserted or reordered.
    case historyMismatch(recorded: [String], registered: [String])

    public var description: String {
        switch self {
        case .unknownMigrations(let names):
            return "the database has migrations this program does not know (made by a newer version?): "
                + names.map { "\"\($0)\"" }.joined(separator: ", ")
        case .historyMismatch(let recorded, let registered):
            return "the database's migration history does not match this program's (a migration was edited, "
                + "renamed or reordered): recorded " + recorded.map { "\"\($0)\"" }.joined(separator: ", ")
                + "; registered " + registered.map { "\"\($0)\"" }.joined(separator: ", ")
        }
    }
}
