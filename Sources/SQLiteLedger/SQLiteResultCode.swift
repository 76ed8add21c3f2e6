import CSQLite

/// An SQLite result code, primary (`SQLITE_CONSTRAINT`) or extended (`SQLITE_CONSTRAINT_FOREIGNKEY`).
///
/// The extended codes are C macros built with shifts, which Swift does not import; they are
/// rebuilt here from sqlite3.h's definitions (https://www.sqlite.org/rescode.html).
package struct SQLiteResultCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    package let rawValue: Int32

    package init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The primary code: the low 8 bits.
    package var primary: SQLiteResultCode { SQLiteResultCode(rawValue: rawValue & 0xFF) }

    /// Whether this is a primary code (no extended bits).
    package var isPrimary: Bool { rawValue == rawValue & 0xFF }

    /// Whether `self` is `code` or, when `code` is primary, one of its extended codes.
    package func matches(_ code: SQLiteResultCode) -> Bool {
        code.isPrimary ? primary == code : self == code
    }

    package var description: String { String(rawValue) }

    package static let ok = SQLiteResultCode(rawValue: SQLITE_OK)
    package static let error = SQLiteResultCode(rawValue: SQLITE_ERROR)
    package static let busy = SQLiteResultCode(rawValue: SQLITE_BUSY)
    package static let locked = SQLiteResultCode(rawValue: SQLITE_LOCKED)
    package static let readOnly = SQLiteResultCode(rawValue: SQLITE_READONLY)
    package static let ioError = SQLiteResultCode(rawValue: SQLITE_IOERR)
    package static let corrupt = SQLiteResultCode(rawValue: SQLITE_CORRUPT)
    package static let full = SQLiteResultCode(rawValue: SQLITE_FULL)
    package static let cantOpen = SQLiteResultCode(rawValue: SQLITE_CANTOPEN)
    package static let constraint = SQLiteResultCode(rawValue: SQLITE_CONSTRAINT)
    package static let misuse = SQLiteResultCode(rawValue: SQLITE_MISUSE)
    package static let notADatabase = SQLiteResultCode(rawValue: SQLITE_NOTADB)

    package static let busyTimeout = extended(SQLITE_BUSY, 3)
    package static let constraintCheck = extended(SQLITE_CONSTRAINT, 1)
    package static let constraintForeignKey = extended(SQLITE_CONSTRAINT, 3)
    package static let constraintNotNull = extended(SQLITE_CONSTRAINT, 5)
    package static let constraintPrimaryKey = extended(SQLITE_CONSTRAINT, 6)
    package static let constraintUnique = extended(SQLITE_CONSTRAINT, 8)

    private static func extended(_ primary: Int32, _ number: Int32) -> SQLiteResultCode {
        SQLiteResultCode(rawValue: primary | (number << 8))
    }
}
