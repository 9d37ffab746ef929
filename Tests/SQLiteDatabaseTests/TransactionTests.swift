import Dispatch
import Glibc
import SQLiteDatabase
import Testing

@Suite("Transactions commit on return and roll back on throw")
struct TransactionTests {
    private func withItems(_ body: (Database, String) throws -> Void) throws {
        try withTemporaryDatabase { db, path throws in
            try db.execute("CREATE TABLE items(key TEXT PRIMARY KEY)")
            try body(db, path)
        }
    }

    private func keys(_ db: Database) throws -> [String] {
        try db.query("SELECT key FROM items ORDER BY rowid").map { try $0.value(0) }
    }

    @Test("a transaction commits when its body returns, and returns the body's value")
    func commit() throws {
        try withItems { db, path throws in
            let count = try db.transaction {
                try db.execute("INSERT INTO items VALUES ('a')")
                #expect(db.isInTransaction)
                try db.execute("INSERT INTO items VALUES ('b')")
                return try db.scalar("SELECT count(*) FROM items", as: Int.self)
            }
            #expect(count == 2)
            #expect(!db.isInTransaction)
            let other = try Database(path: path)
            #expect(try keys(other) == ["a", "b"], "another connection sees the commit")
        }
    }

    @Test("a throw rolls back everything the body did and comes out unchanged")
    func rollback() throws {
        try withItems { db, _ throws in
            try db.execute("INSERT INTO items VALUES ('before')")
            #expect(throws: ExpectedFailure()) {
                try db.transaction {
                    try db.execute("INSERT INTO items VALUES ('a')")
                    try db.execute("DELETE FROM items WHERE key = 'before'")
                    try db.execute("CREATE TABLE extra(x)")
                    throw ExpectedFailure()
                }
            }
            #expect(!db.isInTransaction)
            #expect(try keys(db) == ["before"])
            #expect(try db.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'extra'", as: Int.self) == 0)
        }
    }

    @Test("a failing statement inside rolls back the statements before it")
    func rollbackOnDatabaseError() throws {
        try withItems { db, _ throws in
            let error = #expect(throws: DatabaseError.self) {
                try db.transaction {
                    try db.execute("INSERT INTO items VALUES ('a')")
                    try db.execute("INSERT INTO items VALUES ('a')")
                }
            }
            #expect(error?.extendedResultCode == .constraintPrimaryKey)
            #expect(try keys(db).isEmpty)
        }
    }

    @Test("a nested transaction is a savepoint: its throw undoes only its own part")
    func nestedRollback() throws {
        try withItems { db, _ throws in
            try db.transaction {
                try db.execute("INSERT INTO items VALUES ('outer 1')")
                #expect(throws: ExpectedFailure()) {
                    try db.transaction {
                        try db.execute("INSERT INTO items VALUES ('inner')")
                        try db.transaction {
                            try db.execute("INSERT INTO items VALUES ('innermost')")
                        }
                        throw ExpectedFailure()
                    }
                }
                try db.transaction {
                    try db.execute("INSERT INTO items VALUES ('inner kept')")
                }
                #expect(db.isInTransaction)
                try db.execute("INSERT INTO items VALUES ('outer 2')")
            }
            #expect(try keys(db) == ["outer 1", "inner kept", "outer 2"])
        }
    }

    @Test("an outer rollback also undoes its committed savepoints")
    func outerRollbackUndoesSavepoints() throws {
        try withItems { db, _ throws in
            #expect(throws: ExpectedFailure()) {
                try db.transaction {
                    try db.transaction { try db.execute("INSERT INTO items VALUES ('inner')") }
                    throw ExpectedFailure()
                }
            }
            #expect(try keys(db).isEmpty)
        }
    }

    @Test("transactions nested in a folding one take no savepoints: a caught throw keeps their writes, the outer throw undoes all")
    func foldingNested() throws {
        try withItems { db, _ throws in
            try db.transaction(foldingNested: true) {
                try db.transaction {
                    try db.execute("INSERT INTO items VALUES ('piece 1')")
                    // Deeper transactions fold too; the depth is back to the outer one's after.
                    #expect(throws: ExpectedFailure()) {
                        try db.transaction {
                            try db.execute("INSERT INTO items VALUES ('piece 2')")
                            throw ExpectedFailure()
                        }
                    }
                }
                #expect(try keys(db) == ["piece 1", "piece 2"], "a folded transaction's throw leaves what it wrote")
            }
            #expect(try keys(db) == ["piece 1", "piece 2"])
            // The fold ends with its transaction: later nested ones are savepoints again.
            _ = try db.transaction {
                #expect(throws: ExpectedFailure()) {
                    try db.transaction {
                        try db.execute("INSERT INTO items VALUES ('undone')")
                        throw ExpectedFailure()
                    }
                }
            }
            #expect(try keys(db) == ["piece 1", "piece 2"])
            #expect(throws: ExpectedFailure()) {
                try db.transaction(foldingNested: true) {
                    try db.transaction { try db.execute("INSERT INTO items VALUES ('inner')") }
                    throw ExpectedFailure()
                }
            }
            #expect(try keys(db) == ["piece 1", "piece 2"])
            #expect(!db.isInTransaction)
        }
    }

    @Test("a folding transaction inside another is that one's savepoint, and folds what is nested in it")
    func foldingInsideSavepoint() throws {
        try withItems { db, _ throws in
            try db.transaction {
                try db.execute("INSERT INTO items VALUES ('outer')")
                #expect(throws: ExpectedFailure()) {
                    try db.transaction(foldingNested: true) {
                        try? db.transaction {
                            try db.execute("INSERT INTO items VALUES ('folded')")
                            throw ExpectedFailure()
                        }
                        #expect(try keys(db) == ["outer", "folded"])
                        throw ExpectedFailure()
                    }
                }
            }
            #expect(try keys(db) == ["outer"])
        }
    }

    @Test("a failing COMMIT (a deferred foreign key) rolls back and throws")
    func failingCommit() throws {
        try withTemporaryDatabase { db, _ throws in
            try db.executeScript("""
                CREATE TABLE calendars(id INTEGER PRIMARY KEY);
                CREATE TABLE items(calendar INTEGER REFERENCES calendars(id));
                """)
            let error = #expect(throws: DatabaseError.self) {
                try db.transaction {
                    try db.execute("PRAGMA defer_foreign_keys = ON")
                    try db.execute("INSERT INTO items VALUES (42)")
                }
            }
            #expect(error?.extendedResultCode == .constraintForeignKey)
            #expect(error?.sql == "COMMIT")
            #expect(!db.isInTransaction)
            #expect(try db.scalar("SELECT count(*) FROM items", as: Int.self) == 0)
        }
    }

    @Test("every kind of transaction works")
    func kinds() throws {
        try withItems { db, _ throws in
            for (index, kind) in [TransactionKind.deferred, .immediate, .exclusive].enumerated() {
                try db.transaction(kind) { try db.execute("INSERT INTO items VALUES (?)", ["\(index)"]) }
            }
            #expect(try keys(db) == ["0", "1", "2"])
        }
    }

    @Test("another thread's statement on the same Database waits for the transaction and is not rolled back with it")
    func otherThreadWaits() throws {
        try withItems { db, _ throws in
            let started = DispatchSemaphore(value: 0)
            let finished = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                started.wait()
                try? db.execute("INSERT INTO items VALUES ('other thread')")
                finished.signal()
            }
            #expect(throws: ExpectedFailure()) {
                try db.transaction {
                    try db.execute("INSERT INTO items VALUES ('mine')")
                    started.signal()
                    usleep(50_000)
                    throw ExpectedFailure()
                }
            }
            finished.wait()
            #expect(try keys(db) == ["other thread"])
        }
    }
}
