package import Foundation

/// Everything the ledger needs to record a run and its whole plan in one transaction.
package struct NewRun: Sendable, Hashable {
    package var id: RunID
    /// The manifest's absolute path.
    package var manifestPath: String
    /// The job the run is of: incremental runs match earlier runs of it (``ManifestJob``).
    package var job: ManifestJob
    /// What the manifest takes as inputs (``Manifest/inputsKey``).
    package var inputsKey: String
    /// The manifest's `name`.
    package var manifestName: String
    /// A digest of what is done to each file (Template or steps, fields), computed by the caller;
    /// a file counts as done in a later run only under the same fingerprint.
    package var recipeFingerprint: String
    /// The account Template the recipe names (`template.id`), when it names one: a resume may follow an edit of its file.
    package var templateID: String?
    /// The SHA-256 of the Template file's content the run sends (``TemplateDocument/canonicalContent``), when it has one.
    package var templateSHA256: String?
    package var plan: Plan
    /// How many files were left out because an earlier run already did them: counted, in no table of the run.
    package var skippedCount: Int
    /// What the run tells the done index of the files it skipped and did not; nil when it did not read
    /// the index (`--force`), which then confirms nothing.
    package var review: DoneIndexReview?
    /// Files left out because an earlier run failed them for a reason of their own; recorded as `known_bad`, in no shard.
    package var knownBad: [KnownBadFile]
    package var createdAt: Date
    /// The batch the run is a partition of (``BatchID/daily(_:at:)`` unless given).
    package var batch: BatchID?
    /// Which part of the batch's files it takes.
    package var partition: Partition

    package init(id: RunID, manifestPath: String, manifestName: String, recipeFingerprint: String,
                plan: Plan, skippedCount: Int = 0, review: DoneIndexReview? = nil, knownBad: [KnownBadFile] = [], createdAt: Date,
                batch: BatchID? = nil, partition: Partition = .whole, job: ManifestJob? = nil, inputsKey: String = "",
                templateID: String? = nil, templateSHA256: String? = nil) {
        self.id = id
        self.manifestPath = manifestPath
        self.job = job ?? ManifestJob(legacyPath: manifestPath)
        self.inputsKey = inputsKey
        self.manifestName = manifestName
        self.recipeFingerprint = recipeFingerprint
        self.templateID = templateID
        self.templateSHA256 = templateSHA256
        self.plan = plan
        self.skippedCount = skippedCount
        self.review = review
        self.knownBad = knownBad
        self.createdAt = createdAt
        self.batch = batch
        self.partition = partition
    }
}
