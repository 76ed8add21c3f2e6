/// Drives one shard to `downloaded` or `failed`: performs what its ``ShardStateMachine`` decides, and feeds back what happened.
///
/// The machine decides; the runner only does: it writes the ledger, reports, passes checkpoints,
/// talks to the signer and the service, waits on the injected clock, and turns each outcome into
/// the machine's next event. It starts from the ledger's state, so the same code runs a fresh shard
/// and resumes one. While an Assembly runs and its status names a change stream, the runner follows
/// it, so that a poll waits for the stream's word instead of its interval.
package struct ShardRunner: Sendable {
    package let context: PipelineContext
    package let shard: ShardRecord
    let watches = UpdateWatchSlot()
    let prefetcher: ResultPrefetcher

    package init(context: PipelineContext, shard: ShardRecord) {
        self.context = context
        self.shard = shard
        prefetcher = ResultPrefetcher(context: context, shardIndex: shard.index)
    }

    /// Runs the shard to its end; throws only `CancellationError` (and ledger errors), leaving the ledger where the shard stood.
    package func run() async throws -> ShardState {
        defer {
            watches.close()
            prefetcher.cancel()
        }
        var machine = ShardStateMachine(settings: settings, seed: context.seed &+ UInt64(shard.index))
        var actions = machine.start(from: shard.state)
        while true {
            var event: ShardStateMachine.Event?
            for action in actions {
                if case let .finish(state) = action { return state }
                event = try await perform(action)
            }
            guard let event else { preconditionFailure("shard state machine: actions \(actions) end without a request") }
            actions = machine.handle(event, at: context.clock.now)
        }
    }

    /// The machine's view of the run.
    private var settings: ShardStateMachine.Settings {
        ShardStateMachine.Settings(
            endpoint: context.client.endpoint, tus: context.tus != nil, retry: context.retry, poll: context.poll,
            resultLifetime: context.resultLifetime)
    }

    // MARK: - Actions

    /// Carries out one action: nil for a command, the event its outcome is for a request.
    private func perform(_ action: ShardStateMachine.Action) async throws -> ShardStateMachine.Event? {
        switch action {
        case let .transition(transition, kind, detail):
            try await self.transition(transition, event: kind, detail: detail)
        case let .recordCreated(status, fallbackURL):
            try await recordCreated(status, fallbackURL: fallbackURL)
        case let .recordCompletion(status):
            try await recordCompletion(status)
        case let .report(kind, detail, file, failure):
            if kind == .retrying {
                try await context.ledger.recordRetry(context.runID, shard: shard.index, detail: detail, at: context.clock.now)
            }
            context.report(ShardEvent(shard: shard.index, kind: kind, detail: detail, file: file, failure: failure))
        case let .checkpoint(checkpoint):
            context.checkpoint(checkpoint)
        case let .backOffCreations(duration):
            await context.governor.backOffCreations(for: duration)
        case let .forgetStatusPacing(url):
            await context.governor.forget(url)
        case let .cancelAssembly(id):
            await cancel(id)
        case let .recordStatusURL(url):
            try await context.ledger.recordStatusURL(context.runID, shard: shard.index, url: url, at: context.clock.now)
        case .finish:
            preconditionFailure("finish ends the run loop")
        default:
            try Task.checkCancellation()
            do {
                let event = try await request(action)
                follow(event)
                return event
            } catch let failure as ShardFailure {
                if Task.isCancelled { throw CancellationError() }
                return .failed(failure)
            }
        }
        return nil
    }

    /// Follows the change stream that a status just received names (unless `poll.stream` is off), or
    /// stops following one that ended; starts downloading the results a running Assembly's status shows.
    private func follow(_ event: ShardStateMachine.Event) {
        switch event {
        case let .createAnswered(.success(status)), let .statusAnswered(status?), let .lookedUp(status?):
            if status.isRunning {
                for (step, files) in status.results {
                    files.forEach { prefetcher.prefetch($0, step: step) }
                }
            }
            guard context.poll.stream else { return }
            let results = prefetcher
            watches.follow(status, client: context.client) { step, file in results.prefetch(file, step: step) }
        default:
            break
        }
    }

    /// Writes a transition with the clock's time and reports it.
    func transition(_ transition: ShardTransition, event: ShardEvent.Kind, detail: String = "") async throws {
        try await context.ledger.transition(context.runID, shard: shard.index, transition, at: context.clock.now)
        var failure: FailureReason?
        if case .failed(let reason) = transition { failure = reason }
        context.report(ShardEvent(shard: shard.index, kind: event, detail: detail, failure: failure))
    }

    /// Cancels an abandoned Assembly at the API host and notes it in the ledger; a failed cancel is noted, not thrown.
    private func cancel(_ id: AssemblyID) async {
        let outcome: String
        do {
            let status = try await context.client.cancel(url: "\(context.client.endpoint)/assemblies/\(id)")
            outcome = status.ok.map { "now \($0.code)" } ?? "cancelled"
        } catch {
            outcome = "the cancel failed: \(error)"
        }
        try? await context.ledger.recordEvent(context.runID, shard: shard.index, kind: "attempt.cancelled",
                                              message: "Assembly \(id) abandoned, \(outcome)", at: context.clock.now)
    }

    /// Records the accepted Assembly, with the bytes of files its creating request carried.
    private func recordCreated(_ status: AssemblyStatus, fallbackURL: String) async throws {
        let files = try await context.ledger.files(of: context.runID, shard: shard.index, state: .pending)
        let bytes = context.tus != nil ? 0 : files.reduce(0) { $0 + $1.file.size }
        try await transition(
            .created(assemblyURL: status.statusURL ?? fallbackURL, tusURL: status.tusURL, bytesSent: bytes), event: .created,
            detail: status.assemblyID ?? "")
    }

    /// Records the completed Assembly's results, mapped to the shard's files and output paths.
    private func recordCompletion(_ status: AssemblyStatus) async throws {
        let files = try await context.ledger.files(of: context.runID, shard: shard.index, state: nil)
        let results = ResultMapper(runID: context.runID, shardIndex: shard.index, output: context.output).results(of: status, files: files)
        let unreadable = status.unreadableEntries
        let left = unreadable == 0 ? "" : ", \(unreadable) unreadable entr\(unreadable == 1 ? "y" : "ies") left out"
        try await transition(.completed(results: results), event: .completed, detail: CountText.of(results.count, "result") + left)
    }
}
