package import Foundation

/// One run as the `runs` table holds it.
package struct RunRecord: Sendable, Hashable {
    package var id: RunID
    package var manifestPath: String
    package var manifestName: String
    package var recipeFingerprint: String
    package var state: RunState
    package var createdAt: Date
    /// The last time the run's state changed.
    package var updatedAt: Date
    /// When it last ended (finished, failed or interrupted); nil while running.
    package var finishedAt: Date?
    package var shardCount: Int
    /// Files in shards (skipped files not included).
    package var fileCount: Int
    package var skippedCount: Int
    /// The planned bytes of the files in shards.
    package var bytes: Int64
    /// The batch the run is a partition of; nil for runs recorded before batches were.
    package var batch: BatchID?
    /// Which part of its batch's files the run took (``Partition/whole`` without `--partition`).
    package var partition: Partition
    /// The job the run is of (``ManifestJob/key``); `path:<manifest path>` for a run recorded before jobs were.
    package var jobKey: String
    /// What the run's manifest took as inputs (``Manifest/inputsKey``); empty for a run recorded before.
    package var inputsKey: String
    /// The run that took this one over, when it is `superseded`.
    package var supersededBy: RunID?
    /// The account Template the run's recipe names, when it names one (recorded since ledger version 15).
    package var templateID: String?
    /// The SHA-256 of the Template file's content the run sent, when its recipe is a Template file (since version 15).
    package var templateSHA256: String?

    package init(id: RunID, manifestPath: String, manifestName: String, recipeFingerprint: String,
                state: RunState, createdAt: Date, updatedAt: Date, finishedAt: Date?,
                shardCount: Int, fileCount: Int, skippedCount: Int, bytes: Int64, batch: BatchID? = nil, partition: Partition = .whole,
                jobKey: String? = nil, inputsKey: String = "", supersededBy: RunID? = nil, templateID: String? = nil,
                templateSHA256: String? = nil) {
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
        self.batch = batch
        self.partition = partition
        self.jobKey = jobKey ?? ManifestJob.legacyKey(of: manifestPath)
        self.inputsKey = inputsKey
        self.supersededBy = supersededBy
        self.templateID = templateID
        self.templateSHA256 = templateSHA256
    }
}
