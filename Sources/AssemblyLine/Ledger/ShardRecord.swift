package import ConfigFormat
package import Foundation

/// One shard as the `shards` table holds it.
package struct ShardRecord: Sendable, Hashable {
    package var index: Int
    package var state: ShardState
    package var fileCount: Int
    package var bytes: Int64
    /// How many attempts were started; the current one has this number (0: none yet).
    package var attemptCount: Int
    /// Why it failed, while it is `failed`.
    package var failure: FailureReason?
    /// When its state last changed.
    package var updatedAt: Date
    /// The Assembly fields its inputs carry (``Shard/fields``), which every attempt sends.
    package var fields: [String: JSONValue]

    /// A shard whose fields are `fieldsJSON`, the text ``Shard/fieldsJSON`` gave the ledger (nil: none).
    package init(index: Int, state: ShardState, fileCount: Int, bytes: Int64, attemptCount: Int,
                failure: FailureReason?, updatedAt: Date, fieldsJSON: String? = nil) {
        self.index = index
        self.state = state
        self.fileCount = fileCount
        self.bytes = bytes
        self.attemptCount = attemptCount
        self.failure = failure
        self.updatedAt = updatedAt
        fields = fieldsJSON.flatMap { try? JSONValue(parsing: $0).objectValue } ?? [:]
    }
}
