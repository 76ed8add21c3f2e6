package import Foundation

/// The port to the run ledger: the single source of truth of every run, its plan and each shard's progress.
///
/// Every mutating method is one transaction that is committed before it returns, so that the
/// pipeline can write each step before it takes the next, and a crash leaves a state a resume
/// continues from. Rule violations throw `LedgerError`; storage failures throw the adapter's error.
/// Every time is given by the caller (`at:`), so that a clock can be injected. What it reads is
/// ``LedgerQueries``.
package protocol RunLedger: LedgerQueries {
    // MARK: Runs

    /// Records a run, its shards (`planned`) and its files (`pending`, or `skipped`) in one transaction.
    @discardableResult
    func createRun(_ run: NewRun) async throws -> RunRecord

    /// Moves a run to `state` (see `RunState.canTransition(to:)`); an ended state sets `finishedAt`.
    func updateRunState(_ id: RunID, to state: RunState, at time: Date) async throws

    /// Records how the run's process ended it (`state`), unless an operator canceled it meanwhile
    /// (`cancel` records that before it stops the process); returns the state the run is in.
    func endRun(_ id: RunID, as state: RunState, at time: Date) async throws -> RunState

    /// Takes the rows of the job keyed `key` (its runs, done sets and known bad files) into `job`, and records
    /// `inputsKey` on those runs that have none; returns how many runs. A job's first run takes those its manifest's
    /// path wrote before the ledger kept jobs (``ManifestJob/legacyKey(of:)``); `--adopt` those of the job it adopts.
    /// A done set of the same recipe on both sides keeps `job`'s entry of a file both hold.
    @discardableResult
    func claim(rowsOf key: String, into job: ManifestJob, inputsKey: String) async throws -> Int

    /// Records `interrupted` each of `runs` still `running`: the caller knows their processes are gone (killed, or lost
    /// with their machine: none holds their job's lock); returns those it moved.
    @discardableResult
    func recordInterrupted(_ runs: [RunID], at time: Date) async throws -> [RunID]

    /// Writes the run's recipe fingerprint anew: a resume goes on under its Template's edited content, so that the files it
    /// makes enter the done index under the recipe that made them, and its content hash is the new one. The job's done
    /// set of that recipe is entered too.
    func updateRecipe(_ id: RunID, fingerprint: String, templateSHA256: String?, at time: Date) async throws

    /// Ends an interrupted run for good: `successor` took it over (followed its Assemblies and sent the rest).
    func supersede(_ id: RunID, by successor: RunID, at time: Date) async throws

    /// Deletes the runs created before `cutoff` that are not `running` (but for those of `gone`, whose process is) and not
    /// among the `keep` newest of their job, with every row of theirs, and forgets the done and known bad files no run
    /// confirmed since (a job's cutoff is no later than its `keep`-th newest run, so that what the next night relies on
    /// stays); with `dryRun`, only counts them.
    func prune(createdBefore cutoff: Date, keepingLast keep: Int, gone: [RunID], dryRun: Bool) async throws -> LedgerPruning

    /// Deletes the done index's `entries` with their outputs (``OrphanPrune``: files whose input is gone); returns how many went.
    @discardableResult
    func forgetDoneFiles(_ entries: [Int64]) async throws -> Int

    /// Moves the job's done files under the recipe `earlier` into its set under `recipe` (`--accept-recipe`: the
    /// operator knows the change makes the same outputs); a path the new set holds keeps its own entry. Returns how many moved.
    @discardableResult
    func carryDoneFiles(job: ManifestJob, from earlier: String, to recipe: String) async throws -> Int

    // MARK: Shard state machine

    /// Writes the intent of a new attempt with its client-chosen Assembly ID, before anything is sent; `parent` is the
    /// failed Assembly the attempt replays, nil for a creation (a replay's ID is the service's: the ``ShardTransition/created(assemblyURL:tusURL:bytesSent:replayID:)``
    /// that records its answer writes it in place of `assemblyID`).
    ///
    /// The shard must be `planned`; an attempt still open is marked superseded.
    @discardableResult
    func recordAttempt(_ run: RunID, shard: Int, assemblyID: AssemblyID, replaying parent: AssemblyID?, at time: Date) async throws
        -> AttemptRecord

    /// Moves a shard along its state machine and writes the transition's facts with it
    /// (see `ShardTransition`); an illegal move throws `LedgerError.illegalShardTransition`, and so does
    /// a `.downloaded` verdict on the shard's pending files that its results contradict.
    func transition(_ run: RunID, shard: Int, _ transition: ShardTransition, at time: Date) async throws

    /// Writes the status URL of the shard's open attempt anew: the service named another machine for its Assembly.
    func recordStatusURL(_ run: RunID, shard: Int, url: String, at time: Date) async throws

    /// Counts one more fetch of each of `results`, before they start, in one transaction.
    func recordFetches(_ run: RunID, results: [Int64]) async throws

    /// Marks `results` as downloaded and verified, in one transaction; recording one again changes nothing.
    func recordDownloads(_ run: RunID, results: [Int64], at time: Date) async throws

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

    // MARK: Events

    /// Adds a line to the run's history (a retry, a cancelled Assembly, an ended stream).
    func recordEvent(_ run: RunID, shard: Int?, _ note: LedgerNote, at time: Date) async throws
}

extension RunLedger {
    /// Writes the intent of a new attempt that creates its Assembly (no replay).
    @discardableResult
    package func recordAttempt(_ run: RunID, shard: Int, assemblyID: AssemblyID, at time: Date) async throws -> AttemptRecord {
        try await recordAttempt(run, shard: shard, assemblyID: assemblyID, replaying: nil, at: time)
    }
}
