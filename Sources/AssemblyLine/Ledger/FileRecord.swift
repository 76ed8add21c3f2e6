/// One input file of a run as the `files` table holds it.
public struct FileRecord: Sendable, Hashable, Codable {
    /// The file's number in the run: planned files first, 0-based in plan order, then skipped files.
    /// Field names sent to the service carry it, so that results map back to their input.
    public var index: Int
    /// The shard it belongs to; nil for a skipped file.
    public var shardIndex: Int?
    public var file: PlannedFile
    public var state: FileState
    /// Why it failed, while it is `failed`.
    public var failure: FailureReason?

    public init(index: Int, shardIndex: Int?, file: PlannedFile, state: FileState, failure: FailureReason?) {
        self.index = index
        self.shardIndex = shardIndex
        self.file = file
        self.state = state
        self.failure = failure
    }
}
