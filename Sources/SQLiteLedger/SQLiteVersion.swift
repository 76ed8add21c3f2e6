import CSQLite

extension SQLiteLedger {
    /// The SQLite this binary runs with, `SQLite X.Y.Z`, for `--version`.
    package static var libraryVersion: String { "SQLite " + String(cString: sqlite3_libversion()) }
}
