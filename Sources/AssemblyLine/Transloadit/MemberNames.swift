import ConfigFormat

/// The members of one kind of object in a status (its `Key` cases, named by their raw values), as a reader matches them.
struct MemberNames<Key: RawRepresentable & CaseIterable & Sendable>: Sendable where Key.RawValue == String {
    private let keys: [Key]
    private let table: JSONKeyTable

    init() {
        keys = Array(Key.allCases)
        table = JSONKeyTable(keys.map(\.rawValue))
    }

    /// The member `key` names, the first time it occurs in an object (`seen` holds the ones met there), else nil.
    func first(_ key: JSONString, in cursor: JSONCursor, seen: inout UInt64) -> Key? {
        table.first(key, in: cursor, seen: &seen).map { keys[$0] }
    }
}
