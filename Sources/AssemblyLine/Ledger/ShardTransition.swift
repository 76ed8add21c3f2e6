/// One move of a shard's state machine, with the facts that must be written together with it.
package enum ShardTransition: Sendable, Hashable {
    /// The current attempt's params are signed; its Assembly ID is about to be sent.
    case signed
    /// The service accepted the current attempt's Assembly, with `bytesSent` bytes of files in the creating request.
    /// `replayID` is the ID the service gave a replay (a replay's ID is the service's, not ours): it takes the place of
    /// the one the intent held.
    case created(assemblyURL: String, tusURL: String?, bytesSent: Int64 = 0, replayID: AssemblyID? = nil)
    /// Every file of the shard has reached the service.
    case uploaded
    /// The service reports the Assembly as executing.
    case executing
    /// The Assembly completed; its results are recorded, pending download, with what it says it cost.
    case completed(results: [NewResult], usage: AssemblyUsage = .unknown)
    /// Every result of the completing attempt is downloaded and verified; the shard's pending files end as the
    /// machine found: `done` those a result counts for (its own, or one of several inputs that names it) that is
    /// in place or in the customer's storage, `noResult` those the Assembly made none for. Every pending file is
    /// in one of the two.
    case downloaded(done: [Int], noResult: [Int])
    /// The shard stops with `reason`; its pending files fail with it, and so does an open attempt. `executing`: the
    /// attempt's Assembly itself failed after its uploads were stored (``AttemptRecord/failedExecuting``).
    case failed(FailureReason, executing: Bool = false)
    /// The shard goes back to `planned` for a new attempt. Restarting a failed shard makes its failed
    /// files pending again; restarting one that is still running keeps the files that failed alone.
    case restarted

    /// A failed shard goes back to its last attempt's Assembly instead of a new one: `.completed` when
    /// that Assembly completed (its results are downloaded next), `.executing` when it was created and
    /// the attempt failed for a reason a retry can fix (it is polled again, and the attempt is open again).
    /// The files that failed with the shard become pending again.
    case reopened(at: ShardState)

    /// The state the shard is in after the move.
    package var target: ShardState {
        switch self {
        case .signed: .signed
        case .created: .created
        case .uploaded: .uploaded
        case .executing: .executing
        case .completed: .completed
        case .downloaded: .downloaded
        case .failed: .failed
        case .restarted: .planned
        case .reopened(let state): state
        }
    }
}
