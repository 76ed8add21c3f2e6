/// A value bound to a statement parameter: the storage classes SQLite knows.
package enum SQLiteValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    /// `.integer`, or `.null` for nil.
    package static func integer(_ value: Int?) -> SQLiteValue {
        value.map { .integer(Int64($0)) } ?? .null
    }

    /// `.integer`, or `.null` for nil.
    package static func integer(_ value: Int64?) -> SQLiteValue {
        value.map { .integer($0) } ?? .null
    }

    /// `.real`, or `.null` for nil.
    package static func real(_ value: Double?) -> SQLiteValue {
        value.map { .real($0) } ?? .null
    }

    /// `.text`, or `.null` for nil.
    package static func text(_ value: String?) -> SQLiteValue {
        value.map { .text($0) } ?? .null
    }

    /// 1 or 0, or `.null` for nil.
    package static func bool(_ value: Bool?) -> SQLiteValue {
        value.map { .integer($0 ? 1 : 0) } ?? .null
    }

    /// A state column's value: the state enum's raw value, so that no SQL text spells a state.
    package static func state<State: RawRepresentable>(_ value: State) -> SQLiteValue where State.RawValue == String {
        .text(value.rawValue)
    }
}

extension SQLiteValue: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral, ExpressibleByNilLiteral {
    package init(integerLiteral value: Int64) {
        self = .integer(value)
    }

    package init(stringLiteral value: String) {
        self = .text(value)
    }

    package init(nilLiteral: ()) {
        self = .null
    }
}
