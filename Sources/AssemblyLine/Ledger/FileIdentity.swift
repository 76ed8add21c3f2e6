/// What makes a file "the same file" for incremental runs: its real path (its bytes), size and modification time.
package struct FileIdentity: Sendable, Hashable {
    package var path: String
    package var size: Int64
    package var modifiedNanoseconds: Int64

    package init(path: String, size: Int64, modifiedNanoseconds: Int64) {
        self.path = path
        self.size = size
        self.modifiedNanoseconds = modifiedNanoseconds
    }

    /// The identity of a planned file.
    package init(_ file: PlannedFile) {
        self.init(path: file.path, size: file.size, modifiedNanoseconds: file.modifiedNanoseconds)
    }

    package static func == (lhs: FileIdentity, rhs: FileIdentity) -> Bool {
        lhs.size == rhs.size && lhs.modifiedNanoseconds == rhs.modifiedNanoseconds && PathText.same(lhs.path, rhs.path)
    }

    /// Orders identities as the done index's unique key does: path bytes, then size, then modification time; negative, zero or positive.
    package static func order(_ lhs: FileIdentity, _ rhs: FileIdentity) -> Int {
        order(byPath: PathText.compare(lhs.path, rhs.path), lhs.size, lhs.modifiedNanoseconds, rhs)
    }

    /// Orders a planned file's identity against `identity` as ``order(_:_:)`` does, without making the file's real path.
    static func order(_ file: PlannedFile, _ identity: FileIdentity) -> Int {
        order(byPath: file.comparePath(to: identity.path), file.size, file.modifiedNanoseconds, identity)
    }

    /// The order of paths compared `byPath`, then of sizes, then of modification times.
    private static func order(byPath: Int, _ size: Int64, _ modifiedNanoseconds: Int64, _ rhs: FileIdentity) -> Int {
        if byPath != 0 { return byPath }
        if size != rhs.size { return size < rhs.size ? -1 : 1 }
        return modifiedNanoseconds == rhs.modifiedNanoseconds ? 0 : modifiedNanoseconds < rhs.modifiedNanoseconds ? -1 : 1
    }

    package func hash(into hasher: inout Hasher) {
        PathText.hashBytes(of: path, into: &hasher)
        hasher.combine(size)
        hasher.combine(modifiedNanoseconds)
    }
}
