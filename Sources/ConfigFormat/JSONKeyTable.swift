/// The member names a ``JSONCursor`` reader acts on, matched against a key's bytes without building its text.
///
/// As Foundation's keyed containers do, only the first member of a name counts: a later one of the same
/// name is not matched, so that its value is skipped.
package struct JSONKeyTable<Key: CaseIterable & RawRepresentable & Sendable>: Sendable where Key.RawValue == String {
    /// A name's UTF-8, its key, and its bit in a reader's `seen`.
    private typealias Entry = (name: [UInt8], key: Key, bit: UInt64)
    /// The entries by their name's length.
    private let byLength: [[Entry]]

    package init() {
        var byLength: [[Entry]] = []
        for (position, key) in Key.allCases.enumerated() {
            precondition(position < 64 && key.rawValue.utf8.allSatisfy { $0 < 0x80 }, "at most 64 ASCII names")
            let name = Array(key.rawValue.utf8)
            while byLength.count <= name.count { byLength.append([]) }
            byLength[name.count].append((name, key, 1 << UInt64(position)))
        }
        self.byLength = byLength
    }

    /// The name `key` is, the first time it occurs in an object (`seen` holds the ones met there), else nil.
    package func first(_ key: JSONString, in cursor: JSONCursor, seen: inout UInt64) -> Key? {
        for entry in candidates(key, cursor) where seen & entry.bit == 0 && name(key, in: cursor, is: entry.name) {
            seen |= entry.bit
            return entry.key
        }
        return nil
    }

    /// The names a key may be: those of its length (an escaped key may be shorter than its bytes).
    private func candidates(_ key: JSONString, _ cursor: JSONCursor) -> [Entry] {
        let length = key.end - key.start
        if key.isSimple { return length < byLength.count ? byLength[length] : [] }
        return byLength.flatMap { $0 }
    }

    private func name(_ key: JSONString, in cursor: JSONCursor, is name: [UInt8]) -> Bool {
        name.withUnsafeBufferPointer { cursor.text(key, is: $0) }
    }
}
