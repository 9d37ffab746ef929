import CSQLite
import Glibc

/// One SQLite connection (`sqlite3*`), closed when released.
///
/// ```swift
/// let db = try Database(path: path)                       // 0600, WAL, foreign keys, 5 s busy timeout
/// try db.execute("INSERT INTO items(key, title) VALUES (?, ?)", ["k1", "Stand-up"])
/// let rows = try db.query("SELECT key, title FROM items WHERE title LIKE ?", ["Stand%"])
/// let count: Int? = try db.scalar("SELECT count(*) FROM items")
/// try db.transaction { try db.execute(…); try db.execute(…) }   // BEGIN IMMEDIATE … COMMIT, or ROLLBACK on throw
/// ```
///
/// **Statements.** Each SQL text is compiled once and kept (up to
/// `DatabaseOptions.statementCacheCapacity` texts, least recently used out
/// first); a later call with the same text resets the compiled statement and
/// binds the new arguments. Put values in arguments, never in the SQL text.
///
/// **Threads.** A `Database` may be shared between threads (it is `Sendable`):
/// every call holds the connection's recursive lock, and `transaction`,
/// `forEachRow` and `withStatement` hold it until their closure returns, so
/// another thread's statements wait and never land inside this thread's
/// transaction, while the closure itself may call back into the database. The
/// flip side: a closure that waits for another thread that needs the same
/// database deadlocks. For concurrency between threads or processes, open one
/// `Database` per thread on the same file: WAL lets readers run beside the
/// writer, and the busy timeout makes writers queue. Since this lock already
/// serializes every use, the connection is opened in SQLite's multi-thread
/// mode (`SQLITE_OPEN_NOMUTEX`): serialized mode's mutex around every column
/// read cost a range query a twelfth of its time, for no added safety.
public final class Database: @unchecked Sendable {
    // @unchecked: the mutable state below (the cache, its clock, the counters)
    // is only touched while `lock` is held, and `handle` is used the same way.

    /// The path given when opening.
    public let path: String
    public let options: DatabaseOptions
    let handle: OpaquePointer
    let lock = ConnectionLock()

    private var cache: [String: Statement] = [:]
    /// The cached statements used last, newest first, looked at before the
    /// cache: a batch goes round a few statements, and comparing a long
    /// SQL text with the same String costs little where hashing it for the
    /// cache costs thousands of instructions (1.5% of a large import).
    private var recent: [(sql: String, statement: Statement)] = []
    private var cacheClock: UInt64 = 0
    private var prepares = 0
    /// Depth of nested `transaction` calls inside an outer one, for savepoint names.
    var savepointDepth = 0
    /// Depth of `transaction(_:foldingNested:)` calls with `foldingNested`:
    /// while above zero, nested transactions take no savepoints.
    var foldingDepth = 0

    /// SQLite set up for this process, once, before its first connection:
    /// without memory statistics, which took a lock and counted for each of
    /// the 740,000 allocations and frees of a 10,000-event import, 3% of
    /// its instructions (callgrind).
    private static let configured: Void = { _ = csqlite_config_no_memory_statistics() }()

    /// Opens (and by default creates) the database at `path`. `":memory:"` opens
    /// a private in-memory database. See `DatabaseOptions` for the defaults.
    public init(path: String, options: DatabaseOptions = DatabaseOptions()) throws {
        self.path = path
        self.options = options
        let isOrdinaryFile = !(path.isEmpty || path == ":memory:" || path.hasPrefix("file:"))
        if isOrdinaryFile, options.access == .readWriteCreate, let permissions = options.filePermissions {
            try Database.createPrivateFile(atPath: path, permissions: permissions)
        }

        _ = Self.configured
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        switch options.access {
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        case .readWriteCreate: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        }
        var connection: OpaquePointer?
        let code = sqlite3_open_v2(path, &connection, flags, nil)
        guard code == SQLITE_OK, let connection else {
            var message = "cannot open the database"
            if let connection {
                message = String(cString: sqlite3_errmsg(connection))
                sqlite3_close_v2(connection)
            }
            throw DatabaseError(extendedResultCode: ResultCode(rawValue: code), message: "\(message): \(path)")
        }
        handle = connection
        // From here on, a throw still runs deinit, which closes the connection.
        sqlite3_extended_result_codes(handle, 1)
        let (seconds, attoseconds) = options.busyTimeout.components
        let milliseconds = max(0, min(Int64(Int32.max), seconds * 1000 + attoseconds / 1_000_000_000_000_000))
        sqlite3_busy_timeout(handle, Int32(milliseconds))

        try execute("PRAGMA foreign_keys = \(options.foreignKeys ? "ON" : "OFF")")
        if !options.syncsCommits { try execute("PRAGMA synchronous = OFF") }
        if let journalMode = options.journalMode, options.access != .readOnly, isOrdinaryFile {
            let mode = try setJournalMode(journalMode.rawValue, waitingUpTo: milliseconds)
            guard mode?.uppercased() == journalMode.rawValue else {
                throw DatabaseError(extendedResultCode: .error,
                                    message: "journal mode \(journalMode.rawValue) refused; the file stays in \(mode ?? "?")",
                                    sql: "PRAGMA journal_mode = \(journalMode.rawValue)")
            }
        }
    }

    /// Sets the journal mode, unless the file is in it already (WAL stays
    /// set in the file). Changing it needs the file to itself, and SQLite
    /// answers SQLITE_BUSY at once, without its busy handler, while another
    /// connection is opening the same new file: so this waits, for as long as
    /// the busy timeout allows, in steps of 10 ms.
    private func setJournalMode(_ wanted: String, waitingUpTo milliseconds: Int64) throws -> String? {
        if let current: String = try scalar("PRAGMA journal_mode"), current.uppercased() == wanted { return current }
        var waited: Int64 = 0
        while true {
            do {
                return try scalar("PRAGMA journal_mode = \(wanted)")
            } catch let error as DatabaseError where error.resultCode == .busy && waited < milliseconds {
                usleep(10_000)
                waited += 10
            }
        }
    }

    deinit {
        // Finalize the cached statements, then close. sqlite3_close_v2 (not
        // sqlite3_close) also copes with a statement someone still holds: the
        // connection lingers until that one is finalized.
        recent.removeAll()
        cache.removeAll()
        sqlite3_close_v2(handle)
    }

    // MARK: Running SQL

    /// Runs one statement with positional arguments (`?`, `?NNN`), ignoring any
    /// rows. More than one statement in `sql` is refused (`.misuse`); use
    /// `executeScript` for those.
    public func execute(_ sql: String, _ arguments: [(any DatabaseValueConvertible)?] = []) throws {
        try withStatement(sql) { statement in
            try statement.bind(arguments)
            try statement.execute()
        }
    }

    /// Runs one statement with named arguments (`:name`, `@name`, `$name`).
    public func execute(_ sql: String, named arguments: [String: (any DatabaseValueConvertible)?]) throws {
        try withStatement(sql) { statement in
            try statement.bind(named: arguments)
            try statement.execute()
        }
    }

    /// Runs every statement of `sql` in turn (a schema, a migration), without
    /// arguments and without caching. Stops at the first failure, whose error
    /// names the failing statement; the ones before it stay done (wrap the call
    /// in `transaction` to make it all or nothing).
    public func executeScript(_ sql: String) throws {
        try lock.withLock {
            let bytes = Array(sql.utf8)
            try bytes.withUnsafeBufferPointer { buffer in
                guard let start = buffer.baseAddress else { return }
                try start.withMemoryRebound(to: CChar.self, capacity: buffer.count) { base in
                    var offset = 0
                    while offset < buffer.count {
                        var compiled: OpaquePointer?
                        var tail: UnsafePointer<CChar>?
                        let code = sqlite3_prepare_v2(handle, base + offset, Int32(buffer.count - offset), &compiled, &tail)
                        prepares += 1
                        let next = tail.map { base.distance(to: $0) } ?? buffer.count
                        let text = Self.trimmed(String(decoding: bytes[offset..<max(offset, next)], as: UTF8.self))
                        guard code == SQLITE_OK else {
                            throw DatabaseError.last(on: handle, code: code, sql: text.isEmpty ? sql : text)
                        }
                        guard next > offset else { break }
                        offset = next
                        guard let compiled else { continue }  // only a comment or whitespace
                        defer { sqlite3_finalize(compiled) }
                        while true {
                            let step = sqlite3_step(compiled)
                            if step == SQLITE_ROW { continue }
                            if step == SQLITE_DONE { break }
                            throw DatabaseError.last(on: handle, code: step, sql: text)
                        }
                    }
                }
            }
        }
    }

    /// Every row of one statement, in memory. For large results, `forEachRow`.
    public func query(_ sql: String, _ arguments: [(any DatabaseValueConvertible)?] = []) throws -> [Row] {
        var rows: [Row] = []
        try forEachRow(sql, arguments) { rows.append($0); return true }
        return rows
    }

    public func query(_ sql: String, named arguments: [String: (any DatabaseValueConvertible)?]) throws -> [Row] {
        var rows: [Row] = []
        try forEachRow(sql, named: arguments) { rows.append($0); return true }
        return rows
    }

    /// Calls `body` with each row as SQLite produces it, until the rows run out
    /// or `body` returns false. Holds the database's lock throughout; `body` may
    /// use the database (on this thread).
    public func forEachRow(_ sql: String, _ arguments: [(any DatabaseValueConvertible)?] = [],
                           _ body: (Row) throws -> Bool) throws {
        try withStatement(sql) { statement in
            try statement.bind(arguments)
            while let row = try statement.step() {
                guard try body(row) else { return }
            }
        }
    }

    public func forEachRow(_ sql: String, named arguments: [String: (any DatabaseValueConvertible)?],
                           _ body: (Row) throws -> Bool) throws {
        try withStatement(sql) { statement in
            try statement.bind(named: arguments)
            while let row = try statement.step() {
                guard try body(row) else { return }
            }
        }
    }

    /// The first column of the first row as `T`; nil when there is no row or the
    /// value is NULL. A value that is not a `T` throws (`.mismatch`).
    public func scalar<T: DatabaseValueConvertible>(_ sql: String, _ arguments: [(any DatabaseValueConvertible)?] = [],
                                                    as type: T.Type = T.self) throws -> T? {
        try withStatement(sql) { statement in
            try statement.bind(arguments)
            return try Self.firstValue(of: statement, as: type)
        }
    }

    public func scalar<T: DatabaseValueConvertible>(_ sql: String, named arguments: [String: (any DatabaseValueConvertible)?],
                                                    as type: T.Type = T.self) throws -> T? {
        try withStatement(sql) { statement in
            try statement.bind(named: arguments)
            return try Self.firstValue(of: statement, as: type)
        }
    }

    private static func firstValue<T: DatabaseValueConvertible>(of statement: Statement, as type: T.Type) throws -> T? {
        guard let row = try statement.step(), row.count > 0, !row[0].isNull else { return nil }
        return try row.value(0, as: type)
    }

    // MARK: Statements

    /// Lends the compiled statement for `sql` (compiling it on first use) to
    /// `body`, holding the database's lock; afterwards resets it and clears its
    /// bindings. If the same SQL is already lent out further up this thread's
    /// stack (a query inside a `forEachRow` of the same SQL), a fresh statement
    /// is compiled for this use and not kept.
    public func withStatement<T>(_ sql: String, _ body: (Statement) throws -> T) throws -> T {
        try lock.withLock {
            let statement = try statementForUse(sql)
            statement.isInUse = true
            defer { statement.recycle() }
            return try body(statement)
        }
    }

    /// How many times this connection has compiled SQL (`sqlite3_prepare`); a
    /// statement reused from the cache does not count. For tests and diagnostics.
    public var prepareCount: Int {
        lock.withLock { prepares }
    }

    /// How many compiled statements the cache holds.
    public var cachedStatementCount: Int {
        lock.withLock { cache.count }
    }

    /// Finalizes every cached statement that is not in use.
    public func clearStatementCache() {
        lock.withLock {
            recent.removeAll()
            cache = cache.filter { $0.value.isInUse }
        }
    }

    private func statementForUse(_ sql: String) throws -> Statement {
        cacheClock += 1
        for entry in recent where entry.sql == sql && !entry.statement.isInUse {
            entry.statement.lastUse = cacheClock
            return entry.statement
        }
        if let cached = cache[sql] {
            if !cached.isInUse {
                cached.lastUse = cacheClock
                remember(sql, cached)
                return cached
            }
            return try prepare(sql, persistent: false)
        }
        let capacity = options.statementCacheCapacity
        let statement = try prepare(sql, persistent: capacity > 0)
        if capacity > 0 {
            if cache.count >= capacity,
               let oldest = cache.filter({ !$0.value.isInUse }).min(by: { $0.value.lastUse < $1.value.lastUse }) {
                cache[oldest.key] = nil
                recent.removeAll { $0.statement === oldest.value }
            }
            statement.lastUse = cacheClock
            cache[sql] = statement
            remember(sql, statement)
        }
        return statement
    }

    /// `statement`, cached under `sql`, first among the `recent` ones.
    private func remember(_ sql: String, _ statement: Statement) {
        recent.removeAll { $0.statement === statement }
        if recent.count >= 4 { recent.removeLast() }
        recent.insert((sql, statement), at: 0)
    }

    /// Compiles exactly one statement; refuses SQL holding no statement or more than one.
    private func prepare(_ sql: String, persistent: Bool) throws -> Statement {
        let bytes = Array(sql.utf8)
        var compiled: OpaquePointer?
        var tailOffset = bytes.count
        let code: Int32 = bytes.withUnsafeBufferPointer { buffer in
            guard let start = buffer.baseAddress, buffer.count > 0 else { return SQLITE_OK }
            return start.withMemoryRebound(to: CChar.self, capacity: buffer.count) { base in
                var tail: UnsafePointer<CChar>?
                let code = sqlite3_prepare_v3(handle, base, Int32(buffer.count),
                                              persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0, &compiled, &tail)
                if let tail { tailOffset = base.distance(to: tail) }
                return code
            }
        }
        prepares += 1
        guard code == SQLITE_OK else {
            throw DatabaseError.last(on: handle, code: code, sql: sql)
        }
        guard let compiled else {
            throw DatabaseError(extendedResultCode: .misuse, message: "no SQL statement in the text", sql: sql)
        }
        let statement = Statement(handle: compiled, sql: sql, database: self)
        // Anything after the first statement must be nothing (whitespace, comments, semicolons).
        let rest = bytes[min(tailOffset, bytes.count)...]
        if rest.contains(where: { !Self.isWhitespace($0) }) {
            var extra: OpaquePointer?
            let restCode = rest.withUnsafeBufferPointer { buffer in
                buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { base in
                    sqlite3_prepare_v2(handle, base, Int32(buffer.count), &extra, nil)
                }
            }
            prepares += 1
            if let extra { sqlite3_finalize(extra) }
            if restCode != SQLITE_OK {
                throw DatabaseError.last(on: handle, code: restCode, sql: sql)
            }
            if extra != nil {
                throw DatabaseError(extendedResultCode: .misuse,
                                    message: "more than one statement in the text; use executeScript for several",
                                    sql: sql)
            }
        }
        return statement
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C || byte == 0x0B
    }

    private static func trimmed(_ text: String) -> String {
        let bytes = Array(text.utf8)
        guard let first = bytes.firstIndex(where: { !isWhitespace($0) }),
              let last = bytes.lastIndex(where: { !isWhitespace($0) }) else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }

    // MARK: Connection state

    /// The rowid of the last row inserted on this connection.
    public var lastInsertRowID: Int64 {
        lock.withLock { sqlite3_last_insert_rowid(handle) }
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE on this connection.
    public var changes: Int {
        lock.withLock { Int(sqlite3_changes64(handle)) }
    }

    /// Rows changed on this connection since it was opened.
    public var totalChanges: Int {
        lock.withLock { Int(sqlite3_total_changes64(handle)) }
    }

    /// True between BEGIN and COMMIT/ROLLBACK.
    public var isInTransaction: Bool {
        lock.withLock { sqlite3_get_autocommit(handle) == 0 }
    }

    /// `PRAGMA user_version`: an integer stored in the file's header for the
    /// application's use (the `Migrator` does not use it).
    public var userVersion: Int {
        get throws { try scalar("PRAGMA user_version") ?? 0 }
    }

    public func setUserVersion(_ version: Int) throws {
        try execute("PRAGMA user_version = \(version)")
    }

    /// `PRAGMA data_version`: changes when another connection (in this process
    /// or another) commits to the file; this connection's own commits leave it
    /// alone. Compare two readings to learn whether to reload.
    public var dataVersion: Int {
        get throws { try scalar("PRAGMA data_version") ?? 0 }
    }

    /// `PRAGMA journal_mode`, in lower case: `wal`, `delete`, `memory`, …
    public var journalMode: String {
        get throws { try scalar("PRAGMA journal_mode") ?? "" }
    }

    /// The SQLite library's version, such as `3.40.1`.
    public static var sqliteVersion: String {
        String(cString: sqlite3_libversion())
    }
}
