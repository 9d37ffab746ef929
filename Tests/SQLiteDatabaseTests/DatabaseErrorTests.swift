import SQLiteDatabase
import TestSupport
import Testing

@Suite("Errors carry the code, the extended code, SQLite's message and the SQL")
struct DatabaseErrorTests {
    @Test("a syntax error")
    func syntaxError() throws {
        try withTemporaryDatabase { db, _ throws in
            let error = #expect(throws: DatabaseError.self) { try db.execute("SELEC 1") }
            #expect(error?.resultCode == .error)
            #expect(error?.extendedResultCode == .error)
            #expect(error?.message == "near \"SELEC\": syntax error")
            #expect(error?.sql == "SELEC 1")
            #expect(error?.description == "SQLite error 1 (SQLITE_ERROR): near \"SELEC\": syntax error — while executing SELEC 1")
        }
    }

    @Test("a UNIQUE constraint violation, with the argument count but not the values")
    func uniqueViolation() throws {
        try withTemporaryDatabase { db, _ throws in
            try db.execute("CREATE TABLE items(key TEXT UNIQUE)")
            let sql = "INSERT INTO items(key) VALUES (?)"
            try db.execute(sql, ["secret-key"])
            let error = #expect(throws: DatabaseError.self) { try db.execute(sql, ["secret-key"]) }
            #expect(error?.resultCode == .constraint)
            #expect(error?.resultCode.rawValue == 19)
            #expect(error?.extendedResultCode == .constraintUnique)
            #expect(error?.extendedResultCode.rawValue == 2067)
            #expect(error?.message == "UNIQUE constraint failed: items.key")
            #expect(error?.sql == sql)
            #expect(error?.argumentCount == 1)
            #expect(error?.description == "SQLite error 19 (SQLITE_CONSTRAINT_UNIQUE): UNIQUE constraint failed: items.key — while executing INSERT INTO items(key) VALUES (?) with 1 argument")
            #expect(error?.description.contains("secret-key") == false)
            // The cached statement works again after the failure.
            try db.execute(sql, ["other"])
            #expect(try db.scalar("SELECT count(*) FROM items", as: Int.self) == 2)
        }
    }

    @Test("a missing table")
    func missingTable() throws {
        try withTemporaryDatabase { db, _ throws in
            let error = #expect(throws: DatabaseError.self) { try db.query("SELECT * FROM nowhere WHERE id = ?", [1]) }
            #expect(error?.resultCode == .error)
            #expect(error?.message == "no such table: nowhere")
            #expect(error?.sql == "SELECT * FROM nowhere WHERE id = ?")
        }
    }

    @Test("NOT NULL and foreign-key violations have their extended codes (foreign keys are on)")
    func otherConstraints() throws {
        try withTemporaryDatabase { db, _ throws in
            try db.executeScript("""
                CREATE TABLE calendars(id INTEGER PRIMARY KEY);
                CREATE TABLE items(id INTEGER PRIMARY KEY, calendar INTEGER NOT NULL REFERENCES calendars(id));
                """)
            let notNull = #expect(throws: DatabaseError.self) { try db.execute("INSERT INTO items(calendar) VALUES (NULL)") }
            #expect(notNull?.extendedResultCode == .constraintNotNull)
            #expect(notNull?.extendedResultCode.name == "SQLITE_CONSTRAINT_NOTNULL")
            let foreign = #expect(throws: DatabaseError.self) { try db.execute("INSERT INTO items(calendar) VALUES (7)") }
            #expect(foreign?.extendedResultCode == .constraintForeignKey)
            #expect(foreign?.message == "FOREIGN KEY constraint failed")
        }
    }

    @Test("a script stops at the failing statement, names it, and keeps what ran before")
    func scriptError() throws {
        try withTemporaryDatabase { db, _ throws in
            let error = #expect(throws: DatabaseError.self) {
                try db.executeScript("""
                    CREATE TABLE a(x);
                    INSERT INTO a VALUES (1);
                    INSERT INTO missing VALUES (2);
                    INSERT INTO a VALUES (3);
                    """)
            }
            #expect(error?.sql == "INSERT INTO missing VALUES (2);")
            #expect(error?.message == "no such table: missing")
            #expect(try db.query("SELECT x FROM a").map { $0[0] } == [.integer(1)])
        }
    }

    @Test("opening a file that cannot be opened names the path")
    func openFailure() throws {
        try withTemporaryDirectory { folder throws in
            let path = folder + "/no/such/folder/db.sqlite"
            var options = DatabaseOptions()
            options.filePermissions = nil  // let SQLite itself fail
            let error = #expect(throws: DatabaseError.self) { try Database(path: path, options: options) }
            #expect(error?.resultCode == .cannotOpen)
            #expect(error?.message.hasSuffix(path) == true)
            let ours = #expect(throws: DatabaseError.self) { try Database(path: path) }
            #expect(ours?.resultCode == .cannotOpen)
            #expect(ours?.message == "cannot create the database file \(path): No such file or directory")
        }
    }

    @Test("result codes know SQLite's names, and make one up for codes they do not know")
    func codeNames() {
        #expect(ResultCode.busy.name == "SQLITE_BUSY")
        #expect(ResultCode.busyTimeout.name == "SQLITE_BUSY_TIMEOUT")
        #expect(ResultCode(rawValue: 10 | 33 << 8).name == "SQLITE_IOERR_CORRUPTFS")
        #expect(ResultCode(rawValue: 19 | 99 << 8).name == "SQLITE_CONSTRAINT_99")
        #expect(ResultCode(rawValue: 77).name == "SQLITE_77")
        #expect(ResultCode.constraintUnique.primary == .constraint)
    }
}
