/// One input file of a run as the `files` table holds it.
package struct FileRecord: Sendable, Hashable {
    /// The file's number in the run: planned files first, 0-based in plan order, then skipped files.
    /// Field names sent to the service carry it, so that results map back to their input.
    package var index: Int
    /// The shard it belongs to; nil for a skipped file.
    package var shardIndex: Int?
    package var file: PlannedFile
    package var state: FileState
    /// Why it failed, while it is `failed`.
    package var failure: FailureReason?

    package init(index: Int, shardIndex: Int?, file: PlannedFile, state: FileState, failure: FailureReason?) {
        self.index = index
        self.shardIndex = shardIndex
        self.file = file
        self.state = state
        self.failure = failure
    }
}
