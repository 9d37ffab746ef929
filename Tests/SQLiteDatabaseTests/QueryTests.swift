import SQLiteDatabase
import Testing

@Suite("Queries, rows and connection state")
struct QueryTests {
    private func withNumbers(_ count: Int, _ body: (Database) throws -> Void) throws {
        try withTemporaryDatabase { db, _ throws in
            try db.execute("CREATE TABLE numbers(n INTEGER PRIMARY KEY, square INTEGER, name TEXT)")
            try db.transaction {
                for n in 1...count {
                    try db.execute("INSERT INTO numbers VALUES (?, ?, ?)", [n, n * n, "n\(n)"])
                }
            }
            try body(db)
        }
    }

    @Test("rows give their values by index and by column name, aliases and any case")
    func rows() throws {
        try withNumbers(3) { db throws in
            let rows = try db.query("SELECT n, square AS sq, name FROM numbers WHERE n >= ? ORDER BY n", [2])
            #expect(rows.count == 2)
            let row = rows[0]
            #expect(row.columnNames == ["n", "sq", "name"])
            #expect(row.count == 3)
            #expect(row[1] == .integer(4))
            #expect(row["sq"] == .integer(4))
            #expect(row["SQ"] == .integer(4))
            #expect(row["square"] == nil)
            #expect(try row.value("name") == "n2")
            #expect(try row.value(0) == 2)
            #expect(row.description == "[n: 2, sq: 4, name: 'n2']")
            let missing = #expect(throws: DatabaseError.self) { try row.value("nope", as: Int.self) }
            #expect(missing?.resultCode == .range)
            #expect(throws: DatabaseError.self) { try row.value(3, as: Int.self) }
        }
    }

    @Test("forEachRow stops when the body says so, and the statement starts over next time")
    func forEachRowStopsEarly() throws {
        try withNumbers(1000) { db throws in
            var seen: [Int] = []
            try db.forEachRow("SELECT n FROM numbers ORDER BY n") { row in
                seen.append(try row.value(0))
                return seen.count < 3
            }
            #expect(seen == [1, 2, 3])
            var total = 0
            try db.forEachRow("SELECT n FROM numbers ORDER BY n") { row in
                total += try row.value(0, as: Int.self)
                return true
            }
            #expect(total == 500_500)
            #expect(!db.isInTransaction, "a stopped iteration holds no read transaction")
        }
    }

    @Test("a throw from forEachRow's body comes out and leaves the statement reusable")
    func forEachRowThrows() throws {
        try withNumbers(10) { db throws in
            #expect(throws: ExpectedFailure()) {
                try db.forEachRow("SELECT n FROM numbers WHERE n > ?", [5]) { _ in throw ExpectedFailure() }
            }
            #expect(try db.query("SELECT n FROM numbers WHERE n > ?", [8]).count == 2)
        }
    }

    @Test("scalar: the first value, nil without a row or for NULL")
    func scalars() throws {
        try withNumbers(3) { db throws in
            #expect(try db.scalar("SELECT square FROM numbers WHERE n = ?", [3], as: Int.self) == 9)
            #expect(try db.scalar("SELECT square FROM numbers WHERE n = ?", [99], as: Int.self) == nil)
            #expect(try db.scalar("SELECT NULL", as: Int.self) == nil)
            #expect(try db.scalar("SELECT name FROM numbers WHERE n = :n", named: ["n": 1], as: String.self) == "n1")
        }
    }

    @Test("lastInsertRowID, changes and totalChanges follow the connection's writes")
    func connectionCounters() throws {
        try withNumbers(5) { db throws in
            try db.execute("INSERT INTO numbers(square, name) VALUES (?, ?)", [36, "six"])
            #expect(db.lastInsertRowID == 6)
            #expect(db.changes == 1)
            try db.execute("UPDATE numbers SET name = upper(name) WHERE n <= ?", [3])
            #expect(db.changes == 3)
            #expect(db.totalChanges == 5 + 1 + 3)
        }
    }

    @Test("user_version reads and writes")
    func userVersion() throws {
        try withTemporaryDatabase { db, path throws in
            #expect(try db.userVersion == 0)
            try db.setUserVersion(7)
            #expect(try db.userVersion == 7)
            #expect(try Database(path: path).userVersion == 7)
        }
    }

    @Test("a script runs every statement, triggers and comments included")
    func scripts() throws {
        try withTemporaryDatabase { db, _ throws in
            try db.executeScript("""
                -- a schema
                CREATE TABLE items(id INTEGER PRIMARY KEY, title TEXT, updated INTEGER DEFAULT 0);
                CREATE TRIGGER touch AFTER UPDATE OF title ON items BEGIN
                    UPDATE items SET updated = updated + 1 WHERE id = new.id;
                END;
                INSERT INTO items(title) VALUES ('a'); /* block comment */ UPDATE items SET title = 'b';
                SELECT 1;
                """)
            #expect(try db.scalar("SELECT updated FROM items", as: Int.self) == 1)
            try db.executeScript("")
            try db.executeScript("  ;; -- nothing ")
        }
    }

    @Test("the SQLite library is the one from Debian, 3.40 or newer")
    func version() {
        let parts = Database.sqliteVersion.split(separator: ".").compactMap { Int($0) }
        #expect(parts.count >= 2)
        #expect(parts[0] == 3 && parts[1] >= 40)
    }
}
