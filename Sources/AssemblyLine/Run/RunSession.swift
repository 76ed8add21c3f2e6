import Foundation

/// A run of a manifest as one use case of the domain: forecast, start, drive, finish.
///
/// `run`, `resume`, `plan` and `run --dry-run` are this type, called from a command that only
/// parses, calls and prints (the shape of rclone's `cmd/copy`). What it needs from outside comes
/// through ``RunAdapters`` (ledger, transport, signer, clock) and what it tells goes to a
/// ``RunObserver``. The order of a start is the order of what can refuse it: the plan (an invalid
/// input, before anything is written), the lock (another run), the adapters (a secret, the ledger),
/// the files done before, the preflight (the output, the endpoint, the signer), and only then the
/// run's rows in the ledger.
package struct RunSession: Sendable {
    package let manifest: Manifest
    /// Where the ledger and the locks are.
    package let stateDirectory: String
    package let adapters: any RunAdapters
    /// The batch a new run belongs to; nil: ``BatchID/daily(_:at:)`` of the manifest's name and the run's start.
    package let batch: BatchID?
    /// `--adopt`: the manifest takes over the job of its name that another manifest ran in the state directory
    /// (it was moved, and its inputs or outputs with it), instead of being refused (``RunSessionError/nameTaken(_:by:manifest:)``).
    package let adopts: Bool
    /// `--accept-recipe`: the files the job's newest run did under another recipe count as done under the manifest's
    /// (the operator knows the change makes the same outputs), instead of being made again (``RecipeChange``).
    package let acceptsRecipe: Bool

    package init(manifest: Manifest, stateDirectory: String, adapters: any RunAdapters, batch: BatchID? = nil, adopts: Bool = false,
                 acceptsRecipe: Bool = false) {
        self.manifest = manifest
        self.stateDirectory = stateDirectory
        self.adapters = adapters
        self.batch = batch
        self.adopts = adopts
        self.acceptsRecipe = acceptsRecipe
    }

    /// The SHA-256 of the manifest's Template file's content, what the run records of it; nil without a file.
    private var templateSHA256: String? {
        guard case .template(let recipe) = manifest.recipe, let file = recipe.file else { return nil }
        return adapters.digester.sha256Hex(of: file.document.canonicalContent)
    }

    /// The plan of the manifest's inputs: its files walked, or its bucket listed; `sendingEveryFile` for a night that reads
    /// no done index (``Manifest/planInputs(remote:sendingEveryFile:)``).
    package func planInputs(sendingEveryFile: Bool = false) async throws -> PlanResult {
        try await manifest.planInputs(remote: adapters, sendingEveryFile: sendingEveryFile)
    }

    // MARK: - Forecast

    /// What a run would send and skip, and why; the state directory's ledger is read, never changed or created.
    package func forecast(force: Bool, checksums: Bool, retryFailed: Bool = false) async throws -> RunForecast {
        let planned = try await planInputs(sendingEveryFile: force || !adapters.ledgers.hasLedger(in: stateDirectory))
        return try await adapters.ledgers.withExistingLedger(in: stateDirectory) { ledger -> RunForecast in
            guard let ledger else { return try await forecast(planned, EarlierFiles(sets: [], bad: [:], usage: nil), from: nil, checksums: checksums) }
            if !adopts, let other = try await otherJobOfTheName(in: ledger) {
                throw RunSessionError.nameTaken(manifest.name, by: other.manifestPath, manifest: manifest.file)
            }
            let earlier = try await earlierFiles(in: ledger, force: force, retryFailed: retryFailed)
            return try await forecast(planned, earlier, from: ledger, checksums: checksums)
        }
    }

    /// What earlier runs of a manifest left: the sets of the done index a night reads, the known bad files, with their
    /// reasons, and what their Assemblies cost.
    private struct EarlierFiles {
        var sets: [DoneIndexSet]
        var bad: [FileIdentity: FailureReason]
        var usage: UsageForecast.Basis?
        /// The job's newest recipe when it is not the manifest's.
        var recipeChange: RecipeChange?
    }

    /// The done index's sets of the manifest's job under its recipe (none with `force`), the files earlier runs failed
    /// for a reason of their own (none with `force` or `retryFailed`), and the usage of its recent runs. When the job's
    /// newest run had another recipe, its sets follow: skipped by when the change is accepted, else only counted.
    private func earlierFiles(in ledger: any LedgerQueries, force: Bool, retryFailed: Bool) async throws -> EarlierFiles {
        let (job, recipe) = (manifest.job, manifest.recipe.fingerprint)
        let usage = try await ledger.usageBasis(job: job, recipeFingerprint: recipe, runs: UsageForecast.recentRuns)
        guard !force else { return EarlierFiles(sets: [], bad: [:], usage: usage) }
        var sets = DoneIndexSet.of(job, recipeFingerprint: recipe, role: .own)
        let bad = retryFailed ? [:] : try await ledger.knownBadFiles(job: job, recipeFingerprint: recipe)
        var recipeChange: RecipeChange?
        if let newest = try await ledger.latestRun(matching: RunFilter(job: job)), newest.recipeFingerprint != recipe {
            recipeChange = RecipeChange(run: newest.id, earlierRecipe: newest.recipeFingerprint, accepted: acceptsRecipe)
            sets += DoneIndexSet.of(job, recipeFingerprint: newest.recipeFingerprint, role: acceptsRecipe ? .accepted : .earlier)
        }
        return EarlierFiles(sets: sets, bad: bad, usage: usage, recipeChange: recipeChange)
    }

    /// The newest run of the manifest's name in `ledger` when another manifest ran it as another job, or with other
    /// inputs: its done files would be marked missed by this one's nights, or this one's by it. A moved or copied
    /// manifest of the same job and inputs is the same job, and a manifest at the same path is itself, edited.
    private func otherJobOfTheName(in ledger: any LedgerQueries) async throws -> RunRecord? {
        guard let newest = try await ledger.latestRun(matching: RunFilter(name: manifest.name)), newest.manifestPath != manifest.file else {
            return nil
        }
        let sameInputs = newest.inputsKey.isEmpty || newest.inputsKey == manifest.inputsKey
        return newest.jobKey == manifest.job.key && sameInputs ? nil : newest
    }

    private func forecast(_ planned: PlanResult, _ earlier: EarlierFiles, from index: (any DoneIndexPages)?,
                          checksums: Bool) async throws -> RunForecast {
        let check = OutputCheck(checksums: checksums ? adapters.digester : nil).within(manifest.output.dir)
        let incremental = try await IncrementalPlan.reading(planned.plan, sets: earlier.sets, from: index,
                                                            bad: earlier.bad, check: check, limits: manifest.shards)
        var forecast = RunForecast(planned: planned.checkingReadability(of: incremental.plan), incremental: incremental,
                                   checksums: checksums, usage: earlier.usage)
        forecast.recipeChange = earlier.recipeChange?.counted(in: incremental)
        return forecast
    }

    // MARK: - Start

    /// Plans, records a new run and drives it to its end; the files an earlier run did are skipped unless
    /// `force`, and those it failed for a reason of their own are left out unless `force` or `retryFailed`.
    ///
    /// With `resumingBatch` (a run given its partition or batch, as a scheduler's retry of a part is), an
    /// unfinished run of the same manifest, batch and partition in the ledger is resumed instead, so that
    /// a part killed mid-run and started again never sends a file twice.
    ///
    /// Where the state directory holds a ledger already, the walk of the inputs runs on a thread of its own
    /// while the lock is taken and the job's runs are looked at; the done index is then read a page at a time
    /// against the plan (``IncrementalPlan``). What refuses the run is still told in the order above: a plan
    /// error first, whatever else failed meanwhile. A first run plans before it creates anything.
    package func run(force: Bool, checksums: Bool, retryFailed: Bool = false, resumingBatch: Bool = false, maxDuration: Duration?,
                     observer: any RunObserver, stop: RunStop) async throws -> RunOutcome {
        let readsAhead = adapters.ledgers.hasLedger(in: stateDirectory)
        let planning = Task.detached { [self] in try await planInputs(sendingEveryFile: force || !readsAhead) }
        if !readsAhead { _ = try await planning.value }
        do {
            let lock = try RunLock(stateDirectory: stateDirectory, manifest: manifest)
            defer { lock.release() }
            return try await adapters.withPorts(for: manifest, stateDirectory: stateDirectory) { ports in
                try await startRun(planning: planning, force: force, checksums: checksums, retryFailed: retryFailed,
                                   resumingBatch: resumingBatch, lock: lock, ports: ports, maxDuration: maxDuration, observer: observer, stop: stop)
            }
        } catch {
            // A plan error goes first: the walk may still be going when the lock or the ports refuse.
            _ = try await planning.value
            throw error
        }
    }

    /// The start of a new run once the lock is held and the ports are open: resume the batch's unfinished run, or take
    /// over the job's killed run (``takeOver(_:ports:maxDuration:stop:)``), read the known bad files and the usage (while
    /// `planning` finishes the walk), forecast against the done index, tell the plan's warnings, preflight, and record
    /// the run. The warnings are told once the files the run sends are known, since those alone are asked whether they
    /// can be read (``ReadabilityCheck``); a resumed run tells the walk's.
    private func startRun(planning: Task<PlanResult, any Error>, force: Bool, checksums: Bool, retryFailed: Bool,
                          resumingBatch: Bool, lock: RunLock, ports: RunPorts, maxDuration: Duration?, observer: any RunObserver,
                          stop: RunStop) async throws -> RunOutcome {
        let ledger = ports.ledger
        try await takeUpJob(in: ledger, at: ports.clock.now)
        if resumingBatch, let record = try await unfinishedRunOfBatch(in: ledger, at: ports.clock.now) {
            observer.planned(try await planning.value.warnings)
            return try await resume(record, shards: [], lock: lock, ports: ports, maxDuration: maxDuration, observer: observer, stop: stop)
        }
        var takeover: Takeover?
        if !resumingBatch, let killed = try await runToTakeOver(in: ledger) {
            takeover = try await takeOver(killed, ports: ports, maxDuration: maxDuration, stop: stop)
        }
        let earlier = try await earlierFiles(in: ledger, force: force, retryFailed: retryFailed)
        let forecast = try await forecast(try await planning.value, earlier, from: ledger, checksums: checksums)
        observer.planned(forecast.planned.warnings)
        if let limit = manifest.maxUsage, let expected = forecast.usage.expectedUsage, expected > limit {
            throw RunSessionError.usageOverLimit(forecast.usage, limit: limit)
        }
        if !forecast.incremental.plan.shards.isEmpty { try await RunPreflight.check(manifest, ports: ports) }
        if let change = forecast.recipeChange, change.accepted {
            try await ledger.carryDoneFiles(job: manifest.job, from: change.earlierRecipe, to: manifest.recipe.fingerprint)
        }
        let runID = RunID.generate(at: ports.clock.now)
        let batch = batch(startedAt: ports.clock.now)
        // The lock names the run before its row exists: a reader never sees the run running with a lock that names none.
        lock.record(runID: runID)
        try await ledger.createRun(NewRun(
            id: runID, manifestPath: manifest.file, manifestName: manifest.name, recipeFingerprint: manifest.recipe.fingerprint,
            plan: forecast.incremental.plan, skippedCount: forecast.incremental.skippedCount,
            review: force ? nil : forecast.incremental.review, knownBad: forecast.incremental.knownBad, createdAt: ports.clock.now,
            batch: batch, partition: manifest.partition, job: manifest.job, inputsKey: manifest.inputsKey,
            templateID: manifest.recipe.accountTemplateID, templateSHA256: templateSHA256))
        if let takeover { try await ledger.supersede(takeover.run, by: runID, at: ports.clock.now) }
        let started = StartedRun(runID: runID, stateDirectory: stateDirectory, origin: .new(forecast), shards: try await ledger.shards(of: runID),
                                 batch: batch, partition: manifest.partition, takeover: takeover)
        return try await drive(started, ports: ports, maxDuration: maxDuration, observer: observer, stop: stop)
    }

    /// What a run does first with the job's lock held: refuses a manifest whose name another job holds in the state
    /// directory (unless it adopts that job), takes the job's rows from before the ledger kept jobs (and, adopting,
    /// the other manifest's), and records `interrupted` the job's runs whose process is gone.
    private func takeUpJob(in ledger: any RunLedger, at time: Date) async throws {
        let job = manifest.job
        if let other = try await otherJobOfTheName(in: ledger) {
            guard adopts else { throw RunSessionError.nameTaken(manifest.name, by: other.manifestPath, manifest: manifest.file) }
            try await ledger.claim(rowsOf: other.jobKey, into: job, inputsKey: manifest.inputsKey)
        }
        try await ledger.claim(rowsOf: ManifestJob.legacyKey(of: job.manifestPath), into: job, inputsKey: manifest.inputsKey)
        let running = try await ledger.recentRuns(limit: Int(Int32.max), matching: RunFilter(job: job, state: .running))
        try await ledger.recordInterrupted(running.map(\.id), at: time)
    }

    /// What a resume of `runID` (nil: the newest run) would do, read from the ledger `locator` finds it in, and that
    /// ledger's state directory.
    ///
    /// - Throws: ``LedgerReadError/noLedger(path:hint:)`` where the state directory holds none, and as
    ///   ``resumption(of:shards:matching:in:path:)`` does.
    package static func resumption(of runID: RunID?, shards: Set<Int>, at locator: LedgerLocator) async throws
        -> (resumption: Resumption, stateDirectory: String) {
        let (stateDirectory, meant) = try await locator.locate(runID)
        let path = locator.store.ledgerPath(inStateDirectory: stateDirectory)
        let found = try await locator.store.withExistingLedger(in: stateDirectory) { ledger in
            guard let ledger else {
                let unindexed = if case .unnamed = locator.scope { "the run index does not know the run; " } else { "" }
                throw LedgerReadError.noLedger(path: "in \(stateDirectory)", hint: "\(unindexed)name the state directory with --state-dir")
            }
            return try await Self.resumption(of: meant, shards: shards, matching: locator.filter, in: ledger, path: path)
        }
        return (found, stateDirectory)
    }

    /// What a resume of `runID` (nil: the newest run `filter` matches) would do, read from `ledger` at `path`.
    ///
    /// - Throws: ``RunSessionError/noRuns(path:)`` for the newest run of a ledger without runs,
    ///   ``RunSessionError/noSuchShards(_:_:has:)`` when `shards` names shards the run does not have,
    ///   ``RunSessionError/canceled(_:)`` for a canceled run.
    package static func resumption(of runID: RunID?, shards: Set<Int>, matching filter: RunFilter, in ledger: any LedgerQueries,
                                   path: String) async throws -> Resumption {
        var newest: RunID?
        if runID == nil { newest = try await ledger.latestRun(matching: filter)?.id }
        guard let id = runID ?? newest else { throw RunSessionError.noRuns(path: path) }
        let record = try await ledger.run(id).record
        let indices = try await ledger.shards(of: id).map(\.index)
        let strangers = shards.subtracting(indices).sorted()
        guard strangers.isEmpty else {
            throw RunSessionError.noSuchShards(id, strangers, has: indices.min().flatMap { low in indices.max().map { low...$0 } })
        }
        switch record.state {
        case .canceled: throw RunSessionError.canceled(id)
        case .finished: return .finished(id)
        case .superseded: return .superseded(id, by: record.supersededBy ?? id)
        case .running, .failed, .interrupted: return .resume(record)
        }
    }

    /// Takes up a recorded run again: its unfinished and failed shards (only `shards`, when given) run to their end.
    package func resume(_ record: RunRecord, shards filter: Set<Int>, maxDuration: Duration?, observer: any RunObserver,
                        stop: RunStop) async throws -> RunOutcome {
        guard manifest.recipe.resumes(fingerprint: record.recipeFingerprint, templateID: record.templateID) else {
            throw RunSessionError.recipeChanged(manifest: record.manifestPath, runID: record.id)
        }
        let lock = try RunLock(stateDirectory: stateDirectory, manifest: manifest)
        defer { lock.release() }
        return try await adapters.withPorts(for: manifest, stateDirectory: stateDirectory) { ports in
            try await resume(record, shards: filter, lock: lock, ports: ports, maxDuration: maxDuration, observer: observer, stop: stop)
        }
    }

    private func resume(_ record: RunRecord, shards filter: Set<Int>, lock: RunLock, ports: RunPorts, maxDuration: Duration?,
                        observer: any RunObserver, stop: RunStop) async throws -> RunOutcome {
        lock.record(runID: record.id)
        let shards = try await ports.ledger.shards(of: record.id)
            .filter { $0.state != .downloaded && (filter.isEmpty || filter.contains($0.index)) }
        if !shards.isEmpty { try await RunPreflight.check(manifest, ports: ports) }
        if record.state != .running {
            try await ports.ledger.updateRunState(record.id, to: .running, at: ports.clock.now)
        }
        if manifest.recipe.fingerprint != record.recipeFingerprint {
            // The Template's file was edited since (``Recipe/resumes(fingerprint:templateID:)``): what the run makes now is
            // made by the new content, and enters the done index under it.
            try await ports.ledger.updateRecipe(record.id, fingerprint: manifest.recipe.fingerprint, templateSHA256: templateSHA256,
                                                at: ports.clock.now)
        }
        let started = StartedRun(runID: record.id, stateDirectory: stateDirectory, origin: .resumed, shards: shards,
                                 batch: record.batch, partition: record.partition)
        return try await drive(started, ports: ports, maxDuration: maxDuration, observer: observer, stop: stop)
    }

    /// The job's newest run when its process was killed or it was interrupted, under the same recipe: what a plain run
    /// takes over (``Takeover``). A failed run is `resume`'s to take up; an older interrupted one was left behind by a
    /// later run and is not followed.
    private func runToTakeOver(in ledger: any LedgerQueries) async throws -> RunRecord? {
        guard let newest = try await ledger.latestRun(matching: RunFilter(job: manifest.job)), newest.state == .interrupted,
              newest.recipeFingerprint == manifest.recipe.fingerprint else { return nil }
        return newest
    }

    /// The batch a new run started at `time` belongs to: the one given, else the manifest's name and the UTC day.
    private func batch(startedAt time: Date) -> BatchID {
        batch ?? BatchID.daily(manifest.name, at: time)
    }

    /// The newest run of the manifest's batch (as of `time`) and partition in `ledger` when it is unfinished (running,
    /// as a killed run stays, interrupted or failed) under the same recipe.
    private func unfinishedRunOfBatch(in ledger: any LedgerQueries, at time: Date) async throws -> RunRecord? {
        let newest = try await ledger.latestRun(matching: RunFilter(job: manifest.job, batch: batch(startedAt: time), partition: manifest.partition))
        guard let newest, [.running, .interrupted, .failed].contains(newest.state),
              newest.recipeFingerprint == manifest.recipe.fingerprint else { return nil }
        return newest
    }
}

/// What a resume of a run would do.
package enum Resumption: Sendable, Hashable {
    /// Take the run up again.
    case resume(RunRecord)
    /// Nothing: every shard is done.
    case finished(RunID)
    /// Nothing: a later run of the job took this one over (``RunState/superseded``) and followed or sent what it left.
    case superseded(RunID, by: RunID)
}
