import Foundation

/// One run as the `runs` table holds it.
public struct RunRecord: Sendable, Hashable, Codable {
    public var id: RunID
    public var manifestPath: String
    public var manifestName: String
    public var recipeFingerprint: String
    public var state: RunState
    public var createdAt: Date
    /// The last time the run's state changed.
    public var updatedAt: Date
    /// When it last ended (finished, failed or interrupted); nil while running.
    public var finishedAt: Date?
    public var shardCount: Int
    /// Files in shards (skipped files not included).
    public var fileCount: Int
    public var skippedCount: Int
    /// The planned bytes of the files in shards.
    public var bytes: Int64

    public init(id: RunID, manifestPath: String, manifestName: String, recipeFingerprint: String,
                state: RunState, createdAt: Date, updatedAt: Date, finishedAt: Date?,
                shardCount: Int, fileCount: Int, skippedCount: Int, bytes: Int64) {
        self.id = id
        self.manifestPath = manifestPath
        self.manifestName = manifestName
        self.recipeFingerprint = recipeFingerprint
        self.state = state
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.finishedAt = finishedAt
        self.shardCount = shardCount
        self.fileCount = fileCount
        self.skippedCount = skippedCount
        self.bytes = bytes
    }
}
