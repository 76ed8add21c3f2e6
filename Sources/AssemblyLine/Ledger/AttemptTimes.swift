package import Foundation

/// When one attempt of a shard passed each phase, and what it cost: a bar of the report's timeline.
///
/// A time is nil when the attempt never reached the phase, or when it ran before the ledger kept it
/// (schema v12). The phases are signing (intent to signature), upload (to the last byte sent), execution
/// (to the Assembly's completion) and download (to the last result verified).
package struct AttemptTimes: Sendable, Hashable {
    package var shardIndex: Int
    package var number: Int
    package var outcome: AttemptOutcome
    package var startedAt: Date
    package var signedAt: Date?
    package var uploadedAt: Date?
    package var completedAt: Date?
    package var downloadedAt: Date?
    /// When it failed, for a failed attempt.
    package var failedAt: Date?
    /// Why it failed, for a failed attempt.
    package var failure: FailureReason?
    package var usage: AssemblyUsage

    package init(shardIndex: Int, number: Int, outcome: AttemptOutcome, startedAt: Date, signedAt: Date?, uploadedAt: Date?,
                 completedAt: Date?, downloadedAt: Date?, failedAt: Date?, failure: FailureReason?, usage: AssemblyUsage) {
        self.shardIndex = shardIndex
        self.number = number
        self.outcome = outcome
        self.startedAt = startedAt
        self.signedAt = signedAt
        self.uploadedAt = uploadedAt
        self.completedAt = completedAt
        self.downloadedAt = downloadedAt
        self.failedAt = failedAt
        self.failure = failure
        self.usage = usage
    }

    /// The last time the attempt is known to have been at work.
    package var lastKnown: Date {
        downloadedAt ?? failedAt ?? completedAt ?? uploadedAt ?? signedAt ?? startedAt
    }
}
