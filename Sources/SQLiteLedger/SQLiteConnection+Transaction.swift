import CSQLite

/// How a transaction takes its locks (https://www.sqlite.org/lang_transaction.html).
package enum TransactionKind: String, Sendable {
    /// Locks on first read or write; a later write may fail with `SQLITE_BUSY` without waiting.
    case deferred = "DEFERRED"
    /// Takes the write lock at once (waiting up to the busy timeout): for every write.
    case immediate = "IMMEDIATE"
    /// Like immediate; in WAL mode the same.
    case exclusive = "EXCLUSIVE"
}

extension SQLiteConnection {
    /// Runs `body` in a transaction: commits when it returns, rolls back when it (or the commit) throws.
    ///
    /// The first error wins: when the rollback fails too (SQLite may already have rolled back on
    /// its own, or the body ended the transaction), the error of the body or commit is rethrown,
    /// not the rollback's.
    package func inTransaction<T>(_ kind: TransactionKind = .immediate, _ body: () throws -> T) throws -> T {
        try execute("BEGIN \(kind.rawValue) TRANSACTION", [])
        let value: T
        do {
            value = try body()
            try execute("COMMIT TRANSACTION", [])
        } catch {
            try? execute("ROLLBACK TRANSACTION", [])
            throw error
        }
        return value
    }
}
