extension Plan {
    /// Cuts files, already in plan order, into shards filled in that order within `limits`.
    ///
    /// A new shard starts when the next file would exceed the file count or the byte budget of the
    /// current one; a file larger than the byte budget is a shard of its own. The same files and
    /// limits always give the same shards. No files give no shards.
    package init(sharding files: [PlannedFile], limits: ShardLimits) {
        var shards: [Shard] = []
        var current: [PlannedFile] = []
        var currentBytes: Int64 = 0
        for file in files {
            if !limits.admits(size: file.size, intoShardOf: current.count, bytes: currentBytes) {
                shards.append(Shard(index: shards.count, files: current))
                current = []
                currentBytes = 0
            }
            current.append(file)
            currentBytes += file.size
        }
        if !current.isEmpty {
            shards.append(Shard(index: shards.count, files: current))
        }
        self.init(shards: shards)
    }
}
