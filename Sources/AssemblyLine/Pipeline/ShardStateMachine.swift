import ConfigFormat
import Foundation

/// The decisions of one shard, as a value: given where the shard stands and what just happened, what to do next.
///
/// In the manner of async-http-client's `HTTPRequestStateMachine`, it performs nothing: it takes
/// the shard's ledger state (``start(from:)``) and then one ``Event`` at a time (``handle(_:at:)``),
/// and answers with ``Action``s: commands to carry out in order, ending with one request whose
/// outcome is the next event. ``ShardRunner`` is the driver that performs them. The clock's time
/// comes with each event, and the retry jitter from a seeded generator, so the same inputs always
/// give the same actions.
///
/// The rules (docs/pipeline.md):
/// - Every step is written to the ledger before the next begins; a shard resumes from its ledger state.
/// - A failed shard reopens its last Assembly when it completed (download) or was created and failed
///   for a retryable reason (poll again); else it starts a new attempt.
/// - Creation writes the intent (a new Assembly ID) first; resumed at `signed`, it first asks whether
///   the Assembly exists. A creation answered `DO_NOT_REUSE_ASSEMBLY_IDS` or `SIGNATURE_REUSE_DETECTED`
///   may have gone through and lost its answer: the Assembly is looked up and adopted. Every try is
///   signed afresh, and the answer must name our Assembly ID.
/// - Rate limits wait without using up a try; retryable failures wait (capped exponential backoff
///   with jitter, or the service's hint) and try the step again, in a new Assembly when the old one is gone.
/// - A failure about one input fails that file alone and starts the shard over without it.
package struct ShardStateMachine: Sendable {
    /// What the machine needs to know of the run.
    package struct Settings: Sendable, Hashable {
        /// The Assembly API's base URL (an attempt's Assembly is `<endpoint>/assemblies/<id>`).
        package var endpoint: String
        /// Files go up over tus after creation, not in the creating request.
        package var tus: Bool
        package var retry: RetryPolicy
        package var poll: PollSettings
        /// How long the service keeps results; a download past it runs the shard again.
        package var resultLifetime: Duration

        package init(endpoint: String, tus: Bool, retry: RetryPolicy, poll: PollSettings, resultLifetime: Duration) {
            self.endpoint = endpoint
            self.tus = tus
            self.retry = retry
            self.poll = poll
            self.resultLifetime = resultLifetime
        }
    }

    /// What the machine waits for.
    enum Phase: Sendable, Hashable {
        case idle
        case reopening
        case recordingAttempt
        /// Signing a new attempt's params (`fresh`), or signing again just before a creation.
        case signing(fresh: Bool, AttemptRecord?)
        case loadingForCreation
        case checkingExisting(AttemptRecord)
        case creating(AttemptRecord, SignedParams)
        /// The creation was refused as a reused ID: ours, if the Assembly exists.
        case confirmingTaken(AttemptRecord, TransloaditError)
        case loadingForTus
        case checkingTus(AttemptRecord, url: String)
        case uploadingTus(AssemblyStatus)
        case loadingForPoll
        case polling(Poll)
        case pausingPoll(Poll)
        case loadingForDownload
        case downloading
        case isolating(ShardFailure)
        case backingOff(ShardFailure)
        case finished(ShardState)
    }

    /// A poll under way: where it asks, where it asks when that host is gone, until when, how often.
    struct Poll: Sendable, Hashable {
        /// The Assembly's status URL: the machine the service named last.
        var url: String
        /// `<endpoint>/assemblies/<id>`, which always answers (docs: machines are cycled quickly).
        var fallback: String
        var deadline: Date
        var interval: Duration
    }

    package let settings: Settings
    /// The step the shard is on: the ledger state as the machine last wrote or read it.
    private(set) var step: ShardState = .planned
    private(set) var phase: Phase = .idle
    /// Failures so far that used up a try.
    private(set) var failures = 0
    /// Params signed for the current attempt and not used yet.
    private var signed: SignedParams?
    /// The current attempt's Assembly while it may still run: cancelled when the shard gives up on it.
    private var running: AssemblyID?
    /// Set when the Assembly's status just came (with the creation or the tus check): the first poll
    /// then waits for a change first, instead of asking again at once for what was just answered.
    private var statusIsFresh = false
    /// Fixes the retry jitter, so that the same events always give the same waits.
    private let seed: UInt64

    package init(settings: Settings, seed: UInt64) {
        self.settings = settings
        self.seed = seed
    }

    // MARK: - Start

    /// The first actions for a shard in ledger state `state`.
    package mutating func start(from state: ShardState) -> [Action] {
        step = state
        guard state == .failed else { return enter(state) }
        phase = .reopening
        return [.loadLastAttempt]
    }

    // MARK: - Events

    /// The actions that follow `event`, which arrived at wall-clock time `now`.
    package mutating func handle(_ event: Event, at now: Date) -> [Action] {
        switch (phase, event) {
        // A machine gone, or one that no longer holds the Assembly: only the API host says whether it exists.
        case let (.polling(poll), .failed(failure)) where failure.hostUnreachable && poll.url != poll.fallback:
            return askAPIHost(instead: poll)
        case let (.polling(poll), .statusAnswered(nil)) where poll.url != poll.fallback:
            return askAPIHost(instead: poll)
        case let (.checkingTus(attempt, url), .failed(failure)) where failure.hostUnreachable && url != assemblyURL(of: attempt):
            return askAPIHost(for: attempt, instead: url)
        case let (.checkingTus(attempt, url), .lookedUp(nil)) where url != assemblyURL(of: attempt):
            return askAPIHost(for: attempt, instead: url)
        case let (_, .failed(failure)):
            return fail(failure)
        case let (.reopening, .lastAttempt(last)):
            return reopen(last)
        case let (.recordingAttempt, .attemptRecorded(id)):
            phase = .signing(fresh: true, nil)
            return [.report(.started, detail: "Assembly \(id)"), .checkpoint(.afterIntent), .sign]
        case let (.signing(fresh: true, _), .signed(params)):
            signed = params
            step = .signed
            return [.transition(.signed, .signed, detail: ""), .checkpoint(.afterSigned)] + enter(.signed)
        case let (.signing(fresh: false, attempt?), .signed(params)):
            phase = .creating(attempt, params)
            return [.create(attempt.assemblyID, params)]
        case let (.loadingForCreation, .attempt(attempt)):
            guard let attempt else { return fail(Self.noAttempt) }
            guard let params = signed else {
                phase = .checkingExisting(attempt)
                return [.lookUp(url: assemblyURL(of: attempt))]
            }
            signed = nil
            phase = .creating(attempt, params)
            return [.create(attempt.assemblyID, params)]
        case let (.checkingExisting(attempt), .lookedUp(existing)):
            if let existing { return created(existing, attempt: attempt, now: now) }
            phase = .signing(fresh: false, attempt)
            return [.sign]
        case let (.creating(attempt, params), .createAnswered(answer)):
            return answered(answer, attempt: attempt, params: params, now: now)
        case let (.confirmingTaken(attempt, error), .lookedUp(existing)):
            guard let existing else {
                // Someone else's ID needs a new one; reused params only a new signature, which every retry has.
                return fail(ShardFailure(error.failureReason.retryable, needsNewAssembly: error.code == .assemblyIDTaken))
            }
            return created(existing, attempt: attempt, now: now)
        case let (.loadingForTus, .attempt(attempt)):
            guard let attempt else { return fail(Self.noAttempt) }
            guard let url = attempt.assemblyURL, attempt.tusURL != nil else {
                return fail(ShardFailure(code: .tusURLMissing, "the service named no tus endpoint for the Assembly",
                                         retryable: true, needsNewAssembly: true))
            }
            running = attempt.assemblyID
            phase = .checkingTus(attempt, url: url)
            return [.lookUp(url: url)]
        case let (.checkingTus(attempt, url), .lookedUp(status)):
            guard let status else { return gone() }
            if status.isCompleted {
                // Every expected upload arrived before a stop kept us from recording it: the Assembly ran, and is kept.
                step = .uploaded
                return [.transition(.uploaded, .uploaded, detail: Self.completedBeforeRecorded)] + advance(with: status, polling: nil, now: now)
            }
            guard status.isRunning else {
                running = nil
                let code = status.error ?? status.ok.map { FailureCode(rawValue: $0.code) } ?? .assemblyStopped
                return fail(ShardFailure(code: code, "the Assembly stopped before its uploads finished; the shard runs again",
                                         retryable: true, needsNewAssembly: true))
            }
            phase = .uploadingTus(status)
            return refreshedURL(status, was: url) + [.uploadByTus(attempt, status)]
        case let (.uploadingTus(status), .tusUploaded(detail)):
            step = .uploaded
            return [.transition(.uploaded, .uploaded, detail: detail)] + advance(with: status, polling: nil, now: now)
        case let (.loadingForPoll, .attempt(attempt)):
            guard let attempt else { return fail(Self.noAttempt) }
            guard let url = attempt.assemblyURL else {
                return fail(ShardFailure(code: .assemblyURLMissing, "the ledger has no status URL for the Assembly",
                                         retryable: true, needsNewAssembly: true))
            }
            running = attempt.assemblyID
            let deadline = (attempt.createdAt ?? attempt.startedAt).addingTimeInterval(settings.poll.timeout.timeInterval)
            let poll = Poll(url: url, fallback: assemblyURL(of: attempt), deadline: deadline, interval: settings.poll.interval)
            guard statusIsFresh else {
                phase = .polling(poll)
                return [.pollStatus(url: url)]
            }
            statusIsFresh = false
            phase = .pausingPoll(poll)
            return [.awaitChange(poll.interval)]
        case let (.polling(poll), .statusAnswered(status)):
            guard let status else { return gone() }
            var current = poll
            let refresh = refreshedURL(status, was: poll.url)
            if !refresh.isEmpty, let named = status.statusURL {
                current.url = named
            }
            return [.checkpoint(.midPoll)] + refresh + advance(with: status, polling: current, now: now)
        case let (.pausingPoll(poll), .waited):
            var next = poll
            next.interval = min(poll.interval * 3 / 2, settings.poll.maxInterval)
            phase = .polling(next)
            return [.pollStatus(url: next.url)]
        case let (.loadingForDownload, .downloadsLoaded(attempt, pending)):
            guard let attempt else { return fail(Self.noAttempt) }
            // Only temporary results expire: an export Robot's stay where it stored them.
            if let completed = attempt.completedAt, pending.contains(where: \.result.isTemporary),
               now.timeIntervalSince(completed) > settings.resultLifetime.timeInterval {
                return fail(ShardFailure(code: .resultsExpired, "the results are past their lifetime; the shard runs again",
                                         retryable: true, needsNewAssembly: true))
            }
            phase = .downloading
            return [.download(pending)]
        case let (.downloading, .downloaded(count)):
            step = .downloaded
            phase = .finished(.downloaded)
            return [.checkpoint(.beforeShardDone), .transition(.downloaded, .downloaded, detail: CountText.of(count, "file")), .finish(.downloaded)]
        case let (.isolating(failure), .isolated(culprit, othersLeft)):
            guard othersLeft > 0 else { return failShard(failure.reason) }
            signed = nil
            step = .planned
            return abandon() + [.report(.fileFailed, detail: "\(culprit): \(failure.reason); \(othersLeft) other files go on in a new Assembly",
                                        file: culprit, failure: failure.reason),
                                .transition(.restarted, .restarted, detail: "")] + enter(.planned)
        case let (.isolating(failure), .notIsolated):
            var shardWide = failure
            shardWide.culprit = nil
            return fail(shardWide)
        case let (.backingOff(failure), .waited):
            signed = nil
            var actions: [Action] = []
            if failure.needsNewAssembly && step != .planned {
                actions += abandon() + [.transition(.restarted, .restarted, detail: "")]
                step = .planned
            }
            return actions + enter(step)
        default:
            preconditionFailure("shard state machine: event \(event) does not belong to phase \(phase)")
        }
    }

    // MARK: - Steps

    /// The actions that start the work of `state`.
    private mutating func enter(_ state: ShardState) -> [Action] {
        step = state
        switch state {
        case .downloaded, .failed:
            phase = .finished(state)
            return [.finish(state)]
        case .planned:
            phase = .recordingAttempt
            return [.recordAttempt]
        case .signed:
            phase = .loadingForCreation
        case .created where settings.tus:
            phase = .loadingForTus
        case .created, .uploaded, .executing:
            phase = .loadingForPoll
        case .completed:
            phase = .loadingForDownload
            return [.loadDownloads]
        }
        return [.loadAttempt]
    }

    /// Where a failed shard goes on from: its last Assembly's results, the Assembly itself, or a new attempt.
    private mutating func reopen(_ last: AttemptRecord?) -> [Action] {
        if let last, last.outcome == .completed {
            step = .completed
            return [.transition(.reopened(at: .completed), .restarted, detail: "downloading the results of Assembly \(last.assemblyID.rawValue)")]
                + enter(.completed)
        }
        if let last, last.outcome == .failed, last.createdAt != nil, last.failure?.isRetryable == true {
            step = .executing
            return [.transition(.reopened(at: .executing), .restarted, detail: "polling Assembly \(last.assemblyID) again")]
                + enter(.executing)
        }
        step = .planned
        return [.transition(.restarted, .restarted, detail: "")] + enter(.planned)
    }

    /// What a creation's answer leads to.
    private mutating func answered(
        _ answer: Result<AssemblyStatus, TransloaditError>, attempt: AttemptRecord, params: SignedParams, now: Date
    ) -> [Action] {
        switch answer {
        case let .success(status):
            return [.checkpoint(.afterCreateAnswer)] + created(status, attempt: attempt, now: now)
        case let .failure(error) where error.code == .assemblyIDTaken || error.code == .signatureReused:
            // Ours, when an earlier try went through and its answer was lost: the Assembly exists under our ID.
            phase = .confirmingTaken(attempt, error)
            return [.lookUp(url: assemblyURL(of: attempt))]
        case let .failure(error) where error.isRateLimit:
            // Identical signed params are refused on their second arrival: the next try is signed afresh.
            let wait = error.retryIn ?? .seconds(60)
            phase = .signing(fresh: false, attempt)
            return [.backOffCreations(wait), .report(.retrying, detail: "\(error.code): waiting \(ConfigUnits.formatDuration(wait))"),
                    .sign]
        case let .failure(error):
            return fail(ShardFailure(error))
        }
    }

    /// Records the accepted Assembly and goes on from what its first status says.
    private mutating func created(_ status: AssemblyStatus, attempt: AttemptRecord, now: Date) -> [Action] {
        if let answered = status.assemblyID, answered != attempt.assemblyID.rawValue {
            return fail(ShardFailure(code: .assemblyIDMismatch, "the service answered for Assembly \(answered), not \(attempt.assemblyID)",
                                     retryable: false))
        }
        running = attempt.assemblyID
        let recorded = Action.recordCreated(status, fallbackURL: assemblyURL(of: attempt))
        if settings.tus {
            step = .created
            return [recorded, .checkpoint(.afterCreated)] + enter(.created)
        }
        step = .uploaded
        return [recorded, .transition(.uploaded, .uploaded, detail: ""), .checkpoint(.afterCreated)]
            + advance(with: status, polling: nil, now: now)
    }

    /// The state a status moves the shard to, and what follows: download, another poll, or a failure.
    ///
    /// `polling` is the poll under way, nil when the status came with the creation or the tus check.
    private mutating func advance(
        with status: AssemblyStatus, polling: Poll?, now: Date
    ) -> [Action] {
        if status.isCompleted || status.error != nil || status.ok == .aborted || status.ok == .canceled {
            running = nil
        }
        if status.isCompleted {
            step = .completed
            let forget = polling.map { [Action.forgetStatusPacing(url: $0.url)] } ?? []
            return [.recordCompletion(status), .checkpoint(.afterCompleted)] + forget + enter(.completed)
        }
        if let error = status.error {
            let again = Retryability.isRetryable(assemblyError: error, said: status.retryable)
            var failure = ShardFailure(code: error, status.message ?? status.reason ?? "the Assembly failed",
                                       retryable: again, needsNewAssembly: again)
            if !again { failure.culprit = ResultMapper.failedFileIndex(of: status) }
            return fail(failure)
        }
        var actions: [Action] = []
        switch status.ok {
        case .executing? where step != .executing:
            step = .executing
            actions.append(.transition(.executing, .executing, detail: ""))
        case .aborted?, .canceled?:
            return fail(ShardFailure(code: FailureCode(rawValue: status.ok?.code ?? ""), status.message ?? "the Assembly stopped",
                                     retryable: true, needsNewAssembly: true))
        default:
            break
        }
        guard let polling else {
            statusIsFresh = true
            return actions + enter(step)
        }
        guard now < polling.deadline else {
            return actions + abandon() + fail(ShardFailure(code: .pollTimeout, "the Assembly did not finish within \(ConfigUnits.formatDuration(settings.poll.timeout))",
                                               retryable: false))
        }
        phase = .pausingPoll(polling)
        return actions + [.awaitChange(polling.interval)]
    }

    // MARK: - Failures

    /// The service no longer knows the Assembly: nothing is left to cancel.
    private mutating func gone() -> [Action] {
        running = nil
        return fail(Self.assemblyGone)
    }

    /// Cancels the Assembly the shard gives up on, when it may still run (docs: an abandoned
    /// Assembly otherwise runs to its expiry and counts against the 250 running Assemblies).
    private mutating func abandon() -> [Action] {
        defer { running = nil }
        return running.map { [.cancelAssembly($0)] } ?? []
    }

    /// What a failure leads to: the culprit input alone, a wait and another try, or the shard's end.
    private mutating func fail(_ failure: ShardFailure) -> [Action] {
        statusIsFresh = false
        if let culprit = failure.culprit {
            phase = .isolating(failure)
            return [.isolate(file: culprit, failure.reason)]
        }
        failures += 1
        guard failure.reason.isRetryable, settings.retry.allowsRetry(after: failures) else {
            return failShard(failure.reason)
        }
        let wait = settings.retry.delay(after: failures, hint: failure.retryIn, jitter: Self.jitter(seed: seed, try: failures))
        phase = .backingOff(failure)
        return [.report(.retrying, detail: "\(failure.reason) (try \(failures + 1) of \(settings.retry.attempts) in \(ConfigUnits.formatDuration(wait)))"),
                .wait(wait)]
    }

    private mutating func failShard(_ reason: FailureReason) -> [Action] {
        step = .failed
        phase = .finished(.failed)
        return [.transition(.failed(reason), .failed, detail: reason.description), .finish(.failed)]
    }

    // MARK: - Helpers

    /// Polls the API host's URL for the Assembly at once, without using up a try.
    private mutating func askAPIHost(instead poll: Poll) -> [Action] {
        var moved = poll
        moved.url = poll.fallback
        phase = .polling(moved)
        return [.forgetStatusPacing(url: poll.url), .report(.retrying, detail: "\(poll.url) does not answer; asking \(poll.fallback)"),
                .pollStatus(url: poll.fallback)]
    }

    /// Looks the Assembly up at the API host before its tus uploads, without using up a try.
    private mutating func askAPIHost(for attempt: AttemptRecord, instead url: String) -> [Action] {
        let fallback = assemblyURL(of: attempt)
        phase = .checkingTus(attempt, url: fallback)
        return [.report(.retrying, detail: "\(url) does not answer; asking \(fallback)"), .lookUp(url: fallback)]
    }

    /// Writes the status URL an answer names when it is another than `url` (its machine changed); nothing otherwise.
    private func refreshedURL(_ status: AssemblyStatus, was url: String) -> [Action] {
        guard let named = status.statusURL, named != url, status.isRunning else { return [] }
        return [.forgetStatusPacing(url: url), .recordStatusURL(named)]
    }

    private func assemblyURL(of attempt: AttemptRecord) -> String {
        "\(settings.endpoint)/assemblies/\(attempt.assemblyID)"
    }

    private static let noAttempt = ShardFailure(
        code: .noAttempt, "the ledger has no attempt for the shard", retryable: true, needsNewAssembly: true)

    /// The detail of the `uploaded` step when a resume finds the Assembly completed.
    package static let completedBeforeRecorded = "every upload had arrived; the Assembly completed"

    private static let assemblyGone = ShardFailure(
        code: .assemblyNotFound, "the service no longer knows the Assembly", retryable: true, needsNewAssembly: true)

    /// A number from 0 to 1 for the retry after failure number `try`, fixed by `seed` (SplitMix64's mixing of the two).
    package static func jitter(seed: UInt64, try number: Int) -> Double {
        var value = seed &+ UInt64(truncatingIfNeeded: number) &* 0x9E37_79B9_7F4A_7C15
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return Double((value ^ (value >> 31)) >> 11) / Double(UInt64(1) << 53)
    }
}
