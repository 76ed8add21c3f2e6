/// How big one shard (one Assembly) may get: at most `maxFiles` files and `maxBytes` bytes; nil means no limit.
///
/// A single file larger than `maxBytes` still goes into a shard, alone.
package struct ShardLimits: Sendable, Hashable {
    package var maxFiles: Int?
    package var maxBytes: Int64?

    package init(maxFiles: Int? = nil, maxBytes: Int64? = nil) {
        self.maxFiles = maxFiles
        self.maxBytes = maxBytes
    }

    /// - Throws: `PlanError.invalidLimit` for a limit below 1.
    func validate() throws(PlanError) {
        if let maxFiles, maxFiles < 1 {
            throw PlanError.invalidLimit(name: "files", value: Int64(maxFiles))
        }
        if let maxBytes, maxBytes < 1 {
            throw PlanError.invalidLimit(name: "max_bytes", value: maxBytes)
        }
    }

    /// Whether a shard holding `count` files of `bytes` in total may take one more file of `size` bytes.
    ///
    /// An empty shard takes any file, so a file above the byte budget becomes a shard of its own.
    func admits(size: Int64, intoShardOf count: Int, bytes: Int64) -> Bool {
        guard count > 0 else { return true }
        if let maxFiles, count + 1 > maxFiles { return false }
        if let maxBytes, bytes + size > maxBytes { return false }
        return true
    }
}
