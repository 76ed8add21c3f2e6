/// One input file as the planner found it: where it is, what it is called in the outputs, and its identity.
package struct PlannedFile: Sendable, Hashable, Codable {
    /// The absolute path, with symlinks resolved; two inputs with the same real path are one file.
    package var path: String
    /// The path relative to `inputs.base`, with `/` separators; outputs mirror it.
    package var relativePath: String
    /// The size in bytes when it was planned.
    package var size: Int64
    /// The modification time when it was planned, in nanoseconds since 1970 (UTC).
    package var modifiedNanoseconds: Int64

    package init(path: String, relativePath: String, size: Int64, modifiedNanoseconds: Int64) {
        self.path = path
        self.relativePath = relativePath
        self.size = size
        self.modifiedNanoseconds = modifiedNanoseconds
    }
}

/// A group of files sent together as one Assembly.
package struct Shard: Sendable, Hashable, Codable {
    /// The shard's position in the plan, from 0.
    package var index: Int
    package var files: [PlannedFile]

    package init(index: Int, files: [PlannedFile]) {
        self.index = index
        self.files = files
    }

    /// The sum of the files' sizes.
    package var bytes: Int64 { files.reduce(0) { $0 + $1.size } }
}

/// The whole plan of a run: every input file in exactly one shard, in a deterministic order.
package struct Plan: Sendable, Hashable, Codable {
    package var shards: [Shard]

    package init(shards: [Shard]) {
        self.shards = shards
    }

    package var fileCount: Int { shards.reduce(0) { $0 + $1.files.count } }
    package var bytes: Int64 { shards.reduce(0) { $0 + $1.bytes } }
}
