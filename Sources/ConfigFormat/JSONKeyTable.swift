/// The member names a ``JSONCursor`` reader acts on, matched against a key's bytes without building its text.
///
/// As Foundation's keyed containers do, only the first member of a name counts: a later one of the same
/// name is not matched, so that its value is skipped.
package struct JSONKeyTable: Sendable {
    /// Each name's UTF-8, in the order given.
    private let names: [[UInt8]]
    /// The positions of the names of each length.
    private let byLength: [[Int]]

    /// A table of at most 64 ASCII names.
    package init(_ names: [String]) {
        precondition(names.count <= 64 && names.allSatisfy { $0.utf8.allSatisfy { $0 < 0x80 } }, "at most 64 ASCII names")
        self.names = names.map { Array($0.utf8) }
        var byLength: [[Int]] = Array(repeating: [], count: (self.names.map(\.count).max() ?? 0) + 1)
        for (position, name) in self.names.enumerated() { byLength[name.count].append(position) }
        self.byLength = byLength
    }

    /// The position of the name `key` is, the first time it occurs in an object (`seen` holds the ones met there), else nil.
    package func first(_ key: JSONString, in cursor: JSONCursor, seen: inout UInt64) -> Int? {
        guard key.isSimple else { return cursor.text(key).flatMap { text in firstUnseen(&seen) { names[$0].elementsEqual(text.utf8) } } }
        let length = key.end - key.start
        guard length < byLength.count else { return nil }
        return firstUnseen(&seen, among: byLength[length]) { cursor.text(key, is: names[$0]) }
    }

    /// The first of `positions` (all of them when nil) not yet in `seen` whose name `matches`, added to `seen`.
    private func firstUnseen(_ seen: inout UInt64, among positions: [Int]? = nil, _ matches: (Int) -> Bool) -> Int? {
        for position in positions ?? Array(names.indices) where seen & (1 << UInt64(position)) == 0 && matches(position) {
            seen |= 1 << UInt64(position)
            return position
        }
        return nil
    }
}
