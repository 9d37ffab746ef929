import Foundation
import Glibc
import SQLiteDatabase
import TestSupport

/// Runs `body` with a new database file in a temporary folder.
func withTemporaryDatabase<T>(options: DatabaseOptions = DatabaseOptions(),
                              _ body: (Database, String) throws -> T) throws -> T {
    try withTemporaryDirectory("chime-sqlite-tests") { folder throws in
        let path = folder + "/test.sqlite"
        let db = try Database(path: path, options: options)
        return try body(db, path)
    }
}

/// The permission bits of the file at `path`, or nil when there is none.
func permissions(of path: String) -> mode_t? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    return status.st_mode & 0o7777
}

func fileExists(_ path: String) -> Bool {
    access(path, F_OK) == 0
}

struct ExpectedFailure: Error, Equatable {}
