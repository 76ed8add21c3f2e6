package import Foundation

/// Everything the ledger needs to record a run and its whole plan in one transaction.
package struct NewRun: Sendable, Hashable {
    package var id: RunID
    /// The manifest's absolute path; incremental runs match earlier runs by it.
    package var manifestPath: String
    /// The manifest's `name`.
    package var manifestName: String
    /// A digest of what is done to each file (Template or steps, fields), computed by the caller;
    /// a file counts as done in a later run only under the same fingerprint.
    package var recipeFingerprint: String
    package var plan: Plan
    /// Files left out because an earlier run already did them; recorded as `skipped`, in no shard.
    package var skipped: [PlannedFile]
    /// Files left out because an earlier run failed them for a reason of their own; recorded as `known_bad`, in no shard.
    package var knownBad: [KnownBadFile]
    package var createdAt: Date

    package init(id: RunID, manifestPath: String, manifestName: String, recipeFingerprint: String,
                plan: Plan, skipped: [PlannedFile] = [], knownBad: [KnownBadFile] = [], createdAt: Date) {
        self.id = id
        self.manifestPath = manifestPath
        self.manifestName = manifestName
        self.recipeFingerprint = recipeFingerprint
        self.plan = plan
        self.skipped = skipped
        self.knownBad = knownBad
        self.createdAt = createdAt
    }
}
