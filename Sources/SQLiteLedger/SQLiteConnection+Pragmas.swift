extension SQLiteConnection {
    /// Turns on write-ahead logging and checks that SQLite did, then sets `synchronous = NORMAL`.
    ///
    /// With WAL, readers on other connections keep reading while a write transaction is open, and
    /// `NORMAL` is durable across application crashes (a power loss may lose the last commits).
    /// - throws: `SQLiteError` of kind `.walUnavailable` when the journal mode stays something else
    ///   (an in-memory database, some network file systems).
    package func enableWAL() throws {
        let mode = try prepare("PRAGMA journal_mode = WAL").firstRow { $0.text(0) } ?? nil
        guard mode?.lowercased() == "wal" else {
            throw SQLiteError.check(.walUnavailable,
                                    "journal_mode is '\(mode ?? "")', expected 'wal' (WAL needs a local file system)",
                                    path: path)
        }
        try execute("PRAGMA synchronous = NORMAL")
    }

    /// The current journal mode (`wal`, `delete`, `memory`, ...), lowercased.
    package func journalMode() throws -> String {
        try pragmaValue("journal_mode")?.lowercased() ?? ""
    }

    /// The result of `PRAGMA integrity_check`: `["ok"]` for a sound database, else the problems found.
    package func integrityCheck() throws -> [String] {
        try prepare("PRAGMA integrity_check").rows { $0.text(0) ?? "" }
    }
}
