/// How `Database.transaction` begins: which lock it takes up front.
public enum TransactionKind: Sendable {
    /// `BEGIN DEFERRED`: no lock until the first read or write. In WAL mode a
    /// deferred transaction that reads, then writes after another connection
    /// committed, fails at once with `SQLITE_BUSY_SNAPSHOT` (the busy timeout
    /// cannot help), so use it only for read-only transactions.
    case deferred
    /// `BEGIN IMMEDIATE`: takes the write lock at once, waiting up to the busy
    /// timeout for it. The right kind for anything that writes.
    case immediate
    /// `BEGIN EXCLUSIVE`: in WAL mode the same as immediate.
    case exclusive

    var beginSQL: String {
        switch self {
        case .deferred: return "BEGIN DEFERRED"
        case .immediate: return "BEGIN IMMEDIATE"
        case .exclusive: return "BEGIN EXCLUSIVE"
        }
    }
}

extension Database {
    /// Runs `body` in a transaction: commits when it returns, rolls back
    /// everything it did when it throws (and rethrows its error).
    ///
    /// Called inside another transaction (on this connection), it runs `body`
    /// in a SAVEPOINT instead: a throw rolls back only what this `body` did, and
    /// the outer transaction goes on (or not, as the outer code decides); `kind`
    /// is then ignored. Holds the database's lock until it returns, so other
    /// threads' statements on this `Database` wait.
    ///
    /// It `throws` rather than `rethrows` because BEGIN and COMMIT can fail
    /// too (busy, disk full, a deferred foreign key violated at commit); when
    /// COMMIT fails the transaction is rolled back and COMMIT's error thrown.
    public func transaction<T>(_ kind: TransactionKind = .immediate, _ body: () throws -> T) throws -> T {
        try lock.withLock {
            if isInTransaction {
                return foldingDepth > 0 ? try body() : try inSavepoint(body)
            }
            try execute(kind.beginSQL)
            let result: T
            do {
                result = try body()
            } catch {
                rollbackIfActive()
                throw error
            }
            do {
                try execute("COMMIT")
            } catch {
                rollbackIfActive()
                throw error
            }
            return result
        }
    }

    /// As `transaction`, but the transactions nested inside it, at any
    /// depth, are folded into it: they take no savepoints, so a throw from
    /// one of them leaves what it wrote, and only the whole can be rolled
    /// back. For a large write that is all or nothing anyway (an import
    /// written in pieces): a savepoint makes SQLite copy every page first
    /// changed under it into a statement journal, which for a 10,000-event
    /// import was a fifth of all it wrote. The body must not catch a nested
    /// transaction's error and go on to commit. Called inside another
    /// transaction, it folds the transactions nested in it into that one's
    /// savepoint (or into that one, if it folds too).
    public func transaction<T>(_ kind: TransactionKind = .immediate, foldingNested: Bool, _ body: () throws -> T) throws -> T {
        guard foldingNested else { return try transaction(kind, body) }
        // The outer transaction holds the lock: no other thread sees the depth.
        return try transaction(kind) {
            foldingDepth += 1
            defer { foldingDepth -= 1 }
            return try body()
        }
    }

    private func inSavepoint<T>(_ body: () throws -> T) throws -> T {
        savepointDepth += 1
        defer { savepointDepth -= 1 }
        let name = "chime_savepoint_\(savepointDepth)"
        try execute("SAVEPOINT \(name)")
        let result: T
        do {
            result = try body()
        } catch {
            // ROLLBACK TO undoes the savepoint's work but keeps it open;
            // RELEASE then removes it. Both fail harmlessly if SQLite already
            // rolled the whole transaction back (after SQLITE_FULL, for one).
            try? execute("ROLLBACK TO \(name)")
            try? execute("RELEASE \(name)")
            throw error
        }
        do {
            try execute("RELEASE \(name)")
        } catch {
            try? execute("ROLLBACK TO \(name)")
            try? execute("RELEASE \(name)")
            throw error
        }
        return result
    }

    /// ROLLBACK, unless SQLite already ended the transaction by itself (it does
    /// after some errors); a failure here must not hide the error that led here.
    private func rollbackIfActive() {
        if isInTransaction {
            try? execute("ROLLBACK")
        }
    }
}
