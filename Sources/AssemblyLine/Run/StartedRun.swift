/// A run recorded and about to drive its shards: new, or taken up again by `resume`.
package struct StartedRun: Sendable {
    /// How the run came to start.
    package enum Origin: Sendable, Hashable {
        /// A new run of the manifest, with the forecast it was recorded from.
        case new(RunForecast)
        /// A resume of a run recorded before.
        case resumed
    }

    package var runID: RunID
    package var stateDirectory: String
    package var origin: Origin
    /// The shards this process drives, as the ledger holds them now.
    package var shards: [ShardRecord]
    /// The batch the run is a partition of, and which part of its files it took: told in each Assembly's `fields`.
    package var batch: BatchID?
    package var partition: Partition = .whole
    /// The killed or interrupted run of the job this new run took over first, if any.
    package var takeover: Takeover?
}
