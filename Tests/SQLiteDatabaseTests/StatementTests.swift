import SQLiteDatabase
import Testing

@Suite("Statements: compiled once, reused, rebound")
struct StatementTests {
    private func withItems(_ body: (Database) throws -> Void) throws {
        try withTemporaryDatabase { db, _ throws in
            try db.execute("CREATE TABLE items(id INTEGER PRIMARY KEY, key TEXT UNIQUE, title TEXT)")
            try body(db)
        }
    }

    @Test("the same SQL text is compiled once and the same statement object comes back")
    func reuse() throws {
        try withItems { db throws in
            let insert = "INSERT INTO items(key, title) VALUES (?, ?)"
            try db.execute(insert, ["k0", "first"])
            let prepares = db.prepareCount
            for index in 1..<200 {
                try db.execute(insert, ["k\(index)", "title \(index)"])
            }
            #expect(db.prepareCount == prepares, "no re-prepare for a cached statement")
            let first = try db.withStatement(insert) { ObjectIdentifier($0) }
            let second = try db.withStatement(insert) { ObjectIdentifier($0) }
            #expect(first == second)
            #expect(db.prepareCount == prepares)
            #expect(try db.scalar("SELECT count(*) FROM items", as: Int.self) == 200)
            #expect(try db.scalar("SELECT title FROM items WHERE key = ?", ["k150"], as: String.self) == "title 150")
        }
    }

    @Test("rebinding a reused statement gives each call its own arguments; none leak to the next call")
    func rebinding() throws {
        try withItems { db throws in
            try db.withStatement("INSERT INTO items(key, title) VALUES (?, ?)") { statement throws in
                for (key, title) in [("a", "A"), ("b", "B"), ("c", nil)] as [(String, String?)] {
                    try statement.bind([key, title])
                    try statement.execute()
                }
            }
            let rows = try db.query("SELECT key, title FROM items ORDER BY key")
            #expect(rows.map { $0.values } == [[.text("a"), .text("A")], [.text("b"), .text("B")], [.text("c"), .null]])

            // The cached SELECT after a call with an argument: a call with a
            // different argument sees only its own.
            let select = "SELECT title FROM items WHERE key = ?"
            #expect(try db.scalar(select, ["a"], as: String.self) == "A")
            #expect(try db.scalar(select, ["b"], as: String.self) == "B")
            // Bindings are cleared after use: one bound parameter by index, read back as NULL.
            try db.withStatement(select) { statement throws in
                #expect(try statement.step() == nil, "the parameter is NULL again, so no row matches")
                try statement.bind("a", at: 1)
                #expect(try statement.step()?[0] == .text("A"))
            }
        }
    }

    @Test("texts bound in place read back byte for byte, and after the call, or a failed step, every parameter is NULL again")
    func boundInPlace() throws {
        try withItems { db throws in
            // Empty, short enough to be held inline, long, non-ASCII, with a NUL inside.
            let titles = ["", "short", String(repeating: "long text ", count: 50), "周会 (weekly sync) 🎉", "nul\u{0}inside"]
            try db.withStatement("INSERT INTO items(key, title) VALUES (?, ?)") { insert throws in
                for (index, title) in titles.enumerated() {
                    try insert.withBound([.text("k\(index)"), .text(title)], from: 1) { try insert.execute() }
                }
                // Stepped again without binding: both parameters are NULL (UNIQUE admits NULL keys).
                try insert.execute()
                let before: Int = try db.scalar("SELECT count(*) FROM items WHERE key IS NULL AND title IS NULL") ?? -1
                #expect(before == 1)
                // A step that fails (the key is taken) clears them too.
                #expect(throws: DatabaseError.self) {
                    try insert.withBound([.text("k1"), .text("again")], from: 1) { try insert.execute() }
                }
                try insert.execute()
            }
            let read: [String] = try db.query("SELECT title FROM items WHERE key IS NOT NULL ORDER BY id").map { try $0.value(0) }
            #expect(read == titles)
            #expect(try db.scalar("SELECT count(*) FROM items WHERE key IS NULL AND title IS NULL", as: Int.self) == 2)
            #expect(throws: DatabaseError.self) {
                try db.withStatement("INSERT INTO items(key, title) VALUES (?, ?)") { insert in
                    try insert.withBound([.text("a"), .text("b"), .text("c")], from: 1) { try insert.execute() }
                }
            }
        }
    }

    @Test("named parameters bind with or without their prefix, and every one must get a value")
    func namedParameters() throws {
        try withItems { db throws in
            try db.execute("INSERT INTO items(key, title) VALUES (:key, @title)", named: [":key": "n1", "title": "Named"])
            try db.execute("INSERT INTO items(key, title) VALUES ($key, :title)", named: ["key": "n2", ":title": nil])
            #expect(try db.query("SELECT key, title FROM items WHERE key LIKE :p ORDER BY key", named: ["p": "n%"])
                .map { $0.values } == [[.text("n1"), .text("Named")], [.text("n2"), .null]])
            #expect(try db.scalar("SELECT count(*) FROM items WHERE key = :k OR title = :k", named: ["k": "Named"],
                                  as: Int.self) == 1)

            let missing = #expect(throws: DatabaseError.self) {
                try db.execute("INSERT INTO items(key, title) VALUES (:key, :title)", named: ["key": "n3"])
            }
            #expect(missing?.resultCode == .range)
            #expect(missing?.message == "no value for parameter :title")
            let unknown = #expect(throws: DatabaseError.self) {
                try db.execute("INSERT INTO items(key) VALUES (:key)", named: ["key": "n4", "tittle": "typo"])
            }
            #expect(unknown?.message == "no parameter named tittle")
            try db.withStatement("SELECT :a + :b") { statement throws in
                #expect(statement.parameterNames == [":a", ":b"])
                try statement.bind(2, named: "a")
                try statement.bind(3, named: ":b")
                #expect(try statement.step()?[0] == .integer(5))
            }
        }
    }

    @Test("the number of positional arguments must match the parameters")
    func argumentCount() throws {
        try withItems { db throws in
            let tooMany = #expect(throws: DatabaseError.self) {
                try db.execute("INSERT INTO items(key) VALUES (?)", ["a", "b"])
            }
            #expect(tooMany?.resultCode == .range)
            #expect(tooMany?.message == "the statement has 1 parameter, 2 arguments were given")
            let tooFew = #expect(throws: DatabaseError.self) {
                try db.execute("INSERT INTO items(key, title) VALUES (?, ?)", ["a"])
            }
            #expect(tooFew?.message == "the statement has 2 parameters, 1 argument was given")
            #expect(try db.scalar("SELECT count(*) FROM items", as: Int.self) == 0)
        }
    }

    @Test("stepping by hand: rows, then nil, and the statement's shape")
    func stepping() throws {
        try withItems { db throws in
            try db.executeScript("INSERT INTO items(key) VALUES ('x'); INSERT INTO items(key) VALUES ('y');")
            try db.withStatement("SELECT key AS k, id FROM items ORDER BY key") { statement throws in
                #expect(statement.columnCount == 2)
                #expect(statement.columnNames == ["k", "id"])
                #expect(statement.parameterCount == 0)
                #expect(statement.isReadOnly)
                #expect(try statement.step()?["k"] == .text("x"))
                #expect(try statement.step()?["K"] == .text("y"))
                #expect(try statement.step() == nil)
                // After the end, stepping starts over.
                #expect(try statement.step()?["k"] == .text("x"))
                statement.reset()
                #expect(try statement.step()?["k"] == .text("x"))
            }
            try db.withStatement("DELETE FROM items") { #expect(!$0.isReadOnly) }
        }
    }

    @Test("the same SQL used again inside its own row loop gets a fresh statement")
    func nestedUseOfTheSameSQL() throws {
        try withItems { db throws in
            for key in ["a", "b", "c"] {
                try db.execute("INSERT INTO items(key) VALUES (?)", [key])
            }
            let select = "SELECT key FROM items WHERE key >= ? ORDER BY key"
            var pairs: [String] = []
            let cached = db.cachedStatementCount
            try db.forEachRow(select, ["a"]) { outer in
                let outerKey: String = try outer.value(0)
                try db.forEachRow(select, [outerKey]) { inner in
                    pairs.append(outerKey + (try inner.value(0) as String))
                    return true
                }
                return true
            }
            #expect(pairs == ["aa", "ab", "ac", "bb", "bc", "cc"])
            #expect(db.cachedStatementCount == cached + 1, "only the outer use is kept")
        }
    }

    @Test("one statement per call: a second one is refused, trailing semicolons and comments are not")
    func oneStatementPerCall() throws {
        try withItems { db throws in
            let error = #expect(throws: DatabaseError.self) {
                try db.execute("INSERT INTO items(key) VALUES ('a'); DELETE FROM items")
            }
            #expect(error?.resultCode == .misuse)
            #expect(try db.scalar("SELECT count(*) FROM items", as: Int.self) == 0, "nothing ran")
            try db.execute("INSERT INTO items(key) VALUES ('b');  -- a comment\n ; ")
            #expect(try db.scalar("SELECT count(*) FROM items", as: Int.self) == 1)
            #expect(throws: DatabaseError.self) { try db.execute("  -- nothing but a comment") }
            #expect(throws: DatabaseError.self) { try db.execute("") }
        }
    }

    @Test("the cache keeps at most its capacity, dropping the least recently used")
    func cacheCapacity() throws {
        var options = DatabaseOptions()
        options.statementCacheCapacity = 2
        try withTemporaryDatabase(options: options) { db, _ throws in
            db.clearStatementCache()
            #expect(db.cachedStatementCount == 0)
            _ = try db.scalar("SELECT 1", as: Int.self)
            _ = try db.scalar("SELECT 2", as: Int.self)
            _ = try db.scalar("SELECT 1", as: Int.self)  // 2 is now the least recently used
            _ = try db.scalar("SELECT 3", as: Int.self)
            #expect(db.cachedStatementCount == 2)
            let prepares = db.prepareCount
            _ = try db.scalar("SELECT 1", as: Int.self)
            #expect(db.prepareCount == prepares, "SELECT 1 stayed")
            _ = try db.scalar("SELECT 2", as: Int.self)
            #expect(db.prepareCount == prepares + 1, "SELECT 2 was dropped")
        }
        options.statementCacheCapacity = 0
        try withTemporaryDatabase(options: options) { db, _ throws in
            let prepares = db.prepareCount
            for _ in 0..<3 { _ = try db.scalar("SELECT 1", as: Int.self) }
            #expect(db.prepareCount == prepares + 3)
            #expect(db.cachedStatementCount == 0)
        }
    }

    @Test("a statement kept past its closure traps when used")
    func statementOutsideItsClosure() async {
        await #expect(processExitsWith: .failure) {
            let db = try Database(path: ":memory:")
            let statement = try db.withStatement("SELECT 1") { $0 }
            _ = try statement.step()
        }
    }
}
