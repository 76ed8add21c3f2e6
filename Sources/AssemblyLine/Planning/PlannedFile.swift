package import ConfigFormat

/// One input file as the planner found it: where it is, what it is called in the outputs, and its identity.
///
/// A plan can hold a million of these, so the real path is not kept whole when it ends in the
/// relative path's last name (a file reached without a symlink): only its real directory is, and
/// the files found in one directory share that one string.
package struct PlannedFile: Sendable, Hashable {
    /// The path relative to `inputs.base`, with `/` separators; outputs mirror it.
    package var relativePath: String
    /// The size in bytes when it was planned.
    package var size: Int64
    /// The modification time when it was planned, in nanoseconds since 1970 (UTC).
    package var modifiedNanoseconds: Int64
    /// The real directory with a trailing `/` when the real name is the relative path's last name; else the whole real path.
    private let realPathOrDirectory: String

    /// The absolute path, with symlinks resolved; two inputs with the same real path are one file.
    package var path: String {
        guard realPathOrDirectory.utf8.last == UInt8(ascii: "/") else { return realPathOrDirectory }
        return realPathOrDirectory + PathText.lastComponent(of: relativePath)
    }

    /// Orders the real path against `path` by bytes, as ``PathText/compare(_:_:)`` does, without making the real path.
    func comparePath(to path: String) -> Int {
        var path = path
        return withPathParts { directory, name in path.withUTF8 { PathText.compare((directory, name), ($0, UnsafeBufferPointer(start: nil, count: 0))) } }
    }

    /// Orders the real paths of two files by bytes, without making them.
    static func comparePaths(_ lhs: PlannedFile, _ rhs: PlannedFile) -> Int {
        lhs.withPathParts { left, leftName in rhs.withPathParts { PathText.compare((left, leftName), ($0, $1)) } }
    }

    /// Calls `body` with the bytes of the real path in two parts, read in place (no copy of either string, whose reference
    /// counts a pass over a million files would touch): the kept directory and the relative path's last name, or the
    /// whole real path and nothing.
    private func withPathParts<T>(_ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> T) -> T {
        let none = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        let inPlace = realPathOrDirectory.utf8.withContiguousStorageIfAvailable { kept -> T? in
            guard kept.last == UInt8(ascii: "/") else { return body(kept, none) }
            return relativePath.utf8.withContiguousStorageIfAvailable { relative in
                let nameStart = relative.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0
                return body(kept, UnsafeBufferPointer(rebasing: relative[nameStart...]))
            }
        }
        if case let found?? = inPlace { return found }
        var path = path
        return path.withUTF8 { body($0, none) }
    }

    package init(path: String, relativePath: String, size: Int64, modifiedNanoseconds: Int64) {
        realPathOrDirectory = PathText.directory(of: path, namedLastAs: relativePath) ?? path
        self.relativePath = relativePath
        self.size = size
        self.modifiedNanoseconds = modifiedNanoseconds
    }

    /// A file named `realName` in the real directory `realDirectory` (which ends in `/`, or is empty for a bare name).
    init(relativePath: String, realDirectory: String, realName: String, size: Int64, modifiedNanoseconds: Int64) {
        let keepsDirectoryOnly = realDirectory.utf8.last == UInt8(ascii: "/") && PathText.endsInName(relativePath, realName)
        realPathOrDirectory = keepsDirectoryOnly ? realDirectory : realDirectory + realName
        self.relativePath = relativePath
        self.size = size
        self.modifiedNanoseconds = modifiedNanoseconds
    }

    /// Equal when the paths are the same bytes: canonically equivalent names are two files.
    package static func == (lhs: PlannedFile, rhs: PlannedFile) -> Bool {
        lhs.size == rhs.size && lhs.modifiedNanoseconds == rhs.modifiedNanoseconds
            && PathText.same(lhs.relativePath, rhs.relativePath) && PathText.same(lhs.realPathOrDirectory, rhs.realPathOrDirectory)
    }

    package func hash(into hasher: inout Hasher) {
        PathText.hashBytes(of: relativePath, into: &hasher)
        PathText.hashBytes(of: realPathOrDirectory, into: &hasher)
        hasher.combine(size)
        hasher.combine(modifiedNanoseconds)
    }
}

/// A group of files sent together as one Assembly.
package struct Shard: Sendable, Hashable {
    /// The shard's position in the plan, from 0.
    package var index: Int
    package var files: [PlannedFile]
    /// The Assembly fields its inputs carry (a URL list's rows), which every file of the shard shares; empty for most inputs.
    package var fields: [String: JSONValue]

    package init(index: Int, files: [PlannedFile], fields: [String: JSONValue] = [:]) {
        self.index = index
        self.files = files
        self.fields = fields
    }

    /// The sum of the files' sizes.
    package var bytes: Int64 { files.reduce(0) { $0 + $1.size } }

    /// Its fields as the ledger keeps them: canonical JSON, nil when there are none.
    package var fieldsJSON: String? {
        fields.isEmpty ? nil : JSONValue.object(fields).serialized
    }
}

/// The whole plan of a run: every input file in exactly one shard, in a deterministic order.
package struct Plan: Sendable, Hashable {
    package var shards: [Shard]

    package init(shards: [Shard]) {
        self.shards = shards
    }

    package var fileCount: Int { shards.reduce(0) { $0 + $1.files.count } }
    package var bytes: Int64 { shards.reduce(0) { $0 + $1.bytes } }
}
