import CSQLite

/// An SQLite result code, primary (`SQLITE_CONSTRAINT`) or extended (`SQLITE_CONSTRAINT_FOREIGNKEY`).
///
/// The extended codes are C macros built with shifts, which Swift does not import; they are
/// rebuilt here from sqlite3.h's definitions (https://www.sqlite.org/rescode.html).
public struct SQLiteResultCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The primary code: the low 8 bits.
    public var primary: SQLiteResultCode { SQLiteResultCode(rawValue: rawValue & 0xFF) }

    /// Whether this is a primary code (no extended bits).
    public var isPrimary: Bool { rawValue == rawValue & 0xFF }

    /// Whether `self` is `code` or, when `code` is primary, one of its extended codes.
    public func matches(_ code: SQLiteResultCode) -> Bool {
        code.isPrimary ? primary == code : self == code
    }

    public var description: String { String(rawValue) }

    public static let ok = SQLiteResultCode(rawValue: SQLITE_OK)
    public static let error = SQLiteResultCode(rawValue: SQLITE_ERROR)
    public static let busy = SQLiteResultCode(rawValue: SQLITE_BUSY)
    public static let locked = SQLiteResultCode(rawValue: SQLITE_LOCKED)
    public static let readOnly = SQLiteResultCode(rawValue: SQLITE_READONLY)
    public static let ioError = SQLiteResultCode(rawValue: SQLITE_IOERR)
    public static let corrupt = SQLiteResultCode(rawValue: SQLITE_CORRUPT)
    public static let full = SQLiteResultCode(rawValue: SQLITE_FULL)
    public static let cantOpen = SQLiteResultCode(rawValue: SQLITE_CANTOPEN)
    public static let constraint = SQLiteResultCode(rawValue: SQLITE_CONSTRAINT)
    public static let misuse = SQLiteResultCode(rawValue: SQLITE_MISUSE)

    public static let busyTimeout = extended(SQLITE_BUSY, 3)
    public static let constraintCheck = extended(SQLITE_CONSTRAINT, 1)
    public static let constraintForeignKey = extended(SQLITE_CONSTRAINT, 3)
    public static let constraintNotNull = extended(SQLITE_CONSTRAINT, 5)
    public static let constraintPrimaryKey = extended(SQLITE_CONSTRAINT, 6)
    public static let constraintUnique = extended(SQLITE_CONSTRAINT, 8)

    private static func extended(_ primary: Int32, _ number: Int32) -> SQLiteResultCode {
        SQLiteResultCode(rawValue: primary | (number << 8))
    }
}
