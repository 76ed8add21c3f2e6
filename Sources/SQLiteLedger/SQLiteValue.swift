/// A value bound to a statement parameter: the storage classes SQLite knows.
public enum SQLiteValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    /// `.integer`, or `.null` for nil.
    public static func integer(_ value: Int?) -> SQLiteValue {
        value.map { .integer(Int64($0)) } ?? .null
    }

    /// `.integer`, or `.null` for nil.
    public static func integer(_ value: Int64?) -> SQLiteValue {
        value.map { .integer($0) } ?? .null
    }

    /// `.text`, or `.null` for nil.
    public static func text(_ value: String?) -> SQLiteValue {
        value.map { .text($0) } ?? .null
    }

    /// 1 or 0, or `.null` for nil.
    public static func bool(_ value: Bool?) -> SQLiteValue {
        value.map { .integer($0 ? 1 : 0) } ?? .null
    }
}

extension SQLiteValue: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral, ExpressibleByNilLiteral {
    public init(integerLiteral value: Int64) {
        self = .integer(value)
    }

    public init(stringLiteral value: String) {
        self = .text(value)
    }

    public init(nilLiteral: ()) {
        self = .null
    }
}
