/// How one shard's drive ended, as the run's breaker and a takeover count it.
package struct ShardEnd: Sendable, Hashable {
    /// What became of the shard.
    package enum Outcome: Sendable, Hashable {
        /// Downloaded: every file done or without result.
        case done
        /// Failed with `reason`; `byItsFiles` when its last pending file failed alone (a known bad or culprit file).
        case failed(FailureReason, byItsFiles: Bool)
        /// Left where the ledger has it (`state`): creations stopped, or the run was.
        case left(ShardState)
    }

    package var shard: Int
    package var outcome: Outcome

    /// The ledger state the shard ended in.
    package var state: ShardState {
        switch outcome {
        case .done: .downloaded
        case .failed: .failed
        case let .left(state): state
        }
    }

    package init(shard: Int, outcome: Outcome) {
        self.shard = shard
        self.outcome = outcome
    }
}
