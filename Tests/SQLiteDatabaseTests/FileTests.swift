import Foundation
import Glibc
import SQLiteDatabase
import TestSupport
import Testing

@Suite("Files: WAL, private modes, read-only access")
struct FileTests {
    @Test("WAL mode is on, for this connection and the next")
    func walMode() throws {
        try withTemporaryDatabase { db, path throws in
            #expect(try db.journalMode == "wal")
            var options = DatabaseOptions()
            options.journalMode = nil
            let other = try Database(path: path, options: options)
            #expect(try other.journalMode == "wal", "WAL is a property of the file")
            #expect(try db.scalar("PRAGMA foreign_keys", as: Bool.self) == true)
        }
    }

    @Test("a file being made can keep its rollback journal in memory and commit without syncing; the next connection sets WAL again")
    func builtInMemoryJournal() throws {
        try withTemporaryDirectory { folder throws in
            let path = folder + "/built.sqlite"
            do {
                let db = try Database(path: path, options: DatabaseOptions(journalMode: .memory, syncsCommits: false))
                #expect(try db.journalMode == "memory")
                #expect(try db.scalar("PRAGMA synchronous", as: Int.self) == 0)
                try db.execute("CREATE TABLE t(x)")
                try db.transaction { try db.execute("INSERT INTO t VALUES (1)") }
                // Rolled back from the journal in memory.
                struct Refused: Error {}
                #expect(throws: Refused.self) {
                    try db.transaction {
                        try db.execute("INSERT INTO t VALUES (2)")
                        throw Refused()
                    }
                }
            }
            #expect(!FileManager.default.fileExists(atPath: path + "-journal") && !FileManager.default.fileExists(atPath: path + "-wal"))
            let next = try Database(path: path)
            #expect(try next.journalMode == "wal")
            #expect(try next.scalar("PRAGMA synchronous", as: Int.self) == 2)
            #expect(try next.query("SELECT x FROM t").map { try $0.value(0) as Int } == [1])
        }
    }

    @Test("the database and its -wal and -shm files are created 0600, its folders 0700")
    func privateModes() throws {
        try withTemporaryDirectory { folder throws in
            let path = folder + "/data/chime/chime.sqlite"
            try Database.createParentDirectory(of: path)
            #expect(permissions(of: folder + "/data") == 0o700)
            #expect(permissions(of: folder + "/data/chime") == 0o700)
            let db = try Database(path: path)
            try db.execute("CREATE TABLE t(x)")
            try db.execute("INSERT INTO t VALUES (1)")
            #expect(permissions(of: path) == 0o600)
            #expect(fileExists(path + "-wal"))
            #expect(permissions(of: path + "-wal") == 0o600)
            #expect(permissions(of: path + "-shm") == 0o600)
        }
    }

    @Test("the mode asked for is the mode given, umask or not, and SQLite copies it to -wal and -shm")
    func otherModes() throws {
        try withTemporaryDirectory { folder throws in
            var options = DatabaseOptions()
            options.filePermissions = 0o640
            let path = folder + "/group.sqlite"
            let db = try Database(path: path, options: options)
            try db.execute("CREATE TABLE t(x)")
            #expect(permissions(of: path) == 0o640)
            #expect(permissions(of: path + "-wal") == 0o640)
            #expect(permissions(of: path + "-shm") == 0o640)

            // Without filePermissions SQLite creates it: 0644 less the umask, not private.
            options.filePermissions = nil
            let plain = try Database(path: folder + "/plain.sqlite", options: options)
            try plain.execute("CREATE TABLE t(x)")
            #expect(permissions(of: folder + "/plain.sqlite") != 0o600)
        }
    }

    @Test("an existing file keeps its mode and its content")
    func existingFile() throws {
        try withTemporaryDirectory { folder throws in
            let path = folder + "/existing.sqlite"
            do {
                let db = try Database(path: path, options: DatabaseOptions(filePermissions: nil))
                try db.execute("CREATE TABLE t(x)")
                try db.execute("INSERT INTO t VALUES ('kept')")
            }
            chmod(path, 0o644)
            let db = try Database(path: path)
            #expect(permissions(of: path) == 0o644)
            #expect(try db.scalar("SELECT x FROM t", as: String.self) == "kept")
        }
    }

    @Test("creating folders keeps existing ones and refuses a file in the way")
    func directories() throws {
        try withTemporaryDirectory { folder throws in
            chmod(folder, 0o755)
            try Database.createDirectory(atPath: folder + "/a/b")
            #expect(permissions(of: folder) == 0o755)
            #expect(permissions(of: folder + "/a/b") == 0o700)
            try Database.createDirectory(atPath: folder + "/a/b")  // again: nothing to do
            _ = try Database(path: folder + "/file")
            let error = #expect(throws: DatabaseError.self) { try Database.createDirectory(atPath: folder + "/file/sub") }
            #expect(error?.message == "not a folder: \(folder)/file")
        }
    }

    @Test("a read-only connection reads, and refuses writes with SQLITE_READONLY")
    func readOnly() throws {
        try withTemporaryDirectory { folder throws in
            let path = folder + "/ro.sqlite"
            do {
                let db = try Database(path: path)
                try db.execute("CREATE TABLE t(x)")
                try db.execute("INSERT INTO t VALUES (1)")
            }
            let reader = try Database(path: path, options: .readOnly)
            #expect(try reader.scalar("SELECT x FROM t", as: Int.self) == 1)
            let error = #expect(throws: DatabaseError.self) { try reader.execute("INSERT INTO t VALUES (2)") }
            #expect(error?.resultCode == .readOnly)
            #expect(error?.message == "attempt to write a readonly database")
            #expect(error?.description == "SQLite error 8 (SQLITE_READONLY): attempt to write a readonly database — while executing INSERT INTO t VALUES (2)")
            #expect(throws: DatabaseError.self) { try reader.transaction { try reader.execute("DELETE FROM t") } }
            #expect(try reader.scalar("SELECT count(*) FROM t", as: Int.self) == 1)
        }
    }

    @Test("read-only and read-write opens never create a missing file")
    func noCreation() throws {
        try withTemporaryDirectory { folder throws in
            let path = folder + "/missing.sqlite"
            for options in [DatabaseOptions.readOnly, DatabaseOptions(access: .readWrite)] {
                let error = #expect(throws: DatabaseError.self) { try Database(path: path, options: options) }
                #expect(error?.resultCode == .cannotOpen)
                #expect(!fileExists(path))
            }
        }
    }

    @Test("an in-memory database works without any file")
    func inMemory() throws {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE t(x)")
        try db.execute("INSERT INTO t VALUES (?)", [1])
        #expect(try db.scalar("SELECT x FROM t", as: Int.self) == 1)
        #expect(try db.journalMode == "memory")
    }
}
