import Glibc

/// How `Database` opens its file. The defaults are Chime's decisions: create
/// the file if missing, private (0600), WAL, foreign keys on, a 5 s busy timeout.
public struct DatabaseOptions: Sendable {
    public enum Access: Sendable {
        /// Writes fail with `SQLITE_READONLY`. The file must exist.
        case readOnly
        /// The file must exist.
        case readWrite
        /// The file is created when missing (with `filePermissions`).
        case readWriteCreate
    }

    public enum JournalMode: String, Sendable {
        /// Write-ahead log: readers never block the writer nor the writer them.
        case wal = "WAL"
        /// The classic rollback journal.
        case delete = "DELETE"
        /// The rollback journal held in memory: a transaction can still be
        /// rolled back, but a crash in the middle of one leaves the file
        /// broken. Only for a file being made that is thrown away when
        /// anything fails (see `syncsCommits`); not kept in the file, so
        /// that the next connection sets its own.
        case memory = "MEMORY"
    }

    public var access: Access
    /// How long a statement waits for another connection's lock before failing
    /// with `SQLITE_BUSY`. Zero fails at once.
    public var busyTimeout: Duration
    /// Set when opening for writing; nil leaves the file's mode as it is. WAL is
    /// a property of the file: once set, every later connection uses it.
    public var journalMode: JournalMode?
    /// `PRAGMA foreign_keys`; SQLite's own default is off.
    public var foreignKeys: Bool
    /// The mode a new database file is created with, before SQLite opens it;
    /// SQLite gives its `-wal`, `-shm` and `-journal` files the same mode. nil
    /// lets SQLite create it (0644 less the umask). An existing empty file
    /// gets this mode too; one with content keeps its own.
    public var filePermissions: mode_t?
    /// How many distinct SQL texts keep their compiled statement; the least
    /// recently used is finalized beyond that. 0 compiles every time.
    public var statementCacheCapacity: Int
    /// Whether a commit waits for the disk (`PRAGMA synchronous`, SQLite's
    /// FULL). Off only for a file being made that nothing uses yet and that
    /// its maker syncs once, whole, before putting it in place.
    public var syncsCommits: Bool

    public init(access: Access = .readWriteCreate,
                busyTimeout: Duration = .seconds(5),
                journalMode: JournalMode? = .wal,
                foreignKeys: Bool = true,
                filePermissions: mode_t? = 0o600,
                statementCacheCapacity: Int = 100,
                syncsCommits: Bool = true) {
        self.access = access
        self.busyTimeout = busyTimeout
        self.journalMode = journalMode
        self.foreignKeys = foreignKeys
        self.filePermissions = filePermissions
        self.statementCacheCapacity = statementCacheCapacity
        self.syncsCommits = syncsCommits
    }

    /// Read-only, everything else as default.
    public static var readOnly: DatabaseOptions {
        DatabaseOptions(access: .readOnly)
    }
}
