/// Drives one shard to `downloaded` or `failed`: performs what its ``ShardStateMachine`` decides, and feeds back what happened.
///
/// The machine decides; the runner only does: it writes the ledger, reports, passes checkpoints,
/// talks to the signer and the service, waits on the injected clock, and turns each outcome into
/// the machine's next event. It starts from the ledger's state, so the same code runs a fresh shard
/// and resumes one. Results downloaded early are child tasks of the shard's own task group: the
/// download step waits for them and places what they fetched, and none outlives the shard.
package struct ShardRunner: Sendable {
    package let context: PipelineContext
    package let shard: ShardRecord
    let watches = UpdateWatchSlot()
    let prefetched = PrefetchedTransfers()

    package init(context: PipelineContext, shard: ShardRecord) {
        self.context = context
        self.shard = shard
    }

    /// Runs the shard to its end; throws only `CancellationError` (and ledger errors), leaving the ledger where the shard stood.
    package func run() async throws -> ShardEnd {
        defer {
            watches.close()
            prefetched.discardAll()
        }
        var machine = ShardStateMachine(settings: settings, seed: context.seed &+ UInt64(shard.index))
        var decision = machine.start(from: shard.state)
        return try await withThrowingTaskGroup(of: Void.self) { prefetches in
            while true {
                for command in decision.commands {
                    try await perform(command, prefetches: &prefetches)
                }
                switch decision.next {
                case let .finish(state):
                    prefetches.cancelAll()
                    let outcome: ShardEnd.Outcome = switch state {
                    case .downloaded: .done
                    case .failed: .failed(machine.failure?.reason ?? Self.unknownFailure, byItsFiles: machine.failure?.byItsFiles ?? false)
                    default: .left(state)
                    }
                    return ShardEnd(shard: shard.index, outcome: outcome)
                case let .request(request):
                    let event = try await outcome(of: request, prefetches: &prefetches)
                    decision = machine.handle(event, at: context.clock.now)
                }
            }
        }
    }

    /// What a shard that ended failed with, were the machine not to say (it always does).
    private static let unknownFailure = FailureReason(code: "UNKNOWN", message: "the shard failed", isRetryable: true)

    /// The machine's view of the run.
    private var settings: ShardStateMachine.Settings {
        ShardStateMachine.Settings(
            endpoint: context.client.endpoint, tus: context.tus != nil, retry: context.retry, poll: context.poll,
            resultLifetime: context.resultLifetime,
            mapper: ResultMapper(runID: context.runID, shardIndex: shard.index, output: context.output,
                                 urls: context.client.resultURLs, importStep: context.params.importStep),
            maxResultsPerFile: context.resultLimits.maxResultsPerFile, replay: ReplayRule(context.params.instructions))
    }

    // MARK: - Commands

    private func perform(_ command: ShardStateMachine.Command, prefetches: inout ThrowingTaskGroup<Void, any Error>) async throws {
        let (ledger, run, index, now) = (context.ledger, context.runID, shard.index, context.clock.now)
        switch command {
        case let .transition(transition, kind, detail):
            try await ledger.transition(run, shard: index, transition, at: now)
            report(kind, detail)
        case let .report(kind, detail):
            report(kind, detail)
        case let .noteRetry(detail):
            try await ledger.recordEvent(run, shard: index, .retrying(detail), at: now)
            report(.retrying, detail)
        case let .checkpoint(checkpoint):
            context.checkpoint(checkpoint)
        case let .backOffCreations(duration):
            await context.governor.backOffCreations(for: duration)
        case let .forgetStatusPacing(url):
            await context.governor.forget(url)
        case let .cancelAssembly(id):
            await cancel(id)
        case let .recordStatusURL(url):
            try await ledger.recordStatusURL(run, shard: index, url: url, at: now)
        case let .recordUpload(attempt, upload):
            try await ledger.recordUpload(run, shard: index, attempt: attempt, file: upload.fileIndex, url: upload.url,
                                          length: upload.length, at: now)
        case let .failFiles(files, reason, knownBad):
            try await ledger.failFiles(run, files: files, reason: reason, knownBad: knownBad, at: now)
        case let .follow(url):
            watches.follow(url, client: context.client)
        case let .prefetch(results):
            for result in results {
                prefetches.addTask { [context, shard, prefetched] in
                    await Self.prefetch(result, shard: shard.index, context: context, into: prefetched)
                }
            }
        case let .noteStreamEnded(url, reason):
            try await ledger.recordEvent(run, shard: index, .streamEnded(url: url, reason: reason), at: now)
        }
    }

    private func report(_ kind: ShardEvent.Kind, _ detail: ShardEvent.Detail) {
        context.report(ShardEvent(shard: shard.index, kind: kind, detail: detail))
    }

    /// Cancels an abandoned Assembly at the API host and notes the answer in the ledger; a failed cancel is noted, not thrown.
    private func cancel(_ id: AssemblyID) async {
        let answer: Result<AssemblyState?, TransloaditError>
        do throws(TransloaditError) {
            answer = .success(try await context.client.cancel(url: "\(context.client.endpoint)/assemblies/\(id)").ok)
        } catch {
            answer = .failure(error)
        }
        try? await context.ledger.recordEvent(context.runID, shard: shard.index, .attemptCancelled(id, answer: answer), at: context.clock.now)
    }

    /// Downloads a result into its temp file before its Assembly completes, for the download step to place; what goes
    /// wrong is left for the download step to do again.
    private static func prefetch(_ result: NewResult, shard: Int, context: PipelineContext, into prefetched: PrefetchedTransfers) async {
        let downloader = context.downloader
        // A prefetch is a download like any other: a test may kill the run halfway through it too.
        let progress = HalfwayTrigger(context.checkpoint, at: .midDownload).receiving
        let transfer = try? await context.governor.downloads.withSlot { () async -> ResultDownloader.Transfer? in
            try? await downloader.transfer(result, shard: shard, progress: progress)
        }
        if let transfer = transfer ?? nil { prefetched.keep(transfer) }
    }

    // MARK: - Requests

    /// Carries out one request and returns its outcome as the machine's next event; a failure of the step is ``Event/failed(_:)``.
    private func outcome(of request: ShardStateMachine.Request,
                         prefetches: inout ThrowingTaskGroup<Void, any Error>) async throws -> ShardStateMachine.Event {
        try Task.checkCancellation()
        let event: ShardStateMachine.Event
        do {
            if case let .download(pending) = request {
                try await prefetches.waitForAll()
                event = .downloadsEnded(try await download(pending))
            } else {
                event = try await self.request(request)
            }
        } catch let failure as ShardFailure {
            event = .failed(failure)
        }
        // A stop (a signal, --max-duration, cancel) cancels the transfers in flight: what they answered then is the
        // stop's doing (TRANSPORT_CANCELLED), not the shard's, and the machine never hears it. The shard stays where
        // the ledger has it, its files unfinished, for a resume to go on from.
        try Task.checkCancellation()
        return event
    }
}
