import ConfigFormat
package import Foundation

/// The decisions of one shard, as a value: given where the shard stands and what just happened, what to do next.
///
/// In the manner of async-http-client's `HTTPRequestStateMachine`, it performs nothing: it takes
/// the shard's ledger state (``start(from:)``) and then one ``Event`` at a time (``handle(_:at:)``),
/// and answers with a ``Decision``: commands to carry out in order, then one request whose outcome
/// is the next event, or the end. ``ShardRunner`` is the driver that performs them. The clock's time
/// comes with each event, and the retry jitter from a seeded generator, so the same inputs always
/// give the same decisions.
///
/// The rules (docs/pipeline.md):
/// - Every step is written to the ledger before the next begins; a shard resumes from its ledger state.
/// - A failed shard reopens its last Assembly when the ledger's rule says so (``AttemptRecord/reopenTarget``);
///   else it starts a new attempt.
/// - Creation writes the intent (a new Assembly ID) first; resumed at `signed`, it first asks whether
///   the Assembly exists. A creation answered `DO_NOT_REUSE_ASSEMBLY_IDS` or `SIGNATURE_REUSE_DETECTED`
///   may have gone through and lost its answer: the Assembly is looked up and adopted. Every try is
///   signed afresh, and the answer must name our Assembly ID.
/// - Rate limits wait without using up a try (a creation waits the hint and signs afresh; a status
///   request waits and asks again); retryable failures wait (capped exponential backoff with jitter, or
///   the service's hint) and try the step again, in a new Assembly when the old one is gone.
/// - A failure about one input fails that file alone and starts the shard over without it.
/// - A new try of a shard whose Assembly failed while it executed replays that Assembly where ``ReplayRule`` allows it
///   (nothing is uploaded again); a replay the service refuses falls back to a creation with the files.
/// - While an Assembly runs, the change stream its status names is followed, and results it lists
///   are downloaded early; results map to inputs and output paths here (``ResultMapper``).
package struct ShardStateMachine: Sendable {
    /// What the machine needs to know of the run.
    package struct Settings: Sendable {
        /// The Assembly API's base URL (an attempt's Assembly is `<endpoint>/assemblies/<id>`).
        package var endpoint: String
        /// Files go up over tus after creation, not in the creating request.
        package var tus: Bool
        package var retry: RetryPolicy
        package var poll: PollSettings
        /// How long the service keeps results; a download past it runs the shard again.
        package var resultLifetime: Duration
        /// Where results go, and the run and shard their paths may name.
        package var mapper: ResultMapper
        /// The most results an Assembly may give for each file it was sent (`limits.max_results_per_file`).
        package var maxResultsPerFile: Int
        /// When a new try replays the failed Assembly instead of creating one.
        package var replay: ReplayRule

        package init(endpoint: String, tus: Bool, retry: RetryPolicy, poll: PollSettings, resultLifetime: Duration, mapper: ResultMapper,
                     maxResultsPerFile: Int = ManifestDefaults.maxResultsPerFile, replay: ReplayRule = ReplayRule(templateBacked: false)) {
            self.endpoint = endpoint
            self.tus = tus
            self.retry = retry
            self.poll = poll
            self.resultLifetime = resultLifetime
            self.mapper = mapper
            self.maxResultsPerFile = maxResultsPerFile
            self.replay = replay
        }
    }

    package let settings: Settings
    package internal(set) var state: State = .starting
    /// Why the shard failed, once it has, and whether by its files alone (its last pending file failed alone).
    package private(set) var failure: (reason: FailureReason, byItsFiles: Bool)?
    /// Fixes the retry jitter, so that the same events always give the same waits.
    private let seed: UInt64

    package init(settings: Settings, seed: UInt64) {
        self.settings = settings
        self.seed = seed
    }

    // MARK: - Start

    /// The first decision for a shard in ledger state `recorded`.
    package mutating func start(from recorded: ShardState) -> Decision {
        let facts = Facts(recorded: recorded)
        guard recorded == .failed else { return enter(recorded, facts) }
        state = .reopening(facts)
        return Decision(.request(.loadLastAttempt))
    }

    // MARK: - Events

    /// The decision that follows `event`, which arrived at wall-clock time `now`.
    package mutating func handle(_ event: Event, at now: Date) -> Decision {
        guard var facts = state.facts else { preconditionFailure("shard state machine: event \(event) after the end") }
        // Past the poll's deadline nothing keeps the shard: not an answer cut off, not a rate limit asked again.
        if case let .polling(_, poll) = state, case .failed = event, now >= poll.deadline {
            return pollTimedOut([], facts)
        }
        if case let .failed(failure) = event, failure.isRateLimit, case let (again, request)? = askAgain(from: state) {
            state = .askingAgain(again, request)
            return Decision(.request(.wait(failure.retryIn ?? settings.poll.maxInterval)))
        }
        let observed = event.status.map { observe($0, &facts) } ?? []
        return react(to: event, facts, at: now).after(observed)
    }

    private mutating func react(to event: Event, _ facts: Facts, at now: Date) -> Decision {
        var facts = facts
        switch (state, event) {
        // A machine gone, or one that no longer holds the Assembly: only the API host says whether it exists.
        case let (.polling(_, poll), .failed(failure)) where failure.hostUnreachable && poll.url != poll.fallback:
            return askAPIHost(instead: poll, facts)
        case let (.polling(_, poll), .statusAnswered(nil)) where poll.url != poll.fallback:
            return askAPIHost(instead: poll, facts)
        case let (.checkingTus(_, attempt, url, tusURL), .failed(failure)) where failure.hostUnreachable && url != assemblyURL(of: attempt):
            return askAPIHost(for: attempt, instead: url, tusURL: tusURL, facts)
        case let (.checkingTus(_, attempt, url, tusURL), .lookedUp(nil)) where url != assemblyURL(of: attempt):
            return askAPIHost(for: attempt, instead: url, tusURL: tusURL, facts)
        case let (.askingAgain(previous, request), .waited):
            state = previous
            return Decision(.request(request))
        case let (_, .failed(failure)):
            return fail(failure, facts)
        case let (.reopening, .lastAttempt(last)):
            return reopen(last, facts, now: now)
        // Creations stopped: the shard stays where the ledger has it (planned, or signed with its attempt's intent), for a resume.
        case (.recordingAttempt, .creationsStopped), (.creating, .creationsStopped):
            state = .finished(facts.recorded)
            return Decision(.finish(facts.recorded))
        case let (.recordingAttempt, .attemptRecorded(id)):
            state = .signing(facts, for: nil)
            // A replay's intent ID is never sent: the service names the replay's Assembly.
            let started = Command.report(.started, facts.replaying.map { .replaying(parent: $0) } ?? .intent(id))
            return Decision([started, .checkpoint(.afterIntent)], .request(sign(facts)))
        case let (.signing(_, nil), .signed(params)):
            facts.recorded = .signed
            return enter(.signed, facts, signed: params).after([.transition(.signed, .signed, .none), .checkpoint(.afterSigned)])
        case let (.signing(_, attempt?), .signed(params)):
            return create(attempt, params, facts)
        case let (.loadingForCreation(_, signed), .attempt(attempt, files)):
            facts.files = files
            guard let attempt else { return fail(Self.noAttempt, facts) }
            facts.replaying = attempt.parentAssemblyID
            guard let signed else {
                // A replay's ID is the service's: the intent's was never sent, so there is nothing to look up.
                guard facts.replaying == nil else {
                    state = .signing(facts, for: attempt)
                    return Decision(.request(.signReplay))
                }
                state = .checkingExisting(facts, attempt)
                return Decision(.request(.lookUp(url: assemblyURL(of: attempt))))
            }
            return create(attempt, signed, facts)
        case let (.refusingOutput(_, failure), .unchanged):
            return fail(failure, facts)
        case let (.checkingExisting(_, attempt), .lookedUp(existing)):
            if let existing { return created(existing, attempt: attempt, facts, now: now) }
            state = .signing(facts, for: attempt)
            return Decision(.request(sign(facts)))
        case let (.checkingParent(_, attempt, signed), .lookedUp(parent)):
            return replayOrCreate(holding: parent, attempt, signed, facts)
        case let (.creating(_, attempt, _), .createAnswered(answer)):
            return answered(answer, attempt: attempt, facts, now: now)
        case let (.confirmingTaken(_, attempt, error), .lookedUp(existing)):
            guard let existing else {
                // Someone else's ID needs a new one; reused params only a new signature, which every retry has.
                return fail(ShardFailure(error.failureReason.retryable, needsNewAssembly: error.code == .assemblyIDTaken), facts)
            }
            return created(existing, attempt: attempt, facts, now: now)
        case let (.loadingForTus, .attempt(attempt, files)):
            facts.files = files
            guard let attempt else { return fail(Self.noAttempt, facts) }
            guard let url = attempt.assemblyURL, let tusURL = attempt.tusURL else {
                return fail(ShardFailure(code: .tusURLMissing, "the service named no tus endpoint for the Assembly",
                                         retryable: true, needsNewAssembly: true), facts)
            }
            facts.running = attempt.assemblyID
            facts.runningSince = attempt.createdAt
            state = .checkingTus(facts, attempt, url: url, tusURL: tusURL)
            return Decision(.request(.lookUp(url: url)))
        case let (.checkingTus(_, attempt, url, tusURL), .lookedUp(status)):
            return checkedTus(status, attempt: attempt, url: url, tusURL: tusURL, facts, now: now)
        case let (.loadingTusUploads(_, attempt, status, tusURL), .tusUploadsLoaded(uploads)):
            return uploadByTus(status, attempt: attempt, tusURL: tusURL, recorded: uploads, facts, now: now)
        case let (.uploadingTus(_, status), .tusUploaded(totals)):
            facts.recorded = .uploaded
            return advance(with: status, polling: nil, facts, now: now).after([.transition(.uploaded, .uploaded, .uploadedOverTus(totals))])
        case let (.loadingForPoll(_, statusIsFresh), .attempt(attempt, files)):
            facts.files = files
            return startPolling(attempt, statusIsFresh: statusIsFresh, facts, now: now)
        case let (.polling(_, poll), .statusAnswered(status)):
            guard let status else { return gone(facts) }
            var current = poll
            let refresh = refreshedURL(status, was: poll.url)
            if !refresh.isEmpty, let named = status.statusURL {
                current.url = named
            }
            return advance(with: status, polling: current, facts, now: now).after([.checkpoint(.midPoll)] + refresh)
        case let (.pacing(_, poll), .paced):
            return ask(poll, facts, now: now)
        case let (.pausingPoll(_, poll), .waited):
            return nextPoll(after: poll, facts)
        case let (.pausingPoll(_, poll), .changeAwaited(wake)):
            return awaited(wake, pausing: poll, facts, now: now)
        case let (.loadingForDownload, .downloadsLoaded(attempt, results, files)):
            facts.files = files
            return startDownloads(attempt, results: results, facts, now: now)
        case let (.downloading(_, results), .downloadsEnded(outcomes)):
            return downloadsEnded(outcomes, of: results, facts)
        case let (.backingOff(_, failure), .waited):
            var commands: [Command] = []
            if failure.needsNewAssembly && facts.recorded != .planned {
                commands = abandon(&facts) + [.transition(.restarted, .restarted, .none)]
                facts.recorded = .planned
                facts.replaying = settings.replay.parent(replaying: failure.failedAssembly, now: now)
            }
            return enter(facts.recorded, facts).after(commands)
        default:
            preconditionFailure("shard state machine: event \(event) does not belong to state \(state)")
        }
    }

    // MARK: - Steps

    /// The decision that starts the work of ledger state `recorded`.
    mutating func enter(_ recorded: ShardState, _ facts: Facts, signed: SignedParams? = nil, statusIsFresh: Bool = false) -> Decision {
        var facts = facts
        facts.recorded = recorded
        switch recorded {
        case .downloaded, .failed:
            state = .finished(recorded)
            return Decision(.finish(recorded))
        case .planned:
            state = .recordingAttempt(facts)
            return Decision(.request(facts.replaying.map { .recordReplay(of: $0) } ?? .recordAttempt))
        case .signed:
            state = .loadingForCreation(facts, signed: signed)
        case .created where settings.tus:
            state = .loadingForTus(facts)
        case .created, .uploaded, .executing:
            state = .loadingForPoll(facts, statusIsFresh: statusIsFresh)
        case .completed:
            state = .loadingForDownload(facts)
            return Decision(.request(.loadDownloads))
        }
        return Decision(.request(.loadAttempt))
    }

    /// Where a failed shard goes on from: a replay of its last Assembly (``ReplayRule``), that Assembly's results, the
    /// Assembly itself, or a new attempt.
    private mutating func reopen(_ last: AttemptRecord?, _ facts: Facts, now: Date) -> Decision {
        var facts = facts
        facts.replaying = settings.replay.parent(replaying: last?.failedAssembly, now: now)
        guard let last, facts.replaying == nil, let target = last.reopenTarget else {
            return enter(.planned, facts).after([.transition(.restarted, .restarted, .none)])
        }
        return enter(target, facts).after([.transition(.reopened(at: target), .restarted, .reopened(last.assemblyID, at: target))])
    }

    /// What a creation's answer leads to.
    private mutating func answered(
        _ answer: Result<AssemblyStatus, TransloaditError>, attempt: AttemptRecord, _ facts: Facts, now: Date
    ) -> Decision {
        if case let .failure(error) = answer, error.isRateLimit {
            // Identical signed params are refused on their second arrival: the next try is signed afresh.
            let wait = error.retryIn ?? .seconds(60)
            state = .signing(facts, for: attempt)
            return Decision([.backOffCreations(wait), .noteRetry(.rateLimited(error.code, wait: wait))], .request(sign(facts)))
        }
        if let parent = facts.replaying {
            return replayAnswered(answer, parent: parent, attempt: attempt, facts, now: now)
        }
        switch answer {
        case let .success(status):
            return created(status, attempt: attempt, facts, now: now).after([.checkpoint(.afterCreateAnswer)])
        case let .failure(error) where error.code == .assemblyIDTaken || error.code == .signatureReused:
            // Ours, when an earlier try went through and its answer was lost: the Assembly exists under our ID.
            state = .confirmingTaken(facts, attempt, error)
            return Decision(.request(.lookUp(url: assemblyURL(of: attempt))))
        case let .failure(error):
            return fail(ShardFailure(error), facts)
        }
    }

    /// Records the accepted Assembly and goes on from what its first status says.
    mutating func created(_ status: AssemblyStatus, attempt: AttemptRecord, _ facts: Facts, now: Date) -> Decision {
        var facts = facts
        if let answered = status.assemblyID, answered != attempt.assemblyID.rawValue {
            return fail(ShardFailure(code: .assemblyIDMismatch, "the service answered for Assembly \(answered), not \(attempt.assemblyID)",
                                     retryable: false), facts)
        }
        facts.running = attempt.assemblyID
        facts.runningSince = now
        // A replay uploads nothing: it runs on the uploads the service stored for its parent, tus or not.
        let tusUploadsFollow = settings.tus && facts.replaying == nil
        let bytes = settings.tus || facts.replaying != nil ? 0 : facts.pending.reduce(0) { $0 + $1.file.size }
        let recorded = Command.transition(
            .created(assemblyURL: status.statusURL ?? assemblyURL(of: attempt), tusURL: status.tusURL, bytesSent: bytes,
                     replayID: facts.replaying.map { _ in attempt.assemblyID }), .created,
            .assembly(status.assemblyID ?? ""))
        if tusUploadsFollow {
            return enter(.created, facts).after([recorded, .checkpoint(.afterCreated)])
        }
        facts.recorded = .uploaded
        return advance(with: status, polling: nil, facts, now: now)
            .after([recorded, .transition(.uploaded, .uploaded, .none), .checkpoint(.afterCreated)])
    }

    /// The state a status moves the shard to, and what follows: download, another poll, or a failure.
    ///
    /// `polling` is the poll under way, nil when the status came with the creation or the tus check.
    mutating func advance(with status: AssemblyStatus, polling: Poll?, _ facts: Facts, now: Date) -> Decision {
        var facts = facts
        if let running = facts.running, status.assemblyID.map({ $0 != running.rawValue }) ?? status.isCompleted {
            let named = status.assemblyID.map { "Assembly \($0)" } ?? "no Assembly"
            let mismatch = ShardFailure(code: .assemblyIDMismatch, "the service's status names \(named), not \(running)", retryable: false)
            let cancel = abandon(&facts)
            return fail(mismatch, facts).after(cancel)
        }
        let failedAssembly = status.error.map(\.meansUploadsIncomplete) == false ? failedAssembly(facts) : nil
        if status.isCompleted || status.error != nil || status.ok == .aborted || status.ok == .canceled {
            facts.running = nil
        }
        if status.isCompleted {
            return completed(status, polling: polling, facts)
        }
        if let error = status.error {
            let again = Retryability.isRetryable(assemblyError: error, said: status.retryable)
            var failure = ShardFailure(code: error, status.errorText ?? "the Assembly failed",
                                       retryable: again, needsNewAssembly: again)
            failure.failedAssembly = failedAssembly
            if !again {
                failure.culprit = settings.mapper.failedFileIndex(of: status, files: facts.files)
                failure.culpritIsBad = failure.culprit != nil
            }
            return fail(failure, facts)
        }
        var commands: [Command] = []
        switch status.ok {
        case .executing? where facts.recorded != .executing:
            facts.recorded = .executing
            commands.append(.transition(.executing, .executing, .none))
        case .aborted?, .canceled?:
            return fail(ShardFailure(code: FailureCode(rawValue: status.ok?.code ?? ""), status.errorText ?? "the Assembly stopped",
                                     retryable: true, needsNewAssembly: true), facts)
        default:
            break
        }
        guard let polling else {
            return enter(facts.recorded, facts, statusIsFresh: true).after(commands)
        }
        guard now < polling.deadline else { return pollTimedOut(commands, facts) }
        return pause(polling, facts, now: now).after(commands)
    }

    /// Records a completed Assembly's results, and fails alone the files whose results are refused; past the bound, the shard.
    private mutating func completed(_ status: AssemblyStatus, polling: Poll?, _ facts: Facts) -> Decision {
        var facts = facts
        let bound = settings.maxResultsPerFile * max(1, facts.files.count)
        // The import step's results are the inputs themselves.
        let imported = settings.mapper.importStep == nil ? 0 : status.results[ImportStep.name]?.count ?? 0
        let count = status.results.values.reduce(0) { $0 + $1.count } - imported
        guard count <= bound else {
            return fail(ShardFailure(code: .tooManyResults,
                                     "the Assembly gave \(count) results for \(CountText.of(facts.files.count, "file")), more than "
                                         + "limits.max_results_per_file (\(settings.maxResultsPerFile)) allows",
                                     retryable: false), facts)
        }
        let mapping = settings.mapper.results(of: status, files: facts.files)
        let forget = polling.map { [Command.forgetStatusPacing(url: $0.url)] } ?? []
        var refused: [Command] = []
        for refusal in mapping.refusals {
            let failing = refusal.result.source.inputs.filter { index in facts.files.contains { $0.index == index && $0.state == .pending } }
            facts.markFailed(failing, refusal.reason)
            for index in failing {
                let input = facts.files.first { $0.index == index }?.file.relativePath
                refused += [.failFiles([index], refusal.reason), .report(.fileFailed, .resultRefused(file: input, result: refusal.result.name, refusal.reason))]
            }
        }
        let detail = ShardEvent.Detail.results(count: mapping.results.count, unreadable: status.unreadableEntries, unmatched: mapping.unmatched)
        return enter(.completed, facts).after(
            [.transition(.completed(results: mapping.results, usage: status.usage), .completed, detail)] + refused + [.checkpoint(.afterCompleted)] + forget)
    }

    // MARK: - Failures

    /// The Assembly did not finish within `poll.timeout`: the shard fails for good and the Assembly is cancelled.
    private mutating func pollTimedOut(_ commands: [Command], _ facts: Facts) -> Decision {
        var facts = facts
        let timeout = ShardFailure(code: .pollTimeout, "the Assembly did not finish within \(ConfigUnits.formatDuration(settings.poll.timeout))",
                                   retryable: false)
        let cancel = abandon(&facts)
        return fail(timeout, facts).after(commands + cancel)
    }

    /// The service no longer knows the Assembly: nothing is left to cancel.
    mutating func gone(_ facts: Facts) -> Decision {
        var facts = facts
        facts.running = nil
        return fail(Self.assemblyGone, facts)
    }

    /// Cancels the Assembly the shard gives up on, when it may still run (docs: an abandoned
    /// Assembly otherwise runs to its expiry and counts against the 250 running Assemblies).
    func abandon(_ facts: inout Facts) -> [Command] {
        defer { facts.running = nil }
        return facts.running.map { [.cancelAssembly($0)] } ?? []
    }

    /// What a failure leads to: the culprit input alone, a wait and another try, or the shard's end.
    mutating func fail(_ failure: ShardFailure, _ facts: Facts) -> Decision {
        var facts = facts
        if let culprit = failure.culprit {
            return isolate(culprit, failure, facts)
        }
        facts.triesUsed += 1
        guard failure.reason.isRetryable, settings.retry.allowsRetry(after: facts.triesUsed) else {
            return failShard(failure.reason, executing: failure.failedAssembly != nil)
        }
        let wait = settings.retry.delay(after: facts.triesUsed, hint: failure.retryIn, jitter: RetryPolicy.jitter(seed: seed, try: facts.triesUsed))
        state = .backingOff(facts, failure)
        return Decision([.noteRetry(.retry(failure.reason, number: facts.triesUsed + 1, of: settings.retry.attempts, wait: wait))],
                        .request(.wait(wait)))
    }

    /// Fails one input alone when it is one of the shard's pending files, and starts over without it;
    /// the failure is the shard's when it is not, or when no other file is left.
    private mutating func isolate(_ culprit: Int, _ failure: ShardFailure, _ facts: Facts) -> Decision {
        var facts = facts
        let pending = facts.pending
        guard let input = pending.first(where: { $0.index == culprit }) else {
            var shardWide = failure
            shardWide.culprit = nil
            return fail(shardWide, facts)
        }
        let failed: [Command] = [.failFiles([culprit], failure.reason, knownBad: failure.culpritIsBad)]
        facts.markFailed([culprit], failure.reason)
        let othersLeft = pending.count - 1
        guard othersLeft > 0 else {
            return failShard(failure.reason, byItsFiles: true, executing: failure.failedAssembly != nil).after(failed)
        }
        let cancel = abandon(&facts)
        facts.replaying = nil
        return enter(.planned, facts).after(failed + cancel + [
            .report(.fileFailed, .inputFailed(file: input.file.relativePath, failure.reason, othersLeft: othersLeft)),
            .transition(.restarted, .restarted, .none),
        ])
    }

    /// Ends the shard failed with `reason`; `executing`: its Assembly itself failed after its uploads were stored.
    mutating func failShard(_ reason: FailureReason, byItsFiles: Bool = false, executing: Bool = false) -> Decision {
        state = .finished(.failed)
        failure = (reason, byItsFiles)
        return Decision([.transition(.failed(reason, executing: executing), .failed, .failed(reason))], .finish(.failed))
    }

    // MARK: - Helpers

    /// Follows the change stream a status names while its Assembly runs (unless `poll.stream` is off),
    /// and starts downloading the results a running Assembly's status lists.
    private func observe(_ status: AssemblyStatus, _ facts: inout Facts) -> [Command] {
        var commands: [Command] = []
        if status.isRunning {
            let files = Dictionary(facts.files.map { ($0.index, $0) }, uniquingKeysWith: { first, _ in first })
            var early: [NewResult] = []
            for step in status.results.keys.sorted() {
                early += (status.results[step] ?? []).compactMap { prefetchable($0, step: step, files: files, &facts) }
            }
            if !early.isEmpty { commands.append(.prefetch(early)) }
        }
        guard settings.poll.stream else { return commands }
        let url = status.isRunning ? status.streamURL : nil
        if url != facts.stream {
            facts.stream = url
            facts.streamIsLive = url != nil
            commands.append(.follow(stream: url))
        }
        return commands
    }

    /// The result as the completed status will map it, when it is one to download early and not started yet.
    ///
    /// Only a result that names its input's field and its name is started early (so that its path is
    /// the one the completed status gives it); any other waits for the completion.
    func prefetchable(_ file: AssemblyFile, step: String, files: [Int: FileRecord], _ facts: inout Facts) -> NewResult? {
        guard file.field != nil, let name = file.name, facts.prefetched.insert("\(step)/\(file.id ?? name)").inserted else { return nil }
        let result = settings.mapper.result(file, step: step, ordinal: 0, byIndex: files)
        guard case .download = result.delivery else { return nil }
        return result
    }

    /// Polls the API host's URL for the Assembly at once, without using up a try.
    private mutating func askAPIHost(instead poll: Poll, _ facts: Facts) -> Decision {
        var moved = poll
        moved.url = poll.fallback
        state = .pacing(facts, moved)
        return Decision([.forgetStatusPacing(url: poll.url), .noteRetry(.askingAPIHost(unreachable: poll.url, asking: poll.fallback))],
                        .request(.paceStatus(url: poll.fallback)))
    }

    /// Looks the Assembly up at the API host before its tus uploads, without using up a try.
    private mutating func askAPIHost(for attempt: AttemptRecord, instead url: String, tusURL: String, _ facts: Facts) -> Decision {
        let fallback = assemblyURL(of: attempt)
        state = .checkingTus(facts, attempt, url: fallback, tusURL: tusURL)
        return Decision([.noteRetry(.askingAPIHost(unreachable: url, asking: fallback))], .request(.lookUp(url: fallback)))
    }

    /// Writes the status URL an answer names when it is another than `url` (its machine changed); nothing otherwise.
    func refreshedURL(_ status: AssemblyStatus, was url: String) -> [Command] {
        guard let named = status.statusURL, named != url, status.isRunning else { return [] }
        return [.forgetStatusPacing(url: url), .recordStatusURL(named)]
    }

    func assemblyURL(of attempt: AttemptRecord) -> String {
        "\(settings.endpoint)/assemblies/\(attempt.assemblyID)"
    }

    /// The state and request from which a status request that `state` waits on, and a rate limit refused, is asked
    /// again: a poll waits for its turn in the run's pace again; a look-up is sent again.
    private func askAgain(from state: State) -> (State, Request)? {
        switch state {
        case let .polling(facts, poll): (.pacing(facts, poll), .paceStatus(url: poll.url))
        case let .checkingTus(_, _, url, _): (state, .lookUp(url: url))
        case let .checkingExisting(_, attempt), let .confirmingTaken(_, attempt, _): (state, .lookUp(url: assemblyURL(of: attempt)))
        case let .checkingParent(facts, _, _): facts.replaying.map { (state, .lookUp(url: parentURL($0))) }
        default: nil
        }
    }

    static let noAttempt = ShardFailure(
        code: .noAttempt, "the ledger has no attempt for the shard", retryable: true, needsNewAssembly: true)

    static let assemblyGone = ShardFailure(
        code: .assemblyNotFound, "the service no longer knows the Assembly", retryable: true, needsNewAssembly: true)

}
