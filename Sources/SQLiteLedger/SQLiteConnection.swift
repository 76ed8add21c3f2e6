import CSQLite

/// One open SQLite database connection: opens, configures and closes the handle, and prepares statements.
///
/// It owns its `sqlite3*`. Opening turns on extended result codes, a busy timeout and foreign
/// keys. It is used from one thread or serial queue at a time and is never shared.
package final class SQLiteConnection {
    /// How the database file is opened.
    package enum Mode: Sendable {
        /// Read and write; the file is created when missing.
        case readWrite
        /// Read only; the file must exist.
        case readOnly
    }

    /// The database file, as given.
    package let path: String
    package let mode: Mode
    let handle: OpaquePointer
    private var statementCache: [String: Statement] = [:]
    /// What ``traceStatements(_:)`` calls, kept alive while SQLite holds a pointer to it.
    var tracer: StatementTracer?

    /// Opens the database at `path` and configures the connection.
    ///
    /// - parameter busyTimeout: how long a statement waits for another connection's lock before
    ///   it fails with `SQLITE_BUSY`.
    /// - throws: `SQLiteError` when the file cannot be opened or configured.
    package init(path: String, mode: Mode = .readWrite, busyTimeout: Duration = .seconds(5)) throws {
        var handle: OpaquePointer?
        let access = mode == .readWrite ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY
        let code = sqlite3_open_v2(path, &handle, access | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let handle else {
            let error = SQLiteError.from(code, handle: handle, path: path)
            // "Whether or not an error occurs when it is opened, resources associated with the
            // database connection handle should be released by passing it to sqlite3_close()."
            // (https://www.sqlite.org/c3ref/open.html)
            sqlite3_close(handle)
            throw error
        }
        self.path = path
        self.mode = mode
        self.handle = handle
        sqlite3_extended_result_codes(handle, 1)
        let milliseconds = busyTimeout.components.seconds * 1000 + busyTimeout.components.attoseconds / 1_000_000_000_000_000
        sqlite3_busy_timeout(handle, Int32(clamping: milliseconds))
        try execute("PRAGMA foreign_keys = ON")
        guard try pragmaValue("foreign_keys") == "1" else {
            throw SQLiteError.check(.sqlite, "foreign keys could not be turned on", path: path)
        }
    }

    deinit {
        sqlite3_trace_v2(handle, 0, nil, nil)
        statementCache.removeAll()
        // close_v2 defers the close until statements still held elsewhere are finalized.
        sqlite3_close_v2(handle)
    }

    // MARK: - Statements

    /// Compiles a statement for one-off or caller-managed use.
    package func prepare(_ sql: String) throws -> Statement {
        try Statement(sql: sql, connection: handle, path: path, persistent: false)
    }

    /// The connection's compiled statement for `sql`, compiled on first use, reset and cleared.
    package func cachedStatement(_ sql: String) throws -> Statement {
        if let statement = statementCache[sql] {
            statement.clear()
            return statement
        }
        let statement = try Statement(sql: sql, connection: handle, path: path, persistent: true)
        statementCache[sql] = statement
        return statement
    }

    /// Runs one cached statement with `arguments` to its end.
    package func execute(_ sql: String, _ arguments: [SQLiteValue]) throws {
        try cachedStatement(sql).execute(arguments)
    }

    /// Runs SQL text that may hold several statements, without arguments (schema scripts, pragmas).
    package func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard code == SQLITE_OK else {
            var error = SQLiteError.from(code, handle: handle, sql: sql, path: path)
            if let message { error.message = String(cString: message) }
            throw error
        }
    }

    /// The rows of one cached query, each decoded by `decode`.
    package func rows<T>(_ sql: String, _ arguments: [SQLiteValue] = [], _ decode: (Statement) throws -> T) throws -> [T] {
        try cachedStatement(sql).rows(arguments, decode)
    }

    /// The first row of one cached query, decoded by `decode`, or nil when there is none.
    package func firstRow<T>(_ sql: String, _ arguments: [SQLiteValue] = [], _ decode: (Statement) throws -> T) throws -> T? {
        try cachedStatement(sql).firstRow(arguments, decode)
    }

    // MARK: - State

    /// The rowid of the last row inserted on this connection.
    package var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// The rows changed by the last INSERT, UPDATE or DELETE.
    package var changes: Int { Int(sqlite3_changes64(handle)) }

    /// The text value of `PRAGMA name`, or nil when it gives no row.
    package func pragmaValue(_ name: String) throws -> String? {
        try prepare("PRAGMA \(name)").firstRow { $0.text(0) } ?? nil
    }
}

@available(*, unavailable, message: "a connection belongs to one thread or serial queue")
extension SQLiteConnection: Sendable {}
