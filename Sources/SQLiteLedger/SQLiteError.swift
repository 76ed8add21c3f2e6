import CSQLite

/// A failure of the SQLite database under the ledger: an SQLite result code, or a check the ledger makes on it.
///
/// The statement's SQL is kept for the message; bound arguments never are, so that no path,
/// URL or other value of a row ever reaches a log through an error.
package struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, beyond the result code.
    package enum Kind: Sendable, Hashable {
        /// SQLite returned an error code.
        case sqlite
        /// `PRAGMA journal_mode=WAL` did not give `wal`.
        case walUnavailable
        /// The database holds migrations this binary does not know: a newer AssemblyLine wrote it.
        case unknownMigrations([String])
        /// A read-only open found migrations this binary knows but the database lacks.
        case pendingMigrations([String])
        /// A migration that rebuilt tables left rows in these tables that refer to missing rows.
        case brokenForeignKeys([String])
        /// A row holds a value the ledger cannot read (an unknown state, a malformed time or ID).
        case invalidData
        /// The connection was closed.
        case closed
        /// The file is not an AssemblyLine ledger (another program's database, or no database at all); it was left untouched.
        case notALedger
    }

    package var kind: Kind
    /// The primary result code (`.constraint` = 19, ...); `.error` for the ledger's own checks.
    package var code: SQLiteResultCode
    /// The extended result code (`.constraintForeignKey` = 787, ...).
    package var extendedCode: SQLiteResultCode
    package var message: String
    /// The statement that failed, without its arguments.
    package var sql: String?
    /// The database file.
    package var path: String?

    package init(kind: Kind = .sqlite, extendedCode: SQLiteResultCode, message: String, sql: String? = nil,
                path: String? = nil) {
        self.kind = kind
        self.code = extendedCode.primary
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
        self.path = path
    }

    /// An error of the ledger's own checks, with code `SQLITE_ERROR`.
    static func check(_ kind: Kind, _ message: String, path: String?) -> SQLiteError {
        SQLiteError(kind: kind, extendedCode: .error, message: message, path: path)
    }

    /// The error for a use of a closed connection, with code `SQLITE_MISUSE`.
    static func closed(path: String) -> SQLiteError {
        SQLiteError(kind: .closed, extendedCode: .misuse, message: "the ledger is closed", path: path)
    }

    /// The error SQLite reports on `handle` for the result code `resultCode`.
    static func from(_ resultCode: Int32, handle: OpaquePointer?, sql: String? = nil, path: String? = nil) -> SQLiteError {
        let extended = handle.map { sqlite3_extended_errcode($0) } ?? resultCode
        // The handle's last error belongs to this call only when its primary code matches.
        let code = (extended & 0xFF) == (resultCode & 0xFF) ? extended : resultCode
        let message = handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(code))
        return SQLiteError(extendedCode: SQLiteResultCode(rawValue: code), message: message, sql: sql, path: path)
    }

    /// Whether the error has `code`: `error.is(.constraint)` matches every kind of constraint,
    /// `error.is(.constraintForeignKey)` only that one.
    package func `is`(_ code: SQLiteResultCode) -> Bool {
        extendedCode.matches(code)
    }

    /// `PATH: SQLite error CODE/EXTENDED: MESSAGE, while executing `SQL``, on one line.
    package var description: String {
        var text = (path ?? "SQLite database") + ": "
        switch kind {
        case .sqlite, .closed:
            text += "SQLite error \(code)"
            if extendedCode != code { text += "/\(extendedCode)" }
            text += ": " + message
        case .walUnavailable, .unknownMigrations, .pendingMigrations, .brokenForeignKeys, .invalidData, .notALedger:
            text += message
        }
        if let sql {
            let flat = sql.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            text += ", while executing `" + (flat.count > 160 ? String(flat.prefix(160)) + "..." : flat) + "`"
        }
        return text
    }
}
