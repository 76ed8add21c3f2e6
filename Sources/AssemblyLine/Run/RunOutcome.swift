/// How a run ended, as the ledger recorded it, and what its summary says.
package struct RunOutcome: Sendable {
    package var runID: RunID
    /// How the shards this process drove ended: finished, failed or interrupted; canceled when `cancel`
    /// stopped the run. The ledger says `interrupted` for a run whose other shards were left (a
    /// `resume --shard`), so that a later resume goes on.
    package var state: RunState
    /// The codes the run's failed files and shards failed with.
    package var failures: Set<FailureCode>
    package var summary: RunSummary
    package var elapsed: Duration
    /// Why the run stopped creating Assemblies before its shards were done, if it did (the failure breaker, a local fault).
    package var creationStop: CreationStop?

    package init(runID: RunID, state: RunState, failures: Set<FailureCode>, summary: RunSummary, elapsed: Duration,
                 creationStop: CreationStop? = nil) {
        self.runID = runID
        self.state = state
        self.failures = failures
        self.summary = summary
        self.elapsed = elapsed
        self.creationStop = creationStop
    }
}
