import Foundation

/// One shard as the `shards` table holds it.
public struct ShardRecord: Sendable, Hashable, Codable {
    public var index: Int
    public var state: ShardState
    public var fileCount: Int
    public var bytes: Int64
    /// How many attempts were started; the current one has this number (0: none yet).
    public var attemptCount: Int
    /// Why it failed, while it is `failed`.
    public var failure: FailureReason?
    /// When its state last changed.
    public var updatedAt: Date

    public init(index: Int, state: ShardState, fileCount: Int, bytes: Int64, attemptCount: Int,
                failure: FailureReason?, updatedAt: Date) {
        self.index = index
        self.state = state
        self.fileCount = fileCount
        self.bytes = bytes
        self.attemptCount = attemptCount
        self.failure = failure
        self.updatedAt = updatedAt
    }
}
