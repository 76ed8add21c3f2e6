import Synchronization

/// What closes a night's creations when its shards fail alike: the failure breaker, and a local fault.
///
/// The breaker trips when the first `threshold` shards to end all failed with one failure code that a retry
/// does not mend, and none of them succeeded (a broken Template or Robot parameter fails every Assembly: S3
/// Batch Operations stops a job past a failure threshold the same way). A shard that failed by its files alone
/// (known bad, a culprit file) or by the client's own checks before sending is not counted. A local fault
/// (``FailureCode/meansLocalFault``) closes creations at once: every shard would meet it.
package final class FailureBreaker: Sendable {
    /// How many first ends decide; 0 for no breaker (`--no-breaker`, `limits.failure_breaker: 0`).
    package let threshold: Int
    private let gate: CreationGate
    /// The codes of the first counted ends; nil once a success or a second code decided that the breaker stays closed.
    private let codes = Mutex<[FailureCode]?>([])

    package init(threshold: Int, gate: CreationGate) {
        self.threshold = threshold
        self.gate = gate
    }

    /// Counts one shard's end, and closes the gate when it trips the breaker or is a local fault.
    package func record(_ end: ShardEnd) {
        guard case let .failed(reason, byItsFiles) = end.outcome else {
            if end.outcome == .done { codes.withLock { $0 = nil } }
            return
        }
        if reason.code.meansLocalFault { return gate.close(.localFault(reason)) }
        guard threshold > 0, !byItsFiles, !reason.isRetryable, !reason.code.isClientCheck else { return }
        let tripped = codes.withLock { codes -> Bool in
            guard var counted = codes, counted.count < threshold else { return false }
            counted.append(reason.code)
            guard Set(counted).count == 1 else {
                codes = nil
                return false
            }
            codes = counted
            return counted.count == threshold
        }
        if tripped { gate.close(.breaker(reason.code, shards: threshold)) }
    }
}
