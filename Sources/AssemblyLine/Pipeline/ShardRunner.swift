import ConfigFormat
import Foundation

/// Drives one shard through its state machine to `downloaded` or `failed`, each step committed to the ledger first.
///
/// It starts from the state the ledger holds, so the same code runs a fresh shard and resumes one:
/// an Assembly that exists is polled, not created again; a verified download is kept. Retryable
/// failures wait (capped exponential backoff with jitter, or the service's hint) and try again with
/// a fresh signature; rate limits wait without using up an attempt.
package struct ShardRunner: Sendable {
    package let context: PipelineContext
    package let shard: ShardRecord

    package init(context: PipelineContext, shard: ShardRecord) {
        self.context = context
        self.shard = shard
    }

    /// Runs the shard to its end; throws only `CancellationError`, leaving the ledger where the shard stood.
    package func run() async throws -> ShardState {
        var state = shard.state
        var failures = 0
        var signed: SignedParams?
        if state == .failed {
            state = try await reopenOrRestart()
        }
        while true {
            try Task.checkCancellation()
            do {
                switch state {
                case .downloaded, .failed:
                    return state
                case .planned:
                    signed = try await startAttempt()
                    state = .signed
                case .signed:
                    state = try await create(signed)
                    signed = nil
                case .created where context.tus != nil:
                    state = try await uploadByTus()
                case .created, .uploaded, .executing:
                    state = try await poll(from: state)
                case .completed:
                    state = try await download()
                }
            } catch let failure as ShardFailure {
                if Task.isCancelled { throw CancellationError() }
                if let culprit = failure.culprit, let next = try await isolate(culprit, failure.reason) {
                    state = next
                    signed = nil
                    continue
                }
                failures += 1
                guard failure.reason.isRetryable, context.retry.allowsRetry(after: failures) else {
                    try await transition(.failed(failure.reason), event: .failed, detail: failure.reason.description)
                    return .failed
                }
                let wait = context.retry.delay(after: failures, hint: failure.retryIn)
                context.report(ShardEvent(shard: shard.index, kind: .retrying,
                                          detail: "\(failure.reason) (try \(failures + 1) of \(context.retry.attempts) in \(ConfigUnits.formatDuration(wait)))"))
                try await Task.sleep(for: wait)
                if failure.needsNewAssembly && state != .planned {
                    try await transition(.restarted, event: .restarted)
                    state = .planned
                }
                signed = nil
            }
        }
    }

    // MARK: - Steps

    /// Where a failed shard goes on from: its last Assembly's results when it completed, the Assembly
    /// itself when it was created and failed for a reason a retry can fix, or a new attempt.
    private func reopenOrRestart() async throws -> ShardState {
        let last = try await context.ledger.attempts(of: context.runID, shard: shard.index).last
        if last?.outcome == .completed {
            try await transition(.reopened(at: .completed), event: .restarted, detail: "downloading the results of Assembly \(last?.assemblyID.rawValue ?? "")")
            return .completed
        }
        if let last, last.outcome == .failed, last.createdAt != nil, last.failure?.isRetryable == true {
            try await transition(.reopened(at: .executing), event: .restarted, detail: "polling Assembly \(last.assemblyID) again")
            return .executing
        }
        try await transition(.restarted, event: .restarted)
        return .planned
    }

    /// Writes the intent (a new Assembly ID) before anything is sent, then signs fresh params.
    private func startAttempt() async throws -> SignedParams {
        let id = AssemblyID.generate()
        _ = try await context.ledger.recordAttempt(context.runID, shard: shard.index, assemblyID: id, at: Date())
        context.report(ShardEvent(shard: shard.index, kind: .started, detail: "Assembly \(id)"))
        context.checkpoint(.afterIntent)
        let signed = try await sign()
        try await transition(.signed, event: .signed)
        context.checkpoint(.afterSigned)
        return signed
    }

    private func sign() async throws -> SignedParams {
        do {
            return try await context.signer.signed(context.params.serialized(now: Date()))
        } catch {
            throw ShardFailure(error)
        }
    }

    /// Creates the attempt's Assembly with the shard's files; after a crash, first asks whether it already exists.
    private func create(_ fresh: SignedParams?) async throws -> ShardState {
        let attempt = try await currentAttempt()
        let statusURL = "\(context.client.endpoint)/assemblies/\(attempt.assemblyID)"
        let files = try await context.ledger.files(of: context.runID, shard: shard.index, state: .pending)
        let tus = context.tus != nil
        let bytes = tus ? 0 : files.reduce(0) { $0 + $1.file.size }
        if fresh == nil, let existing = try await status(at: statusURL) {
            return try await created(existing, fallbackURL: statusURL, bytesSent: bytes)
        }
        let signed: SignedParams
        if let fresh { signed = fresh } else { signed = try await sign() }
        let uploads: [TransloaditClient.Upload] = tus ? [] : try files.map { record in
            try Self.checkUnchanged(record)
            return TransloaditClient.Upload(field: ResultMapper.field(forFile: record.index), path: record.file.path,
                                            filename: PathText.lastComponent(of: record.file.relativePath))
        }
        while true {
            try await context.governor.awaitCreation()
            let client = context.client
            let halfway = HalfwayTrigger(context.checkpoint, at: .midUpload).sending
            let counter = SentBytesCounter(context.sent)
            let both: TransferProgressHandler = { progress in
                halfway(progress)
                counter.report(progress)
            }
            let progress = tus ? nil : both
            let outcome = try await context.governor.uploads.withSlot { () async -> Result<AssemblyStatus, TransloaditError> in
                do throws(TransloaditError) {
                    return .success(try await client.create(id: attempt.assemblyID, params: signed.params,
                                                            signature: signed.signature, uploads: uploads,
                                                            expectedTusUploads: tus ? files.count : nil, progress: progress))
                } catch {
                    return .failure(error)
                }
            }
            switch outcome {
            case .success(let status):
                context.checkpoint(.afterCreateAnswer)
                return try await created(status, fallbackURL: statusURL, bytesSent: bytes)
            case .failure(let error) where error.code == .assemblyIDTaken:
                // The ID is ours: the creation went through but its answer was lost (a re-sent request finds it taken).
                guard let existing = try await status(at: statusURL) else {
                    throw ShardFailure(error.failureReason.retryable, needsNewAssembly: true)
                }
                return try await created(existing, fallbackURL: statusURL, bytesSent: bytes)
            case .failure(let error) where error.isRateLimit:
                let wait = error.retryIn ?? .seconds(60)
                await context.governor.backOffCreations(for: wait)
                context.report(ShardEvent(shard: shard.index, kind: .retrying, detail: "\(error.code): waiting \(ConfigUnits.formatDuration(wait))"))
            case .failure(let error):
                throw ShardFailure(error)
            }
        }
    }

    /// Records the accepted Assembly and moves on from what its first status says.
    private func created(_ status: AssemblyStatus, fallbackURL: String, bytesSent: Int64) async throws -> ShardState {
        try await transition(.created(assemblyURL: status.statusURL ?? fallbackURL, tusURL: status.tusURL, bytesSent: bytesSent), event: .created,
                             detail: status.assemblyID ?? "")
        if context.tus != nil {
            context.checkpoint(.afterCreated)
            return .created
        }
        try await transition(.uploaded, event: .uploaded)
        context.checkpoint(.afterCreated)
        return try await advance(with: status, from: .uploaded)
    }

    /// Polls the Assembly until it completes, backing off, honouring the service's waits.
    private func poll(from start: ShardState) async throws -> ShardState {
        let attempt = try await currentAttempt()
        guard let url = attempt.assemblyURL else {
            throw ShardFailure(code: .assemblyURLMissing, "the ledger has no status URL for the Assembly", retryable: true, needsNewAssembly: true)
        }
        let deadline = (attempt.createdAt ?? attempt.startedAt).addingTimeInterval(Double(context.poll.timeout.milliseconds) / 1_000)
        var state = start
        var interval = context.poll.interval
        while true {
            try await context.governor.awaitStatus(of: url)
            guard let status = try await status(at: url) else {
                throw ShardFailure(code: .assemblyNotFound, "the service no longer knows the Assembly", retryable: true, needsNewAssembly: true)
            }
            context.checkpoint(.midPoll)
            let next = try await advance(with: status, from: state)
            if next == .completed { await context.governor.forget(url) }
            if next == .completed || next == .downloaded { return next }
            guard Date() < deadline else {
                throw ShardFailure(code: .pollTimeout, "the Assembly did not finish within \(ConfigUnits.formatDuration(context.poll.timeout))", retryable: false)
            }
            state = next
            try await Task.sleep(for: interval)
            interval = min(interval * 3 / 2, context.poll.maxInterval)
        }
    }

    /// The status of an Assembly, nil when the service does not know it; rate limits wait and ask again.
    func status(at url: String) async throws -> AssemblyStatus? {
        while true {
            do {
                return try await context.client.status(url: url)
            } catch where error.isRateLimit {
                try await Task.sleep(for: error.retryIn ?? context.poll.maxInterval)
            } catch {
                throw ShardFailure(error)
            }
        }
    }

    /// The state a status moves the shard to: still running, completed (results recorded), or a failure.
    func advance(with status: AssemblyStatus, from state: ShardState) async throws -> ShardState {
        if status.isCompleted {
            let files = try await context.ledger.files(of: context.runID, shard: shard.index, state: nil)
            let results = ResultMapper(runID: context.runID, shardIndex: shard.index, output: context.output).results(of: status, files: files)
            try await transition(.completed(results: results), event: .completed, detail: "\(results.count) results")
            context.checkpoint(.afterCompleted)
            return .completed
        }
        if let error = status.error {
            let aborted = error == .requestAborted
            var failure = ShardFailure(code: error, status.message ?? status.reason ?? "the Assembly failed", retryable: aborted, needsNewAssembly: aborted)
            if !aborted { failure.culprit = ResultMapper.failedFileIndex(of: status) }
            throw failure
        }
        switch status.ok {
        case .executing? where state != .executing:
            try await transition(.executing, event: .executing)
            return .executing
        case .aborted?, .canceled?:
            throw ShardFailure(code: FailureCode(rawValue: status.ok?.code ?? ""), status.message ?? "the Assembly stopped", retryable: true, needsNewAssembly: true)
        default:
            return state
        }
    }

    /// Fails one corrupt input alone and starts the shard over without it; nil when the file is not one of
    /// the shard's pending files (the failure is then the shard's). A shard left with no file fails.
    private func isolate(_ file: Int, _ reason: FailureReason) async throws -> ShardState? {
        let pending = try await context.ledger.files(of: context.runID, shard: shard.index, state: .pending)
        guard let culprit = pending.first(where: { $0.index == file }) else { return nil }
        try await context.ledger.failFiles(context.runID, files: [file], reason: reason, at: Date())
        let others = pending.count - 1
        guard others > 0 else {
            try await transition(.failed(reason), event: .failed, detail: reason.description)
            return .failed
        }
        context.report(ShardEvent(shard: shard.index, kind: .fileFailed,
                                  detail: "\(culprit.file.relativePath): \(reason); \(others) other files go on in a new Assembly"))
        try await transition(.restarted, event: .restarted)
        return .planned
    }

    /// Downloads every result not yet in place, verified, then marks the shard done.
    private func download() async throws -> ShardState {
        let attempt = try await currentAttempt()
        if let completed = attempt.completedAt, Date().timeIntervalSince(completed) > Double(context.resultLifetime.milliseconds) / 1_000 {
            throw ShardFailure(code: .resultsExpired, "the results are past their lifetime; the shard runs again", retryable: true, needsNewAssembly: true)
        }
        let pending = try await context.ledger.results(of: context.runID, shard: shard.index)
            .filter { $0.attempt == attempt.number && !$0.isDownloaded }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for record in pending {
                group.addTask { try await fetch(record) }
            }
            try await group.waitForAll()
        }
        context.checkpoint(.beforeShardDone)
        try await transition(.downloaded, event: .downloaded, detail: "\(pending.count) files")
        return .downloaded
    }

    private func fetch(_ record: ResultRecord) async throws {
        let downloader = context.downloader
        let result = record.result
        let progress = HalfwayTrigger(context.checkpoint, at: .midDownload).receiving
        let outcome = try await context.governor.downloads.withSlot { () async -> TransloaditError? in
            do throws(TransloaditError) {
                _ = try await downloader.fetch(result, progress: progress)
                return nil
            } catch {
                return error
            }
        }
        if let outcome {
            // A result the service no longer has (404) needs the shard run again; a retry of the download cannot help.
            guard outcome.httpStatus == 404 else { throw ShardFailure(outcome) }
            throw ShardFailure(outcome.failureReason.retryable, needsNewAssembly: true)
        }
        context.checkpoint(.afterRename)
        try await context.ledger.recordDownload(context.runID, result: record.id, at: Date())
        context.checkpoint(.afterDownloadCommit)
    }

    // MARK: - Helpers

    func currentAttempt() async throws -> AttemptRecord {
        guard let attempt = try await context.ledger.attempts(of: context.runID, shard: shard.index).last else {
            throw ShardFailure(code: .noAttempt, "the ledger has no attempt for the shard", retryable: true, needsNewAssembly: true)
        }
        return attempt
    }

    func transition(_ transition: ShardTransition, event: ShardEvent.Kind, detail: String = "") async throws {
        try await context.ledger.transition(context.runID, shard: shard.index, transition, at: Date())
        context.report(ShardEvent(shard: shard.index, kind: event, detail: detail))
    }

    /// Refuses a file whose size or modification time changed since the plan; the file fails alone.
    static func checkUnchanged(_ record: FileRecord) throws {
        do {
            try record.file.checkUnchanged()
        } catch {
            throw ShardFailure(error, uploading: record.index)
        }
    }
}
