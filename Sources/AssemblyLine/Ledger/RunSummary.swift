/// A run with its shards and files counted by state: what `report` and `resume` start from.
package struct RunSummary: Sendable, Hashable {
    package var record: RunRecord
    /// Every state is present, with 0 where no shard is in it.
    package var shardsByState: [ShardState: Int]
    /// Every state is present, with 0 where no file is in it.
    package var filesByState: [FileState: Int]

    package init(record: RunRecord, shardsByState: [ShardState: Int], filesByState: [FileState: Int]) {
        self.record = record
        self.shardsByState = Dictionary(uniqueKeysWithValues: ShardState.allCases.map { ($0, shardsByState[$0] ?? 0) })
        self.filesByState = Dictionary(uniqueKeysWithValues: FileState.allCases.map { ($0, filesByState[$0] ?? 0) })
    }

    /// The shards not yet done (any state but `downloaded`).
    package var unfinishedShards: Int {
        shardsByState.filter { !$0.key.isDone }.values.reduce(0, +)
    }
}
