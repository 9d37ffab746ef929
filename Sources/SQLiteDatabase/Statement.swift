import CSQLite

/// One compiled SQL statement (`sqlite3_stmt`), finalized when released.
///
/// Statements come from `Database.withStatement(_:_:)`, which lends a cached
/// one for the length of a closure and, afterwards, resets it and clears its
/// bindings, ready for the next caller of the same SQL. Use a statement only
/// inside that closure: every method checks that the calling thread holds the
/// database's lock (the closure does) and traps otherwise.
///
///     try db.withStatement("INSERT INTO items(key, title) VALUES (?, ?)") { statement in
///         for (key, title) in pairs {
///             try statement.bind([key, title])
///             try statement.execute()
///         }
///     }
///
/// Parameters are numbered from 1, as in SQLite (`?`, `?NNN`, `:name`, `@name`,
/// `$name`); result columns from 0.
public final class Statement {
    /// The SQL this statement was compiled from.
    public let sql: String
    let handle: OpaquePointer
    unowned let database: Database

    /// Lent out by `Database.withStatement`; a nested use of the same SQL gets a fresh statement.
    var isInUse = false
    /// The cache's clock reading at the last lending, for evicting the least recently used.
    var lastUse: UInt64 = 0
    /// How many arguments the last `bind` call set, for error messages.
    private var boundArgumentCount: Int?
    /// Whether a parameter may hold a value since bindings were last
    /// cleared: `recycle` clears them only then (an import's rows are
    /// cleared by `withBound` already, and clearing again cost a fortieth
    /// of its writing thread).
    private var mayHoldBindings = false
    /// Parameter names (with their prefix, and without it) to indexes, read
    /// once: a cached statement is bound by name again and again.
    private lazy var parameterIndexes: [String: Int32] = {
        var indexes: [String: Int32] = [:]
        let count = sqlite3_bind_parameter_count(handle)
        guard count > 0 else { return indexes }
        for index in 1...count {
            guard let name = sqlite3_bind_parameter_name(handle, index).map({ String(cString: $0) }) else { continue }
            if indexes[name] == nil { indexes[name] = index }
            let bare = String(name.dropFirst())
            if !bare.isEmpty, indexes[bare] == nil { indexes[bare] = index }
        }
        return indexes
    }()
    /// The result's column names, read at the first row after a reset (a
    /// schema change can alter what `SELECT *` returns).
    private var columns: RowColumns?

    /// The connection's lock, kept for `deinit`, which may run after the
    /// `Database` is gone (the connection lingers until the last statement).
    private let lock: ConnectionLock

    init(handle: OpaquePointer, sql: String, database: Database) {
        self.handle = handle
        self.sql = sql
        self.database = database
        lock = database.lock
    }

    deinit {
        // Under the connection's lock: the connection runs without SQLite's
        // own mutex, and a statement someone kept may be released on any thread.
        lock.withLock { _ = sqlite3_finalize(handle) }
    }

    // MARK: Shape

    /// The number of parameters: the largest parameter index.
    public var parameterCount: Int {
        checkAccess()
        return Int(sqlite3_bind_parameter_count(handle))
    }

    /// The parameter names, by index from 1; nil for a nameless `?`.
    public var parameterNames: [String?] {
        checkAccess()
        return (0..<sqlite3_bind_parameter_count(handle)).map { index in
            sqlite3_bind_parameter_name(handle, index + 1).map { String(cString: $0) }
        }
    }

    public var columnCount: Int {
        checkAccess()
        return Int(sqlite3_column_count(handle))
    }

    public var columnNames: [String] {
        checkAccess()
        return (0..<sqlite3_column_count(handle)).map { index in
            sqlite3_column_name(handle, index).map { String(cString: $0) } ?? ""
        }
    }

    /// True when the statement makes no direct change to the database file.
    public var isReadOnly: Bool {
        checkAccess()
        return sqlite3_stmt_readonly(handle) != 0
    }

    // MARK: Binding

    /// Binds every parameter in order, from index 1. The number of arguments must
    /// equal `parameterCount`; otherwise throws a `DatabaseError` with code `.range`.
    public func bind(_ arguments: [(any DatabaseValueConvertible)?]) throws {
        checkAccess()
        let expected = Int(sqlite3_bind_parameter_count(handle))
        guard arguments.count == expected else {
            throw DatabaseError(extendedResultCode: .range,
                                message: "the statement has \(expected) parameter\(expected == 1 ? "" : "s"), \(arguments.count) argument\(arguments.count == 1 ? " was" : "s were") given",
                                sql: sql, argumentCount: arguments.count)
        }
        clearBindingsNow()
        boundArgumentCount = arguments.count
        for (offset, argument) in arguments.enumerated() {
            try bindValue(argument?.databaseValue ?? .null, at: Int32(offset + 1))
        }
    }

    /// Binds parameters by name. A key may carry its prefix (`:title`, `@title`,
    /// `$title`) or not (`title`, then `:`, `@` and `$` are tried). Every key must
    /// name a parameter and every named parameter must get a value; otherwise
    /// throws a `DatabaseError` with code `.range`.
    public func bind(named arguments: [String: (any DatabaseValueConvertible)?]) throws {
        checkAccess()
        clearBindingsNow()
        boundArgumentCount = arguments.count
        var bound = Set<Int32>(minimumCapacity: arguments.count)
        for (name, argument) in arguments {
            let index = try parameterIndex(of: name)
            try bindValue(argument?.databaseValue ?? .null, at: index)
            bound.insert(index)
        }
        let count = sqlite3_bind_parameter_count(handle)
        if bound.count < Int(count) {
            let missing = (1...count).filter { !bound.contains($0) }.map { index in
                sqlite3_bind_parameter_name(handle, index).map { String(cString: $0) } ?? "?\(index)"
            }
            throw DatabaseError(extendedResultCode: .range,
                                message: "no value for parameter\(missing.count == 1 ? "" : "s") \(missing.joined(separator: ", "))",
                                sql: sql, argumentCount: arguments.count)
        }
    }

    /// Binds one parameter by its index, from 1. Other bindings stay.
    public func bind(_ value: (any DatabaseValueConvertible)?, at index: Int) throws {
        checkAccess()
        guard index >= 1, index <= Int(sqlite3_bind_parameter_count(handle)) else {
            throw DatabaseError(extendedResultCode: .range,
                                message: "parameter index \(index) out of range 1...\(sqlite3_bind_parameter_count(handle))",
                                sql: sql)
        }
        try bindValue(value?.databaseValue ?? .null, at: Int32(index))
    }

    /// Binds one value by its index, from 1, as the boxed form does: for a
    /// row written many times, without boxing the value as an existential.
    public func bind(_ value: DatabaseValue, at index: Int) throws {
        try prepareToBind(1, from: index)
        try bindValue(value, at: Int32(index))
    }

    /// Checks that `count` parameters from `index` (from 1) exist, before they are bound.
    private func prepareToBind(_ count: Int, from index: Int) throws {
        checkAccess()
        let parameters = Int(sqlite3_bind_parameter_count(handle))
        guard index >= 1, index + count - 1 <= parameters else {
            throw DatabaseError(extendedResultCode: .range,
                                message: "parameters \(index)...\(index + count - 1) out of range 1...\(parameters)", sql: sql)
        }
        boundArgumentCount = parameters
    }

    /// Binds `values` to consecutive parameters from `index` (from 1) on;
    /// the others keep their bindings. For statements run once per row of a
    /// large batch: the values are not boxed as existentials one by one.
    public func bind(_ values: [DatabaseValue], from index: Int) throws {
        try prepareToBind(values.count, from: index)
        for offset in values.indices {
            try bindValue(values[offset], at: Int32(index + offset))
        }
    }

    /// Binds `values` to consecutive parameters from `index` (from 1), as
    /// `bind(_:from:)` does, and runs `body` (which steps the statement)
    /// while they are bound; after it, every parameter is NULL again.
    ///
    /// Texts are bound in place, not copied: each one's bytes are held
    /// (`withUTF8`, one closure inside the other) until `body` returns, and
    /// SQLite is told they stay (SQLITE_STATIC). Copying each bound text and
    /// freeing it again was a seventh of what an import's writing thread
    /// did besides SQLite's own work. No pointer outlives the call: the
    /// parameters are set to NULL before it returns or throws.
    public func withBound<T>(_ values: [DatabaseValue], from index: Int, _ body: () throws -> T) throws -> T {
        try prepareToBind(values.count, from: index)
        // One call for all: NULL bound parameter by parameter cost more than the copies saved.
        defer { clearBindingsNow() }
        // Bounded by the values: each level binds at least one and goes on from the next.
        func bind(from offset: Int) throws -> T {
            var next = offset
            while next < values.count {
                let parameter = Int32(index + next)
                // An empty text as `bindValue` binds it: its buffer may have no address, and a null pointer would bind NULL.
                guard case .text(var text) = values[next], !text.isEmpty else {
                    try bindValue(values[next], at: parameter)
                    next += 1
                    continue
                }
                let following = next + 1
                mayHoldBindings = true
                return try text.withUTF8 { bytes in
                    let code = bytes.withMemoryRebound(to: CChar.self) { characters in
                        sqlite3_bind_text64(handle, parameter, characters.baseAddress, sqlite3_uint64(characters.count), nil, UInt8(SQLITE_UTF8))
                    }
                    guard code == SQLITE_OK else {
                        throw DatabaseError.last(on: database.handle, code: code, sql: sql, argumentCount: boundArgumentCount)
                    }
                    return try bind(from: following)
                }
            }
            return try body()
        }
        return try bind(from: 0)
    }

    /// Binds one parameter by its name (with or without prefix). Other bindings stay.
    public func bind(_ value: (any DatabaseValueConvertible)?, named name: String) throws {
        checkAccess()
        try bindValue(value?.databaseValue ?? .null, at: parameterIndex(of: name))
    }

    /// Sets every parameter back to NULL.
    public func clearBindings() {
        checkAccess()
        clearBindingsNow()
        boundArgumentCount = nil
    }

    private func parameterIndex(of name: String) throws -> Int32 {
        if let index = parameterIndexes[name] { return index }
        let candidates = name.first.map { ":@$?".contains($0) } == true ? [name] : [":" + name, "@" + name, "$" + name]
        for candidate in candidates {
            let index = sqlite3_bind_parameter_index(handle, candidate)
            if index > 0 { return index }
        }
        throw DatabaseError(extendedResultCode: .range, message: "no parameter named \(name)", sql: sql)
    }

    private func clearBindingsNow() {
        sqlite3_clear_bindings(handle)
        mayHoldBindings = false
    }

    private func bindValue(_ value: DatabaseValue, at index: Int32) throws {
        mayHoldBindings = true
        let code: Int32
        switch value {
        case .null:
            code = sqlite3_bind_null(handle, index)
        case .integer(let integer):
            code = sqlite3_bind_int64(handle, index, integer)
        case .real(let real):
            code = sqlite3_bind_double(handle, index, real)
        case .text(var text):
            // The byte count, not a NUL terminator, delimits the text, so NUL
            // characters survive. A null pointer would bind NULL, hence the
            // special case for the empty string.
            code = text.withUTF8 { bytes in
                guard let base = bytes.baseAddress, bytes.count > 0 else {
                    // The program's own empty literal, which SQLite need not copy
                    // (a nil destructor is SQLITE_STATIC): a String "" passed
                    // as a C string was made one at each call (a tenth of all
                    // binding in an import).
                    return ("" as StaticString).utf8Start.withMemoryRebound(to: CChar.self, capacity: 1) { empty in
                        sqlite3_bind_text(handle, index, empty, 0, nil)
                    }
                }
                return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { characters in
                    sqlite3_bind_text64(handle, index, characters, sqlite3_uint64(bytes.count),
                                        csqlite_transient(), UInt8(SQLITE_UTF8))
                }
            }
        case .blob(let bytes):
            // Same trap: an empty blob through sqlite3_bind_blob may become NULL.
            if bytes.isEmpty {
                code = sqlite3_bind_zeroblob(handle, index, 0)
            } else {
                code = bytes.withUnsafeBytes { buffer in
                    sqlite3_bind_blob64(handle, index, buffer.baseAddress, sqlite3_uint64(buffer.count),
                                        csqlite_transient())
                }
            }
        }
        guard code == SQLITE_OK else {
            throw DatabaseError.last(on: database.handle, code: code, sql: sql, argumentCount: boundArgumentCount)
        }
    }

    // MARK: Stepping

    /// Runs the statement one step: the next row, or nil when it has finished.
    /// After nil, a further `step()` starts the statement again from the top.
    public func step() throws -> Row? {
        checkAccess()
        guard try stepRaw() else { return nil }
        return currentRow()
    }

    /// Runs the statement one step without building a `Row`: true when a row
    /// is ready, to be read with the typed column accessors below. For loops
    /// over many rows, where a `Row`'s array and name lookups would dominate.
    public func advance() throws -> Bool {
        checkAccess()
        return try stepRaw()
    }

    /// Whether the current row's column `index` (from 0) is NULL.
    public func isNull(_ index: Int) -> Bool {
        sqlite3_column_type(handle, Int32(index)) == SQLITE_NULL
    }

    /// The current row's column `index` as an integer, with SQLite's
    /// conversions (NULL reads as 0).
    public func int64(_ index: Int) -> Int64 {
        sqlite3_column_int64(handle, Int32(index))
    }

    /// The current row's column `index` as a real (NULL reads as 0).
    public func double(_ index: Int) -> Double {
        sqlite3_column_double(handle, Int32(index))
    }

    /// The current row's column `index` as text, nil for NULL.
    public func text(_ index: Int) -> String? {
        // Pointer first, then the byte count (the order SQLite documents).
        guard let characters = sqlite3_column_text(handle, Int32(index)) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, Int32(index)))
        return String(decoding: UnsafeBufferPointer(start: characters, count: count), as: UTF8.self)
    }

    /// The current row's column `index` as UTF-8 bytes, lent to `body`; nil
    /// for NULL. For comparing or skipping text without making a `String`
    /// of it. The bytes are valid only inside `body`.
    public func withUTF8<T>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T? {
        guard let characters = sqlite3_column_text(handle, Int32(index)) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, Int32(index)))
        return try body(UnsafeBufferPointer(start: characters, count: count))
    }

    /// Runs the statement to its end, ignoring any rows.
    public func execute() throws {
        checkAccess()
        while try stepRaw() {}
    }

    /// Rewinds the statement, keeping its bindings.
    public func reset() {
        checkAccess()
        sqlite3_reset(handle)
        columns = nil
    }

    /// One `sqlite3_step`: true when a row is ready.
    func stepRaw() throws -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW:
            return true
        case SQLITE_DONE:
            // Rewind so the statement holds no read snapshot open; the next
            // step starts over, as sqlite3_step's automatic reset would.
            sqlite3_reset(handle)
            columns = nil
            return false
        default:
            let error = DatabaseError.last(on: database.handle, code: code, sql: sql, argumentCount: boundArgumentCount)
            sqlite3_reset(handle)
            columns = nil
            throw error
        }
    }

    /// The row the last step produced.
    func currentRow() -> Row {
        let count = sqlite3_column_count(handle)
        let columns: RowColumns
        if let cached = self.columns, cached.names.count == Int(count) {
            columns = cached
        } else {
            columns = RowColumns(names: (0..<count).map { index in
                sqlite3_column_name(handle, index).map { String(cString: $0) } ?? ""
            }, sql: sql)
            self.columns = columns
        }
        var values: [DatabaseValue] = []
        values.reserveCapacity(Int(count))
        for index in 0..<count {
            values.append(columnValue(at: index))
        }
        return Row(values: values, columns: columns)
    }

    private func columnValue(at index: Int32) -> DatabaseValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(handle, index))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(handle, index))
        case SQLITE_TEXT:
            // Pointer first, then the byte count (the order SQLite documents).
            guard let characters = sqlite3_column_text(handle, index) else { return .text("") }
            let count = Int(sqlite3_column_bytes(handle, index))
            return .text(String(decoding: UnsafeBufferPointer(start: characters, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            guard let bytes = sqlite3_column_blob(handle, index) else { return .blob([]) }
            let count = Int(sqlite3_column_bytes(handle, index))
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default:
            return .null
        }
    }

    /// Back to the cache: rewound, bindings cleared, free for the next user.
    func recycle() {
        sqlite3_reset(handle)
        if mayHoldBindings { clearBindingsNow() }
        boundArgumentCount = nil
        columns = nil
        isInUse = false
    }

    /// The threading contract: only the thread that holds the database's lock.
    private func checkAccess() {
        precondition(database.lock.isHeldByCurrentThread,
                     "a Statement was used outside Database.withStatement (or from another thread)")
    }
}
