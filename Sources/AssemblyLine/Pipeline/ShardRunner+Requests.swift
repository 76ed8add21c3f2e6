
extension ShardRunner {
    /// Performs one of the machine's requests; a failure of the step is thrown as ``ShardFailure``.
    func request(_ action: ShardStateMachine.Action) async throws -> ShardStateMachine.Event {
        let (ledger, run, index) = (context.ledger, context.runID, shard.index)
        switch action {
        case .loadLastAttempt:
            return .lastAttempt(try await ledger.attempts(of: run, shard: index).last)
        case .loadAttempt:
            return .attempt(try await ledger.attempts(of: run, shard: index).last)
        case .loadDownloads:
            let attempt = try await ledger.attempts(of: run, shard: index).last
            let pending = try await ledger.results(of: run, shard: index).filter { $0.attempt == attempt?.number && $0.needsDownload }
            return .downloadsLoaded(attempt, pending: pending)
        case .recordAttempt:
            let id = AssemblyID.generate()
            _ = try await ledger.recordAttempt(run, shard: index, assemblyID: id, at: context.clock.now)
            return .attemptRecorded(id)
        case .sign:
            do {
                return .signed(try await context.signer.signed(context.params.serialized(now: context.clock.now)))
            } catch {
                throw ShardFailure(error)
            }
        case let .lookUp(url):
            return .lookedUp(try await status(at: url))
        case let .create(id, signed):
            return .createAnswered(try await create(id, signed))
        case let .pollStatus(url):
            try await context.governor.awaitStatus(of: url)
            return .statusAnswered(try await status(at: url))
        case let .uploadByTus(attempt, status):
            return .tusUploaded(detail: try await uploadByTus(attempt, status: status))
        case let .download(pending):
            return .downloaded(count: try await download(pending))
        case let .isolate(file, reason):
            return try await isolate(file, reason)
        case let .wait(duration):
            try await context.clock.sleep(for: duration)
            return .waited
        case let .awaitChange(interval):
            try await awaitChange(interval)
            return .waited
        case .transition, .recordCreated, .recordCompletion, .report, .checkpoint, .backOffCreations, .forgetStatusPacing,
             .recordStatusURL, .cancelAssembly, .finish:
            preconditionFailure("\(action) is not a request")
        }
    }

    /// Waits before the next status request: for the change stream's word while it is open (at most
    /// `poll.max_interval`, then a safety poll), else for `interval`. A stream that ends is noted once.
    private func awaitChange(_ interval: Duration) async throws {
        guard let watch = watches.live else {
            try await context.clock.sleep(for: interval)
            return
        }
        let wake = try await watch.wait(atMost: max(interval, context.poll.maxInterval), clock: context.clock)
        if case let .streamEnded(reason) = wake {
            try await context.ledger.recordEvent(context.runID, shard: shard.index, kind: "stream.ended",
                                                 message: "the change stream \(watch.url) ended (\(reason)); polling instead",
                                                 at: context.clock.now)
        }
    }

    /// The status of an Assembly, nil when the service does not know it; rate limits wait and ask again.
    func status(at url: String) async throws -> AssemblyStatus? {
        while true {
            do {
                return try await context.client.status(url: url)
            } catch where error.isRateLimit {
                try await context.clock.sleep(for: error.retryIn ?? context.poll.maxInterval)
            } catch {
                throw ShardFailure(error)
            }
        }
    }

    /// Sends the creating request with the shard's pending files (none over tus), once the run's pace allows.
    private func create(_ id: AssemblyID, _ signed: SignedParams) async throws -> Result<AssemblyStatus, TransloaditError> {
        let files = try await context.ledger.files(of: context.runID, shard: shard.index, state: .pending)
        let tus = context.tus != nil
        let uploads: [TransloaditClient.Upload] = tus ? [] : try files.map { record in
            try Self.checkUnchanged(record)
            return TransloaditClient.Upload(field: ResultMapper.field(forFile: record.index), path: record.file.path,
                                            filename: PathText.lastComponent(of: record.file.relativePath))
        }
        try await context.governor.awaitCreation()
        let client = context.client
        let halfway = HalfwayTrigger(context.checkpoint, at: .midUpload).sending
        let counter = SentBytesCounter(context.sent)
        let both: TransferProgressHandler = { progress in
            halfway(progress)
            counter.report(progress)
        }
        let progress = tus ? nil : both
        return try await context.governor.uploads.withSlot { () async -> Result<AssemblyStatus, TransloaditError> in
            do throws(TransloaditError) {
                return .success(try await client.create(id: id, params: signed.params, signature: signed.signature, uploads: uploads,
                                                        expectedTusUploads: tus ? files.count : nil, progress: progress))
            } catch {
                return .failure(error)
            }
        }
    }

    /// Fails one corrupt input alone; `notIsolated` when it is not one of the shard's pending files.
    private func isolate(_ file: Int, _ reason: FailureReason) async throws -> ShardStateMachine.Event {
        let pending = try await context.ledger.files(of: context.runID, shard: shard.index, state: .pending)
        guard let culprit = pending.first(where: { $0.index == file }) else { return .notIsolated }
        try await context.ledger.failFiles(context.runID, files: [file], reason: reason, at: context.clock.now)
        return .isolated(culprit: culprit.file.relativePath, othersLeft: pending.count - 1)
    }

    /// Downloads the results not yet in place, verified, once the prefetches have ended; returns how many.
    private func download(_ pending: [ResultRecord]) async throws -> Int {
        await prefetcher.settle()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for record in pending {
                group.addTask { try await fetch(record) }
            }
            try await group.waitForAll()
        }
        return pending.count
    }

    /// Fetches one result; what storage's refusal means comes from ``Retryability/storageRefusal(status:temporary:)``.
    private func fetch(_ record: ResultRecord) async throws {
        let result = record.result
        let fetches = try await context.ledger.recordFetch(context.runID, result: record.id)
        if result.isTemporary && fetches > ResultDownloader.fetchLimit {
            throw ShardFailure(code: .resultFetchLimit, "\(result.name) was fetched \(ResultDownloader.fetchLimit) times; the shard runs again",
                               retryable: true, needsNewAssembly: true)
        }
        let downloader = context.downloader
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
            switch outcome.httpStatus.flatMap({ Retryability.storageRefusal(status: $0, temporary: result.isTemporary) }) {
            case .gone?:
                // A result the service no longer has needs the shard run again; a retry of the download cannot help.
                throw ShardFailure(outcome.failureReason.retryable, needsNewAssembly: true)
            case .private?:
                try await refused(record, status: outcome.httpStatus ?? 0)
                return
            case nil:
                throw ShardFailure(outcome)
            }
        }
        context.checkpoint(.afterRename)
        try await context.ledger.recordDownload(context.runID, result: record.id, at: context.clock.now)
        context.checkpoint(.afterDownloadCommit)
    }

    /// Storage refused a result that is not temporary (an export's, in private storage): its file
    /// fails alone, or the shard when the result belongs to no single file.
    private func refused(_ record: ResultRecord, status: Int) async throws {
        let result = record.result
        let reason = FailureReason(
            code: .resultNotDownloadable,
            message: "storage refused \(result.name) of step \(result.step) (HTTP \(status)); an export Robot's results are "
                + "recorded, not downloaded, unless output.steps names their step: leave \(result.step) out of output.steps",
            isRetryable: false)
        guard let file = result.fileIndex else { throw ShardFailure(reason) }
        try await context.ledger.failFiles(context.runID, files: [file], reason: reason, at: context.clock.now)
        let input = try await context.ledger.files(of: context.runID, shard: shard.index, state: nil).first { $0.index == file }
        context.report(ShardEvent(shard: shard.index, kind: .fileFailed, detail: "\(result.name): \(reason)",
                                  file: input?.file.relativePath, failure: reason))
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
