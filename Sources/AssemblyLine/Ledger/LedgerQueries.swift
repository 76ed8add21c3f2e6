/// The read port of the run ledger: what the reports, the history, `check`, the forecast and the shard driver read.
///
/// Nothing here writes. A read of a run that is not there throws `LedgerError.runNotFound`; storage
/// failures throw the adapter's error. ``RunLedger`` adds the writes; a ledger opened read-only
/// (``LedgerStore/withExistingLedger(in:_:)``) gives this port alone.
package protocol LedgerQueries: DoneIndexPages {
    // MARK: Runs

    /// The most recent runs, newest first.
    func recentRuns(limit: Int, matching filter: RunFilter) async throws -> [RunRecord]

    /// A run with its shards and files counted by state.
    func run(_ id: RunID) async throws -> RunSummary

    /// What the run moved and how long its shards took; without `shardDurations` (a history of many runs,
    /// which shows none) the durations are not read.
    func statistics(of id: RunID, shardDurations: Bool) async throws -> RunStatistics

    /// Every attempt of the run with its phase times and usage, by shard and attempt: the report's timeline.
    func attemptTimes(of run: RunID) async throws -> [AttemptTimes]

    /// How many steps each shard tried again within its attempts, by shard; shards with none left out.
    func stepRetries(of run: RunID) async throws -> [Int: Int]

    // MARK: Plan

    /// The run's shards, by index.
    func shards(of run: RunID) async throws -> [ShardRecord]

    /// The run's files by index, optionally only those of one shard and/or in one state.
    func files(of run: RunID, shard: Int?, state: FileState?) async throws -> [FileRecord]

    /// A page of the run's files with their current outputs, in file order: those of the shards in `shards`,
    /// or, for nil, those in no shard (known bad). A report of a million files holds one page at a time.
    func reportedFiles(of run: RunID, shards: ClosedRange<Int>?) async throws -> ReportedFilePage

    /// Files a run of the job failed under this recipe for a reason of their own (``KnownBadFile``), with that
    /// reason, as long as no run did them since and runs since kept confirming them (a prune forgets the others).
    func knownBadFiles(job: ManifestJob, recipeFingerprint: String) async throws -> [FileIdentity: FailureReason]

    /// The usage the completed Assemblies of the job's `runs` most recent runs under the recipe said they cost,
    /// with the planned bytes of their shards; nil when none said.
    func usageBasis(job: ManifestJob, recipeFingerprint: String, runs: Int) async throws -> UsageForecast.Basis?

    // MARK: Shards

    /// The shard's attempts, oldest first.
    func attempts(of run: RunID, shard: Int) async throws -> [AttemptRecord]

    /// The run's attempts that replayed a failed Assembly (``AttemptRecord/parentAssemblyID``), by shard and attempt.
    func replays(of run: RunID) async throws -> [AttemptRecord]

    /// The shard's results from every attempt, in the order they were recorded.
    func results(of run: RunID, shard: Int) async throws -> [ResultRecord]

    /// The results of each shard's latest completed Assembly, by shard: where every file's results went.
    func currentResults(of run: RunID) async throws -> [ResultRecord]

    /// The output paths of the run's downloaded results of several inputs, with their shards (``OutputClaims``).
    func severalInputOutputs(of run: RunID) async throws -> [(path: String, shard: Int)]

    /// The shard's tus uploads of every attempt, by attempt and file index.
    func uploads(of run: RunID, shard: Int) async throws -> [UploadRecord]

    /// The run's history, oldest first, optionally only one shard's.
    func events(of run: RunID, shard: Int?) async throws -> [EventRecord]
}

extension LedgerQueries {
    /// What the run moved and how long each of its shards took.
    package func statistics(of id: RunID) async throws -> RunStatistics {
        try await statistics(of: id, shardDurations: true)
    }

    /// All files of a run, by index.
    package func files(of run: RunID) async throws -> [FileRecord] {
        try await files(of: run, shard: nil, state: nil)
    }

    /// The newest runs, of any manifest and state.
    package func recentRuns(limit: Int) async throws -> [RunRecord] {
        try await recentRuns(limit: limit, matching: RunFilter())
    }

    /// The newest run that `filter` matches, or nil when the ledger holds none.
    package func latestRun(matching filter: RunFilter = RunFilter()) async throws -> RunRecord? {
        try await recentRuns(limit: 1, matching: filter).first
    }
}
