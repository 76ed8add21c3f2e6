import Foundation

extension RunSession {
    /// What one child of the drive's task group ended with.
    private enum DriveEnd: Sendable {
        /// Every shard ran to its end (how each ended), or the shards were stopped (nil).
        case shardsEnded([Int: ShardEnd]?)
        /// A stop was asked for: the shards are to be stopped.
        case stopRequested
        /// A watcher that is no longer needed.
        case none
    }

    /// Drives the run's shards to their end, at most `concurrency.assemblies` at once; a stop (a signal,
    /// `maxDuration`) cancels the transfers in flight and the run ends interrupted. A stop asked before
    /// the drive (a signal while the run was being recorded) starts no shard. The failure breaker and a local
    /// fault may stop its creations meanwhile (``FailureBreaker``), which the outcome tells.
    func drive(_ started: StartedRun, ports: RunPorts, maxDuration: Duration?, observer: any RunObserver,
               stop: RunStop) async throws -> RunOutcome {
        observer.started(started)
        let clock = ports.clock
        let began = clock.instant
        if let reason = stop.requested {
            observer.stopping(reason)
            return try await finish(started, interrupted: true, ports: ports, elapsed: clock.instant - began, creationStop: nil, observer: observer)
        }
        let gate = CreationGate()
        let context = try await context(of: started, ports: ports, gate: gate, breaker: FailureBreaker(threshold: manifest.failureBreaker, gate: gate),
                                        observer: observer)
        let ends = try await driveShards(started.shards, context: context, clock: clock, maxDuration: maxDuration, observer: observer, stop: stop)
        return try await finish(started, interrupted: ends == nil, ports: ports, elapsed: clock.instant - began, creationStop: gate.stop,
                                observer: observer)
    }

    /// Follows to their end the Assemblies `killed` made, creating none, and fetches their results; removes the
    /// temporary files its downloads that will not go on left in the output; returns what it did.
    ///
    /// - Throws: ``RunSessionError/stoppedWhileTakingOver(_:)`` when a stop comes meanwhile.
    func takeOver(_ killed: RunRecord, ports: RunPorts, maxDuration: Duration?, stop: RunStop) async throws -> Takeover {
        let ledger = ports.ledger
        let withAssembly: Set<ShardState> = [.signed, .created, .uploaded, .executing, .completed]
        let shards = try await ledger.shards(of: killed.id).filter { withAssembly.contains($0.state) }
        let started = StartedRun(runID: killed.id, stateDirectory: stateDirectory, origin: .resumed, shards: shards, batch: killed.batch,
                                 partition: killed.partition)
        let gate = CreationGate(closed: .followingOnly)
        let quiet = SilentRunObserver()
        let context = try await context(of: started, ports: ports, gate: gate, breaker: FailureBreaker(threshold: 0, gate: gate), observer: quiet)
        guard let ends = try await driveShards(shards, context: context, clock: ports.clock, maxDuration: maxDuration, observer: quiet, stop: stop)
        else { throw RunSessionError.stoppedWhileTakingOver(killed.id) }
        let done = Set(ends.values.filter { $0.outcome == .done }.map(\.shard))
        var filesDone = 0
        for shard in shards {
            guard done.contains(shard.index) else {
                for result in try await ledger.results(of: killed.id, shard: shard.index) where result.needsDownload {
                    guard let path = result.result.outputPath else { continue }
                    try? FileManager.default.removeItem(atPath: ResultDownloader.temporaryPath(for: path, of: result.result))
                }
                continue
            }
            filesDone += shard.fileCount
        }
        return Takeover(run: killed.id, followed: shards.count, done: done.count, filesDone: filesDone)
    }

    /// Runs `shards` with `context` to their end under `stop` and `maxDuration`: how each ended, or nil when the stop came first.
    private func driveShards(_ shards: [ShardRecord], context: PipelineContext, clock: any PipelineClock, maxDuration: Duration?,
                             observer: any RunObserver, stop: RunStop) async throws -> [Int: ShardEnd]? {
        let scheduler = RunScheduler(context: context, concurrency: manifest.concurrency.assemblies)
        return try await withThrowingTaskGroup(of: DriveEnd.self) { group in
            group.addTask {
                do {
                    return .shardsEnded(try await scheduler.run(shards))
                } catch is CancellationError {
                    return .shardsEnded(nil)
                }
            }
            group.addTask {
                guard let reason = await stop.wait() else { return .none }
                observer.stopping(reason)
                return .stopRequested
            }
            if let maxDuration {
                group.addTask {
                    guard (try? await clock.sleep(for: maxDuration)) != nil else { return .none }
                    stop.request(.deadline(maxDuration))
                    return .none
                }
            }
            while let end = try await group.next() {
                switch end {
                case let .shardsEnded(ends):
                    group.cancelAll()
                    return ends
                case .stopRequested:
                    group.cancelAll()
                case .none:
                    break
                }
            }
            preconditionFailure("the shards' task ends the drive")
        }
    }

    /// Records how the run ended: interrupted, failed when a file failed, else finished; a run with
    /// shards left that were not driven (a `resume --shard`) stays interrupted, so that a later resume goes on.
    /// A run that `cancel` recorded canceled while it went (then stopped it) ends canceled.
    private func finish(_ started: StartedRun, interrupted: Bool, ports: RunPorts, elapsed: Duration, creationStop: CreationStop?,
                        observer: any RunObserver) async throws -> RunOutcome {
        let (ledger, runID) = (ports.ledger, started.runID)
        let failedFiles = try await ledger.files(of: runID, shard: nil, state: .failed)
        let shards = try await ledger.shards(of: runID)
        let driven: RunState = interrupted ? .interrupted : failedFiles.isEmpty ? .finished : .failed
        let left = shards.contains { $0.state != .downloaded && $0.state != .failed }
        let recorded = try await ledger.endRun(runID, as: driven == .finished && left ? .interrupted : driven, at: ports.clock.now)
        let ended = recorded == .canceled ? .canceled : driven
        let outcome = RunOutcome(runID: runID, state: ended,
                                 failures: Set(failedFiles.compactMap(\.failure?.code) + shards.compactMap(\.failure?.code)),
                                 summary: try await ledger.run(runID), elapsed: elapsed, creationStop: creationStop)
        observer.ended(outcome)
        return outcome
    }

    /// Everything the shards of the run share, from the manifest and the ports, with `gate` and `breaker` for its creations.
    private func context(of started: StartedRun, ports: RunPorts, gate: CreationGate, breaker: FailureBreaker,
                         observer: any RunObserver) async throws -> PipelineContext {
        let runID = started.runID
        let claims = OutputClaims(try await ports.ledger.severalInputOutputs(of: runID))
        let client = TransloaditClient(transport: ports.transport, endpoint: ports.endpoint)
        let retry = RetryPolicy(manifest.retry)
        let importStep = manifest.inputs.urlList?.importStep ?? manifest.inputs.bucket?.importStep
        return PipelineContext(
            runID: runID, ledger: ports.ledger, client: client,
            downloader: ResultDownloader(client: client, digester: adapters.digester, limits: manifest.resultLimits, claims: claims),
            signer: ports.signer,
            tus: manifest.upload.mode == .tus && importStep == nil
                ? TusUploader(transport: ports.transport, digester: adapters.digester, chunkSize: manifest.upload.chunkSize, retry: retry,
                              useChecksums: manifest.upload.checksums, clock: ports.clock, seed: ports.seed)
                : nil,
            params: AssemblyParams(key: ports.key, expiresIn: manifest.auth.expiresIn, recipe: manifest.recipe, notifyURL: manifest.notifyURL,
                                   tags: AssemblyParams.tags(batch: started.batch, partition: started.partition),
                                   importStep: importStep),
            governor: Governor(limits: manifest.limits, concurrency: manifest.concurrency, embeddedEndpoint: ports.endpointIsEmbedded,
                               creationsAhead: started.shards.count { [.planned, .signed, .failed].contains($0.state) }, clock: ports.clock,
                               waiting: { observer.waiting($0) }),
            creations: gate, breaker: breaker, retry: retry, poll: manifest.poll, output: manifest.output, resultLimits: manifest.resultLimits,
            report: { observer.report($0) }, checkpoint: ports.checkpoint, sent: { observer.sent($0) },
            clock: ports.clock, seed: ports.seed)
    }
}
