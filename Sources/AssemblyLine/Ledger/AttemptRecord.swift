package import Foundation

/// One attempt of a shard: one client-chosen Assembly ID, as the `attempts` table holds it.
package struct AttemptRecord: Sendable, Hashable {
    package var shardIndex: Int
    /// 1 for the shard's first attempt, then 2, 3, ...
    package var number: Int
    package var assemblyID: AssemblyID
    package var outcome: AttemptOutcome
    /// When the intent was written, before anything was sent.
    package var startedAt: Date
    /// The Assembly's status URL, once the service accepted it.
    package var assemblyURL: String?
    /// The service's tus endpoint for this Assembly, when it named one.
    package var tusURL: String?
    /// When the service accepted the Assembly.
    package var createdAt: Date?
    /// When the Assembly finished executing; its results live about 24 hours from then.
    package var completedAt: Date?
    /// Why the attempt failed, when it did.
    package var failure: FailureReason?
    /// True when the attempt's Assembly itself failed after its uploads were stored: its status carried an error
    /// (a step failed while executing, `ASSEMBLY_CRASHED`), not a transport error or a refused creation.
    package var failedExecuting: Bool
    /// The Assembly this attempt replays (`POST /assemblies/<parent>/replay`), for a replay; nil for a creation.
    package var parentAssemblyID: AssemblyID?

    package init(shardIndex: Int, number: Int, assemblyID: AssemblyID, outcome: AttemptOutcome, startedAt: Date,
                assemblyURL: String?, tusURL: String?, createdAt: Date?, completedAt: Date?,
                failure: FailureReason?, failedExecuting: Bool = false, parentAssemblyID: AssemblyID? = nil) {
        self.shardIndex = shardIndex
        self.number = number
        self.assemblyID = assemblyID
        self.outcome = outcome
        self.startedAt = startedAt
        self.assemblyURL = assemblyURL
        self.tusURL = tusURL
        self.createdAt = createdAt
        self.completedAt = completedAt
        self.failure = failure
        self.failedExecuting = failedExecuting
        self.parentAssemblyID = parentAssemblyID
    }
}

extension AttemptRecord {
    /// Where a failed shard whose last attempt this is goes back to instead of a new attempt; nil for a new attempt.
    ///
    /// The one rule for reopening, which the state machine follows and the ledger enforces: `completed`
    /// when the Assembly completed (its results are downloaded next), `executing` when it was created and
    /// the attempt failed for a reason a retry can fix (it is polled again).
    package var reopenTarget: ShardState? {
        switch outcome {
        case .completed: .completed
        case .failed where createdAt != nil && failure?.isRetryable == true: .executing
        case .open, .failed, .superseded: nil
        }
    }

    /// The attempt's Assembly as a replay would name it: when the attempt failed while its Assembly executed, after its
    /// uploads were stored; nil otherwise (``ReplayRule`` decides whether it is replayed).
    package var failedAssembly: FailedAssembly? {
        guard outcome == .failed, failedExecuting, let createdAt else { return nil }
        return FailedAssembly(id: assemblyID, createdAt: createdAt)
    }
}
