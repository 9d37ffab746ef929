/// An SQLite result code: a primary code (`SQLITE_CONSTRAINT`, 19) or an
/// extended one (`SQLITE_CONSTRAINT_UNIQUE`, 19 | 8 << 8 = 2067), whose low
/// byte is always its primary code.
///
/// Callers compare with the constants below and need not import the C module:
///
///     catch let error as DatabaseError where error.extendedResultCode == .constraintUnique { … }
public struct ResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The primary code: the low byte.
    public var primary: ResultCode {
        ResultCode(rawValue: rawValue & 0xFF)
    }

    /// The C constant's name, such as `SQLITE_CONSTRAINT_UNIQUE`, or
    /// `SQLITE_<number>` for a code this table does not know.
    public var name: String {
        if let name = Self.names[rawValue] { return name }
        if let primaryName = Self.names[rawValue & 0xFF] { return "\(primaryName)_\(rawValue >> 8)" }
        return "SQLITE_\(rawValue)"
    }

    public var description: String { name }

    // MARK: Primary codes

    public static let ok = ResultCode(rawValue: 0)
    public static let error = ResultCode(rawValue: 1)
    public static let `internal` = ResultCode(rawValue: 2)
    public static let permission = ResultCode(rawValue: 3)
    public static let abort = ResultCode(rawValue: 4)
    public static let busy = ResultCode(rawValue: 5)
    public static let locked = ResultCode(rawValue: 6)
    public static let noMemory = ResultCode(rawValue: 7)
    public static let readOnly = ResultCode(rawValue: 8)
    public static let interrupt = ResultCode(rawValue: 9)
    public static let ioError = ResultCode(rawValue: 10)
    public static let corrupt = ResultCode(rawValue: 11)
    public static let notFound = ResultCode(rawValue: 12)
    public static let full = ResultCode(rawValue: 13)
    public static let cannotOpen = ResultCode(rawValue: 14)
    public static let `protocol` = ResultCode(rawValue: 15)
    public static let empty = ResultCode(rawValue: 16)
    public static let schema = ResultCode(rawValue: 17)
    public static let tooBig = ResultCode(rawValue: 18)
    public static let constraint = ResultCode(rawValue: 19)
    public static let mismatch = ResultCode(rawValue: 20)
    public static let misuse = ResultCode(rawValue: 21)
    public static let noLargeFileSupport = ResultCode(rawValue: 22)
    public static let authorization = ResultCode(rawValue: 23)
    public static let format = ResultCode(rawValue: 24)
    public static let range = ResultCode(rawValue: 25)
    public static let notADatabase = ResultCode(rawValue: 26)
    public static let notice = ResultCode(rawValue: 27)
    public static let warning = ResultCode(rawValue: 28)
    public static let row = ResultCode(rawValue: 100)
    public static let done = ResultCode(rawValue: 101)

    // MARK: Extended codes callers are likely to test for

    public static let busySnapshot = ResultCode(rawValue: 5 | 2 << 8)
    public static let busyTimeout = ResultCode(rawValue: 5 | 3 << 8)
    public static let readOnlyDatabaseMoved = ResultCode(rawValue: 8 | 4 << 8)
    public static let constraintCheck = ResultCode(rawValue: 19 | 1 << 8)
    public static let constraintForeignKey = ResultCode(rawValue: 19 | 3 << 8)
    public static let constraintNotNull = ResultCode(rawValue: 19 | 5 << 8)
    public static let constraintPrimaryKey = ResultCode(rawValue: 19 | 6 << 8)
    public static let constraintTrigger = ResultCode(rawValue: 19 | 7 << 8)
    public static let constraintUnique = ResultCode(rawValue: 19 | 8 << 8)
    public static let constraintRowID = ResultCode(rawValue: 19 | 10 << 8)

    // MARK: Names

    /// Every primary and extended code of SQLite 3.40, by the name of its C constant.
    private static let names: [Int32: String] = {
        let primary: [Int32: String] = [
            0: "OK", 1: "ERROR", 2: "INTERNAL", 3: "PERM", 4: "ABORT", 5: "BUSY", 6: "LOCKED", 7: "NOMEM",
            8: "READONLY", 9: "INTERRUPT", 10: "IOERR", 11: "CORRUPT", 12: "NOTFOUND", 13: "FULL",
            14: "CANTOPEN", 15: "PROTOCOL", 16: "EMPTY", 17: "SCHEMA", 18: "TOOBIG", 19: "CONSTRAINT",
            20: "MISMATCH", 21: "MISUSE", 22: "NOLFS", 23: "AUTH", 24: "FORMAT", 25: "RANGE", 26: "NOTADB",
            27: "NOTICE", 28: "WARNING", 100: "ROW", 101: "DONE",
        ]
        // Extended codes: primary code, then (number << 8, suffix) pairs.
        let extended: [(Int32, [Int32: String])] = [
            (0, [1: "LOAD_PERMANENTLY", 2: "SYMLINK"]),
            (1, [1: "MISSING_COLLSEQ", 2: "RETRY", 3: "SNAPSHOT"]),
            (4, [2: "ROLLBACK"]),
            (5, [1: "RECOVERY", 2: "SNAPSHOT", 3: "TIMEOUT"]),
            (6, [1: "SHAREDCACHE", 2: "VTAB"]),
            (8, [1: "RECOVERY", 2: "CANTLOCK", 3: "ROLLBACK", 4: "DBMOVED", 5: "CANTINIT", 6: "DIRECTORY"]),
            (10, [
                1: "READ", 2: "SHORT_READ", 3: "WRITE", 4: "FSYNC", 5: "DIR_FSYNC", 6: "TRUNCATE", 7: "FSTAT",
                8: "UNLOCK", 9: "RDLOCK", 10: "DELETE", 11: "BLOCKED", 12: "NOMEM", 13: "ACCESS",
                14: "CHECKRESERVEDLOCK", 15: "LOCK", 16: "CLOSE", 17: "DIR_CLOSE", 18: "SHMOPEN", 19: "SHMSIZE",
                20: "SHMLOCK", 21: "SHMMAP", 22: "SEEK", 23: "DELETE_NOENT", 24: "MMAP", 25: "GETTEMPPATH",
                26: "CONVPATH", 27: "VNODE", 28: "AUTH", 29: "BEGIN_ATOMIC", 30: "COMMIT_ATOMIC",
                31: "ROLLBACK_ATOMIC", 32: "DATA", 33: "CORRUPTFS",
            ]),
            (11, [1: "VTAB", 2: "SEQUENCE", 3: "INDEX"]),
            (14, [1: "NOTEMPDIR", 2: "ISDIR", 3: "FULLPATH", 4: "CONVPATH", 5: "DIRTYWAL", 6: "SYMLINK"]),
            (19, [
                1: "CHECK", 2: "COMMITHOOK", 3: "FOREIGNKEY", 4: "FUNCTION", 5: "NOTNULL", 6: "PRIMARYKEY",
                7: "TRIGGER", 8: "UNIQUE", 9: "VTAB", 10: "ROWID", 11: "PINNED", 12: "DATATYPE",
            ]),
            (23, [1: "USER"]),
            (27, [1: "RECOVER_WAL", 2: "RECOVER_ROLLBACK"]),
            (28, [1: "AUTOINDEX"]),
        ]
        var names: [Int32: String] = [:]
        for (code, name) in primary {
            names[code] = "SQLITE_\(name)"
        }
        for (code, suffixes) in extended {
            for (number, suffix) in suffixes {
                names[code | number << 8] = "SQLITE_\(primary[code]!)_\(suffix)"
            }
        }
        return names
    }()
}
