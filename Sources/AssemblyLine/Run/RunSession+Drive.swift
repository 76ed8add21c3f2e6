extension RunSession {
    /// What one child of the drive's task group ended with.
    private enum DriveEnd: Sendable {
        /// Every shard ran to its end, or the shards were stopped (`interrupted`).
        case shardsEnded(interrupted: Bool)
        /// A stop was asked for: the shards are to be stopped.
        case stopRequested
        /// A watcher that is no longer needed.
        case none
    }

    /// Drives the run's shards to their end, at most `concurrency.assemblies` at once; a stop (a signal,
    /// `maxDuration`) cancels the transfers in flight and the run ends interrupted. A stop asked before
    /// the drive (a signal while the run was being recorded) starts no shard.
    func drive(_ started: StartedRun, ports: RunPorts, maxDuration: Duration?, observer: any RunObserver,
               stop: RunStop) async throws -> RunOutcome {
        observer.started(started)
        let clock = ports.clock
        let began = clock.instant
        if let reason = stop.requested {
            observer.stopping(reason)
            return try await finish(started, interrupted: true, ports: ports, elapsed: clock.instant - began, observer: observer)
        }
        let claims = OutputClaims(try await ports.ledger.severalInputOutputs(of: started.runID))
        let scheduler = RunScheduler(context: context(of: started, ports: ports, claims: claims, observer: observer),
                                     concurrency: manifest.concurrency.assemblies)
        let interrupted = try await withThrowingTaskGroup(of: DriveEnd.self) { group in
            group.addTask {
                do {
                    _ = try await scheduler.run(started.shards)
                    return .shardsEnded(interrupted: false)
                } catch is CancellationError {
                    return .shardsEnded(interrupted: true)
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
                case let .shardsEnded(interrupted):
                    group.cancelAll()
                    return interrupted
                case .stopRequested:
                    group.cancelAll()
                case .none:
                    break
                }
            }
            preconditionFailure("the shards' task ends the drive")
        }
        return try await finish(started, interrupted: interrupted, ports: ports, elapsed: clock.instant - began, observer: observer)
    }

    /// Records how the run ended: interrupted, failed when a file failed, else finished; a run with
    /// shards left that were not driven (a `resume --shard`) stays interrupted, so that a later resume goes on.
    /// A run that `cancel` recorded canceled while it went (then stopped it) ends canceled.
    private func finish(_ started: StartedRun, interrupted: Bool, ports: RunPorts, elapsed: Duration,
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
                                 summary: try await ledger.run(runID), elapsed: elapsed)
        observer.ended(outcome)
        return outcome
    }

    /// Everything the shards of the run share, from the manifest and the ports.
    private func context(of started: StartedRun, ports: RunPorts, claims: OutputClaims, observer: any RunObserver) -> PipelineContext {
        let runID = started.runID
        let client = TransloaditClient(transport: ports.transport, endpoint: ports.endpoint)
        let retry = RetryPolicy(manifest.retry)
        return PipelineContext(
            runID: runID, ledger: ports.ledger, client: client,
            downloader: ResultDownloader(client: client, digester: adapters.digester, limits: manifest.resultLimits, claims: claims),
            signer: ports.signer,
            tus: manifest.upload.mode == .tus
                ? TusUploader(transport: ports.transport, digester: adapters.digester, chunkSize: manifest.upload.chunkSize, retry: retry,
                              useChecksums: manifest.upload.checksums, clock: ports.clock, seed: ports.seed)
                : nil,
            params: AssemblyParams(key: ports.key, expiresIn: manifest.auth.expiresIn, recipe: manifest.recipe, notifyURL: manifest.notifyURL,
                                   tags: AssemblyParams.tags(batch: started.batch, partition: started.partition)),
            governor: Governor(limits: manifest.limits, concurrency: manifest.concurrency, embeddedEndpoint: ports.endpointIsEmbedded,
                               creationsAhead: started.shards.count { [.planned, .signed, .failed].contains($0.state) }, clock: ports.clock,
                               waiting: { observer.waiting($0) }),
            retry: retry, poll: manifest.poll, output: manifest.output, resultLimits: manifest.resultLimits,
            report: { observer.report($0) }, checkpoint: ports.checkpoint, sent: { observer.sent($0) },
            clock: ports.clock, seed: ports.seed)
    }
}
