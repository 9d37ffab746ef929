import Dispatch
import Foundation
import SQLiteDatabase
import Synchronization
import TestSupport
import Testing

@Suite("Two connections on one file")
struct ConcurrencyTests {
    @Test("two connections writing 1,000 rows each from two threads lose nothing (the busy timeout queues them)")
    func concurrentWriters() throws {
        try withTemporaryDirectory { folder throws in
            let path = folder + "/shared.sqlite"
            let setup = try Database(path: path)
            try setup.execute("CREATE TABLE rows(writer INTEGER, n INTEGER, PRIMARY KEY (writer, n))")
            let failures = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 2) { writer in
                do {
                    let db = try Database(path: path)
                    for batch in 0..<100 {
                        try db.transaction {
                            for n in (batch * 10)..<(batch * 10 + 10) {
                                try db.execute("INSERT INTO rows(writer, n) VALUES (?, ?)", [writer, n])
                            }
                        }
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            #expect(failures.withLock { $0 } == [])
            #expect(try setup.scalar("SELECT count(*) FROM rows", as: Int.self) == 2000)
            for writer in 0..<2 {
                #expect(try setup.scalar("SELECT count(DISTINCT n) FROM rows WHERE writer = ?", [writer], as: Int.self) == 1000)
            }
        }
    }

    @Test("with a zero busy timeout a blocked writer fails at once with SQLITE_BUSY")
    func busyWithoutTimeout() throws {
        try withTemporaryDatabase { db, path throws in
            try db.execute("CREATE TABLE t(x)")
            var options = DatabaseOptions()
            options.busyTimeout = .zero
            let other = try Database(path: path, options: options)
            try db.transaction {
                try db.execute("INSERT INTO t VALUES (1)")
                let error = #expect(throws: DatabaseError.self) { try other.execute("INSERT INTO t VALUES (2)") }
                #expect(error?.resultCode == .busy)
            }
        }
    }

    @Test("opening a second connection in this process keeps the first one's lock: another process closing its own does not take the WAL away")
    func secondConnectionKeepsLocks() throws {
        try withTemporaryDatabase { db, path throws in
            try db.execute("CREATE TABLE t(x)")
            try db.execute("INSERT INTO t VALUES (1)")
            // Closing any descriptor of the file would drop this process's POSIX
            // locks on it (fcntl(2)), the shared lock that tells other processes
            // the WAL is in use among them.
            let second = try Database(path: path)
            #expect(try second.scalar("SELECT count(*) FROM t") as Int64? == 1)
            // The last connection to close checkpoints and deletes the WAL:
            // another process must not think it is the last.
            let script = "import sqlite3, sys\nc = sqlite3.connect(sys.argv[1])\nc.execute('INSERT INTO t VALUES (2)')\nc.commit()\nc.close()\n"
            let run = try runProcess("/usr/bin/env", ["python3", "-c", script, path])
            #expect(run.status == 0, "\(run.err)")
            #expect(FileManager.default.fileExists(atPath: path + "-wal"), "the other process took the WAL away")
            #expect(try db.scalar("SELECT count(*) FROM t") as Int64? == 2)
            #expect(try db.scalar("PRAGMA integrity_check") as String? == "ok")
        }
    }

    @Test("in WAL mode a reader is not blocked by a writer's open transaction and sees the last commit")
    func readerBesideWriter() throws {
        try withTemporaryDatabase { db, path throws in
            try db.execute("CREATE TABLE t(x)")
            try db.execute("INSERT INTO t VALUES (1)")
            var options = DatabaseOptions()
            options.busyTimeout = .zero
            let reader = try Database(path: path, options: options)
            try db.transaction {
                try db.execute("INSERT INTO t VALUES (2)")
                #expect(try reader.scalar("SELECT count(*) FROM t", as: Int.self) == 1)
            }
            #expect(try reader.scalar("SELECT count(*) FROM t", as: Int.self) == 2)
        }
    }

    @Test("data_version changes when another connection commits, not for this connection's own commits")
    func dataVersion() throws {
        try withTemporaryDatabase { db, path throws in
            try db.execute("CREATE TABLE t(x)")
            let other = try Database(path: path)
            let start = try db.dataVersion
            try db.execute("INSERT INTO t VALUES (1)")
            #expect(try db.dataVersion == start)
            try other.execute("INSERT INTO t VALUES (2)")
            let afterOther = try db.dataVersion
            #expect(afterOther != start)
            #expect(try db.dataVersion == afterOther, "stable until the next foreign commit")
        }
    }
}
