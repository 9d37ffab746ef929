import Foundation
import SQLiteDatabase
import TestSupport
import Testing

@Suite("Migrations: appended, applied once, in order, all or nothing")
struct MigratorTests {
    private static func migrator(_ names: [String]) -> Migrator {
        var migrator = Migrator()
        for name in names {
            migrator.registerMigration(name) { db in
                try db.execute("CREATE TABLE \"\(name)\"(x)")
                try db.execute("INSERT INTO log(name) VALUES (?)", [name])
            }
        }
        return migrator
    }

    private func withLoggedDatabase(_ body: (Database) throws -> Void) throws {
        try withTemporaryDatabase { db, _ throws in
            try db.execute("CREATE TABLE log(name TEXT)")
            try body(db)
        }
    }

    private func log(_ db: Database) throws -> [String] {
        try db.query("SELECT name FROM log ORDER BY rowid").map { try $0.value(0) }
    }

    private func tables(_ db: Database) throws -> [String] {
        try db.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").map { try $0.value(0) }
    }

    @Test("migrations apply once, in order, and are recorded with a time")
    func applyInOrder() throws {
        try withLoggedDatabase { db throws in
            let migrator = Self.migrator(["v1: calendars", "v2: items", "v3: alarms"])
            let before = Date().timeIntervalSince1970
            #expect(try migrator.pendingMigrations(in: db) == ["v1: calendars", "v2: items", "v3: alarms"])
            #expect(try migrator.migrate(db) == ["v1: calendars", "v2: items", "v3: alarms"])
            #expect(try log(db) == ["v1: calendars", "v2: items", "v3: alarms"])
            #expect(try migrator.appliedMigrations(in: db) == ["v1: calendars", "v2: items", "v3: alarms"])
            let times = try db.query("SELECT applied_at FROM schema_migrations ORDER BY rowid").map { try $0.value(0, as: Double.self) }
            #expect(times.count == 3)
            #expect(times.allSatisfy { $0 >= before - 1 && $0 <= Date().timeIntervalSince1970 + 1 })
            #expect(try migrator.pendingMigrations(in: db) == [])
        }
    }

    @Test("a second migrate() is a no-op that does not even write")
    func secondRunIsNoOp() throws {
        try withLoggedDatabase { db throws in
            let migrator = Self.migrator(["v1", "v2"])
            try migrator.migrate(db)
            let changes = db.totalChanges
            #expect(try migrator.migrate(db) == [])
            #expect(db.totalChanges == changes)
            #expect(try log(db) == ["v1", "v2"])
        }
    }

    @Test("a newer program's appended migrations apply on top of the older ones")
    func appendedLater() throws {
        try withLoggedDatabase { db throws in
            try Self.migrator(["v1"]).migrate(db)
            #expect(try Self.migrator(["v1", "v2", "v3"]).migrate(db) == ["v2", "v3"])
            #expect(try log(db) == ["v1", "v2", "v3"])
        }
    }

    @Test("a database with a migration this code does not know is refused and left alone")
    func unknownMigration() throws {
        try withLoggedDatabase { db throws in
            try Self.migrator(["v1", "v2"]).migrate(db)
            let older = Self.migrator(["v1"])
            let error = #expect(throws: MigrationError.self) { try older.migrate(db) }
            #expect(error == .unknownMigrations(["v2"]))
            #expect(error?.description.contains("newer version") == true)
            #expect(throws: MigrationError.unknownMigrations(["v2"])) { try older.pendingMigrations(in: db) }
            #expect(try log(db) == ["v1", "v2"])
        }
    }

    @Test("an edited history (renamed, reordered, inserted) is refused")
    func editedHistory() throws {
        try withLoggedDatabase { db throws in
            try Self.migrator(["a", "b"]).migrate(db)
            for registered in [["b", "a"], ["a", "x", "b"], ["x", "a", "b"]] {
                let error = #expect(throws: MigrationError.self) { try Self.migrator(registered).migrate(db) }
                #expect(error == .historyMismatch(recorded: ["a", "b"], registered: registered))
            }
            let renamed = #expect(throws: MigrationError.self) { try Self.migrator(["a", "b renamed"]).migrate(db) }
            #expect(renamed == .unknownMigrations(["b"]))
            #expect(try log(db) == ["a", "b"])
        }
    }

    @Test("a failing migration leaves the database exactly as before it; earlier ones stay")
    func failingMigration() throws {
        try withLoggedDatabase { db throws in
            var migrator = Self.migrator(["v1"])
            migrator.registerMigration("v2: broken") { db in
                try db.execute("CREATE TABLE half_done(x)")
                try db.execute("INSERT INTO log(name) VALUES ('v2')")
                try db.execute("INSERT INTO no_such_table VALUES (1)")
            }
            migrator.registerMigration("v3") { db in try db.execute("CREATE TABLE v3(x)") }
            let error = #expect(throws: DatabaseError.self) { try migrator.migrate(db) }
            #expect(error?.message == "no such table: no_such_table")
            #expect(try migrator.appliedMigrations(in: db) == ["v1"])
            #expect(try log(db) == ["v1"])
            #expect(try tables(db) == ["log", "schema_migrations", "v1"])
            #expect(!db.isInTransaction)
        }
    }

    @Test("a failing first migration leaves not even the bookkeeping table")
    func failingFirstMigration() throws {
        try withLoggedDatabase { db throws in
            var migrator = Migrator()
            migrator.registerMigration("v1") { db in
                try db.execute("CREATE TABLE t(x)")
                throw ExpectedFailure()
            }
            #expect(throws: ExpectedFailure()) { try migrator.migrate(db) }
            #expect(try tables(db) == ["log"])
        }
    }

    @Test("a fully migrated database passes migrate() on a read-only connection")
    func readOnlyCheck() throws {
        try withTemporaryDirectory { folder throws in
            let path = folder + "/m.sqlite"
            let migrator = Self.migrator(["v1"])
            do {
                let db = try Database(path: path)
                try db.execute("CREATE TABLE log(name TEXT)")
                try migrator.migrate(db)
            }
            let reader = try Database(path: path, options: .readOnly)
            #expect(try migrator.migrate(reader) == [])
            let error = #expect(throws: DatabaseError.self) { try Self.migrator(["v1", "v2"]).migrate(reader) }
            #expect(error?.resultCode == .readOnly)
        }
    }
}
