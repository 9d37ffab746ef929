import CSQLite

/// The one error this module throws: what SQLite said, and where.
///
/// `description` reads like
///
///     SQLite error 19 (SQLITE_CONSTRAINT_UNIQUE): UNIQUE constraint failed: items.key — while executing INSERT INTO items(key) VALUES (?) with 1 argument
///
/// Argument values are never included (they may be private: reminder titles,
/// places), only their count.
///
/// A few errors do not come from SQLite itself but from this layer refusing
/// something before SQLite sees it; they carry the code SQLite uses for the same
/// kind of fault: `.range` for a wrong number or name of arguments, `.mismatch`
/// for a value read as a type it cannot be converted to, `.misuse` for more than
/// one statement given to a one-statement call, `.cannotOpen` for a database file
/// that could not be created.
public struct DatabaseError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE`); equal to the
    /// primary code when SQLite gave no finer one.
    public let extendedResultCode: ResultCode
    /// The message from `sqlite3_errmsg`, or this layer's own.
    public let message: String
    /// The SQL that failed, when there was one.
    public let sql: String?
    /// How many arguments were bound to `sql`, when known.
    public let argumentCount: Int?

    init(extendedResultCode: ResultCode, message: String, sql: String? = nil, argumentCount: Int? = nil) {
        self.extendedResultCode = extendedResultCode
        self.message = message
        self.sql = sql
        self.argumentCount = argumentCount
    }

    /// The primary result code (`SQLITE_CONSTRAINT`, 19).
    public var resultCode: ResultCode {
        extendedResultCode.primary
    }

    public var description: String {
        var text = "SQLite error \(resultCode.rawValue) (\(extendedResultCode.name)): \(message)"
        if let sql {
            text += " — while executing \(sql)"
            if let argumentCount, argumentCount > 0 {
                text += " with \(argumentCount) argument\(argumentCount == 1 ? "" : "s")"
            }
        }
        return text
    }

    /// The error SQLite recorded on `connection` for the call that just returned
    /// `code`. Read it before making any other call on the connection.
    static func last(on connection: OpaquePointer, code: Int32, sql: String?, argumentCount: Int? = nil) -> DatabaseError {
        // With extended result codes on, `code` is already extended; the
        // connection's record agrees unless the failing call was not a
        // connection call (then trust `code`).
        let extended = sqlite3_extended_errcode(connection)
        let chosen = (extended & 0xFF) == (code & 0xFF) ? extended : code
        let message = String(cString: sqlite3_errmsg(connection))
        return DatabaseError(extendedResultCode: ResultCode(rawValue: chosen), message: message,
                             sql: sql, argumentCount: argumentCount)
    }
}
