import CSQLite

/// A prepared SQLite statement: binds typed values, steps through rows, and reads columns.
///
/// It owns its `sqlite3_stmt`, finalized in `deinit`. It lives on the thread of its connection
/// and is never shared between threads. Parameter and column indices are SQLite's: parameters
/// from 1, columns from 0.
package final class Statement {
    /// The statement's SQL, for error messages.
    package let sql: String
    private let handle: OpaquePointer
    private let connection: OpaquePointer
    private let path: String

    /// Compiles `sql`, which must hold exactly one statement.
    ///
    /// - parameter persistent: a hint that the statement is kept and reused (`SQLITE_PREPARE_PERSISTENT`).
    init(sql: String, connection: OpaquePointer, path: String, persistent: Bool) throws {
        var statement: OpaquePointer?
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        // The tail points into the C string, so it is read before the string goes away.
        let (code, hasMore) = sql.withCString { text in
            var tail: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v3(connection, text, -1, flags, &statement, &tail)
            let rest = tail.map { String(cString: $0) } ?? ""
            return (code, !rest.allSatisfy { $0.isWhitespace || $0 == ";" })
        }
        guard code == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw code == SQLITE_OK
                ? SQLiteError(extendedCode: .misuse, message: "no statement in the SQL", sql: sql, path: path)
                : SQLiteError.from(code, handle: connection, sql: sql, path: path)
        }
        if hasMore {
            sqlite3_finalize(statement)
            throw SQLiteError(extendedCode: .misuse, message: "more than one statement in the SQL",
                              sql: sql, path: path)
        }
        self.sql = sql
        self.handle = statement
        self.connection = connection
        self.path = path
    }

    deinit {
        sqlite3_finalize(handle)
    }

    // MARK: - Binding

    /// Binds `value` to the parameter at `index` (from 1). Text is copied by SQLite.
    package func bind(_ value: SQLiteValue, at index: Int32) throws {
        let code: Int32 = switch value {
        case .null: sqlite3_bind_null(handle, index)
        case let .integer(number): sqlite3_bind_int64(handle, index, number)
        case let .real(number): sqlite3_bind_double(handle, index, number)
        case let .text(string):
            string.withCString { sqlite3_bind_text(handle, index, $0, -1, csqlite_transient()) }
        }
        guard code == SQLITE_OK else { throw error(code) }
    }

    /// Binds `values` to the parameters 1, 2, ...
    package func bind(_ values: [SQLiteValue]) throws {
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }

    /// Resets the statement to run again; the bindings stay.
    package func reset() {
        sqlite3_reset(handle)
    }

    /// Resets the statement and sets every parameter to NULL.
    package func clear() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    // MARK: - Running

    /// Runs one step: true when a row is ready to read, false when the statement is done.
    @discardableResult
    package func step() throws -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let failure = error(code)
            sqlite3_reset(handle)
            throw failure
        }
    }

    /// Resets, binds `arguments` and runs the statement to its end.
    package func execute(_ arguments: [SQLiteValue] = []) throws {
        reset()
        try bind(arguments)
        while try step() {}
        reset()
    }

    /// Resets, binds `arguments`, and decodes every row with `decode`.
    package func rows<T>(_ arguments: [SQLiteValue] = [], _ decode: (Statement) throws -> T) throws -> [T] {
        var rows: [T] = []
        try forEachRow(arguments) { rows.append(try decode($0)) }
        return rows
    }

    /// Resets, binds `arguments`, and calls `body` with each row as it is stepped to, holding none.
    package func forEachRow(_ arguments: [SQLiteValue] = [], _ body: (Statement) throws -> Void) throws {
        reset()
        try bind(arguments)
        defer { reset() }
        while try step() {
            try body(self)
        }
    }

    /// Resets, binds `arguments`, and decodes the first row, if any.
    package func firstRow<T>(_ arguments: [SQLiteValue] = [], _ decode: (Statement) throws -> T) throws -> T? {
        reset()
        try bind(arguments)
        defer { reset() }
        return try step() ? decode(self) : nil
    }

    // MARK: - Columns

    // A column is read through its value (`sqlite3_column_value`): one call into the statement a column, where each
    // `sqlite3_column_*` call looks the column up again (a million files' report made 26 million of them). SQLite calls
    // such a value unprotected, safe to read while no other thread uses the connection: a connection is opened
    // without SQLite's mutex (`SQLITE_OPEN_NOMUTEX`) and used by one actor, one statement at a time.

    package func isNull(_ column: Int32) -> Bool {
        sqlite3_value_type(sqlite3_column_value(handle, column)) == SQLITE_NULL
    }

    /// The column as an integer, or nil when it is NULL.
    package func integer(_ column: Int32) -> Int64? {
        let value = sqlite3_column_value(handle, column)
        return sqlite3_value_type(value) == SQLITE_NULL ? nil : sqlite3_value_int64(value)
    }

    /// The column as a real, or nil when it is NULL.
    package func real(_ column: Int32) -> Double? {
        let value = sqlite3_column_value(handle, column)
        return sqlite3_value_type(value) == SQLITE_NULL ? nil : sqlite3_value_double(value)
    }

    /// The column as text, or nil when it is NULL.
    package func text(_ column: Int32) -> String? {
        bytes(column).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The column's text as SQLite holds it, or nil when it is NULL: valid until the statement steps or resets.
    package func bytes(_ column: Int32) -> UnsafeBufferPointer<UInt8>? {
        let value = sqlite3_column_value(handle, column)
        guard let bytes = sqlite3_value_text(value) else { return nil }
        return UnsafeBufferPointer(start: bytes, count: Int(sqlite3_value_bytes(value)))
    }

    /// The column's name in the result.
    package func columnName(_ column: Int32) -> String {
        sqlite3_column_name(handle, column).map { String(cString: $0) } ?? ""
    }

    package var columnCount: Int32 { sqlite3_column_count(handle) }

    private func error(_ code: Int32) -> SQLiteError {
        SQLiteError.from(code, handle: connection, sql: sql, path: path)
    }
}

@available(*, unavailable, message: "a statement belongs to the thread of its connection")
extension Statement: Sendable {}
