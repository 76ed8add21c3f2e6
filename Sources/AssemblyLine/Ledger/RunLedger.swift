package import Foundation

/// The port to the run ledger: the single source of truth of every run, its plan and each shard's progress.
///
/// Every mutating method is one transaction that is committed before it returns, so that the
/// pipeline can write each step before it takes the next, and a crash leaves a state a resume
/// continues from. Rule violations throw `LedgerError`; storage failures throw the adapter's error.
/// Every time is given by the caller (`at:`), so that a clock can be injected.
package protocol RunLedger: Sendable {
    // MARK: Runs

    /// Records a run, its shards (`planned`) and its files (`pending`, or `skipped`) in one transaction.
    @discardableResult
    func createRun(_ run: NewRun) async throws -> RunRecord

    /// The most recent runs, newest first.
    func recentRuns(limit: Int, matching filter: RunFilter) async throws -> [RunRecord]

    /// A run with its shards and files counted by state; throws `LedgerError.runNotFound`.
    func run(_ id: RunID) async throws -> RunSummary

    /// What the run moved and how long its shards took; throws `LedgerError.runNotFound`.
    func statistics(of id: RunID) async throws -> RunStatistics

    /// Moves a run to `state` (see `RunState.canTransition(to:)`); an ended state sets `finishedAt`.
    func updateRunState(_ id: RunID, to state: RunState, at time: Date) async throws

    /// Records how the run's process ended it (`state`), unless an operator canceled it meanwhile
    /// (`cancel` records that before it stops the process); returns the state the run is in.
    func endRun(_ id: RunID, as state: RunState, at time: Date) async throws -> RunState

    // MARK: Plan

    /// The run's shards, by index.
    func shards(of run: RunID) async throws -> [ShardRecord]

    /// The run's files by index, optionally only those of one shard and/or in one state.
    func files(of run: RunID, shard: Int?, state: FileState?) async throws -> [FileRecord]

    /// Files a run of this manifest did under this recipe and that runs since have kept confirming (a
    /// prune forgets the others), each with the outputs the run that did it last recorded: what an
    /// incremental run may skip while those outputs are still on disk as they were made.
    func completedFiles(manifestPath: String, recipeFingerprint: String) async throws -> [FileIdentity: CompletedFile]

    /// Files a run of this manifest failed under this recipe for a reason of their own (``KnownBadFile``),
    /// with that reason, as long as no run did them since and runs since kept confirming them (a prune forgets the others).
    func knownBadFiles(manifestPath: String, recipeFingerprint: String) async throws -> [FileIdentity: FailureReason]

    /// The usage the completed Assemblies of the manifest's `runs` most recent runs under the recipe said they
    /// cost, with the planned bytes of their shards; nil when none said.
    func usageBasis(manifestPath: String, recipeFingerprint: String, runs: Int) async throws -> UsageForecast.Basis?

    // MARK: Shard state machine

    /// Writes the intent of a new attempt with its client-chosen Assembly ID, before anything is sent.
    ///
    /// The shard must be `planned`; an attempt still open is marked superseded.
    @discardableResult
    func recordAttempt(_ run: RunID, shard: Int, assemblyID: AssemblyID, at time: Date) async throws -> AttemptRecord

    /// Moves a shard along its state machine and writes the transition's facts with it
    /// (see `ShardTransition`); an illegal move throws `LedgerError.illegalShardTransition`.
    func transition(_ run: RunID, shard: Int, _ transition: ShardTransition, at time: Date) async throws

    /// The shard's attempts, oldest first.
    func attempts(of run: RunID, shard: Int) async throws -> [AttemptRecord]

    /// The shard's results from every attempt, in the order they were recorded.
    func results(of run: RunID, shard: Int) async throws -> [ResultRecord]

    /// Writes the status URL of the shard's open attempt anew: the service named another machine for its Assembly.
    func recordStatusURL(_ run: RunID, shard: Int, url: String, at time: Date) async throws

    /// The results of each shard's latest completed Assembly, by shard: where every file's results went.
    func currentResults(of run: RunID) async throws -> [ResultRecord]

    /// The output paths of the run's downloaded results of several inputs, with their shards (``OutputClaims``).
    func severalInputOutputs(of run: RunID) async throws -> [(path: String, shard: Int)]

    /// Counts one more fetch of a result, before it starts; returns the fetches so far, this one included.
    func recordFetch(_ run: RunID, result: Int64) async throws -> Int

    /// Marks a result as downloaded and verified; recording it again changes nothing.
    func recordDownload(_ run: RunID, result: Int64, at time: Date) async throws

    /// Marks single files as failed (a corrupt input, a result that never came) without failing their shard;
    /// `knownBad` enters them in the index of ``KnownBadFile``s, which the next runs leave out.
    func failFiles(_ run: RunID, files: [Int], reason: FailureReason, knownBad: Bool, at time: Date) async throws

    // MARK: Resumable uploads

    /// Records a file's tus upload for an attempt of its shard, right after the server created it, at offset 0.
    ///
    /// A different URL or length for the same file and attempt replaces the earlier upload (a new
    /// one was created); recording the same upload again changes nothing. Throws
    /// `LedgerError.attemptNotFound`, `.fileNotFound`, `.fileNotInShard` or `.invalidUploadLength`.
    func recordUpload(_ run: RunID, shard: Int, attempt: Int, file: Int, url: String, length: Int64,
                      at time: Date) async throws

    /// Moves the recorded offset of the file's tus upload at `url` forward to what the server confirmed.
    ///
    /// The same offset again changes nothing. Throws `LedgerError.uploadNotFound` when no upload of
    /// the file is recorded under `url` (it was replaced), `.uploadOffsetBackwards` for a smaller
    /// offset, `.uploadOffsetBeyondLength` for one past the upload's length.
    func recordUploadOffset(_ run: RunID, shard: Int, attempt: Int, file: Int, url: String, offset: Int64,
                            at time: Date) async throws

    /// The shard's tus uploads of every attempt, by attempt and file index.
    func uploads(of run: RunID, shard: Int) async throws -> [UploadRecord]

    // MARK: Events

    /// Adds a line to the run's history (a retry, a cancelled Assembly, an ended stream).
    func recordEvent(_ run: RunID, shard: Int?, _ note: LedgerNote, at time: Date) async throws

    /// The run's history, oldest first, optionally only one shard's.
    func events(of run: RunID, shard: Int?) async throws -> [EventRecord]
}

extension RunLedger {
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
