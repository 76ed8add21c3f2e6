import Foundation

extension ShardRunner {
    /// Performs one of the machine's requests; a failure of the step is thrown as ``ShardFailure``.
    func request(_ request: ShardStateMachine.Request) async throws -> ShardStateMachine.Event {
        let (ledger, run, index) = (context.ledger, context.runID, shard.index)
        switch request {
        case .loadLastAttempt:
            return .lastAttempt(try await ledger.attempts(of: run, shard: index).last)
        case .loadAttempt:
            return .attempt(try await ledger.attempts(of: run, shard: index).last, files: try await ledger.files(of: run, shard: index, state: nil))
        case .loadDownloads:
            return .downloadsLoaded(try await ledger.attempts(of: run, shard: index).last, results: try await ledger.results(of: run, shard: index),
                                    files: try await ledger.files(of: run, shard: index, state: nil))
        case .loadTusUploads:
            return .tusUploadsLoaded(try await ledger.uploads(of: run, shard: index))
        case .recordAttempt:
            guard context.creations.stop == nil else { return .creationsStopped }
            let id = AssemblyID.generate()
            _ = try await ledger.recordAttempt(run, shard: index, assemblyID: id, at: context.clock.now)
            return .attemptRecorded(id)
        case let .recordReplay(parent):
            guard context.creations.allowsReplays else { return .creationsStopped }
            let id = AssemblyID.generate()
            _ = try await ledger.recordAttempt(run, shard: index, assemblyID: id, replaying: parent, at: context.clock.now)
            return .attemptRecorded(id)
        case .sign:
            return .signed(try await signed(params.serialized(now: context.clock.now, importing: try await importSources())))
        case .signReplay:
            return .signed(try await signed(params.replaySerialized(now: context.clock.now)))
        case let .lookUp(url):
            return .lookedUp(try await status(at: url))
        case let .checkUnchanged(files):
            try checkUnchanged(files)
            return .unchanged
        case let .create(id, signed, files):
            guard context.creations.stop == nil else { return .creationsStopped }
            return try await create(id, signed, files: files)
        case let .replay(parent, signed, files):
            guard context.creations.allowsReplays else { return .creationsStopped }
            return try await replay(parent, signed, files: files)
        case let .paceStatus(url):
            try await context.governor.awaitStatus(of: url)
            return .paced
        case let .pollStatus(url, within):
            return .statusAnswered(try await status(at: url, within: within))
        case let .uploadByTus(attempt, uploads):
            return .tusUploaded(try await uploadByTus(uploads, attempt: attempt))
        case .download:
            preconditionFailure("the driver downloads with the shard's prefetches settled")
        case let .wait(duration):
            try await context.clock.sleep(for: duration)
            return .waited
        case let .awaitChange(longest):
            guard let watch = watches.current else { preconditionFailure("the machine awaits a change only while it follows a stream") }
            return .changeAwaited(try await watch.wait(atMost: longest, clock: context.clock))
        }
    }

    /// The run's params with the fields the shard's inputs carry.
    private var params: AssemblyParams {
        var params = context.params
        params.inputFields = shard.fields
        return params
    }

    /// The signer's signature of `params`; a refusal or an unreachable signer is the step's failure.
    private func signed(_ params: String) async throws -> SignedParams {
        do {
            return try await context.signer.signed(params)
        } catch {
            throw ShardFailure(error)
        }
    }

    /// Replays the failed Assembly `parent` on the uploads the service stored, once the run's pace allows and unless the run
    /// stopped replays meanwhile; nothing is uploaded. The files it stands for are checked first, as a creation's are: one
    /// that changed since fails alone, and the shard goes on without it in a new Assembly.
    private func replay(_ parent: AssemblyID, _ signed: SignedParams, files: [FileRecord]) async throws -> ShardStateMachine.Event {
        try checkUnchanged(files)
        try await context.governor.awaitCreation()
        guard context.creations.allowsReplays else { return .creationsStopped }
        do throws(TransloaditError) {
            return .createAnswered(.success(try await context.client.replay(parent, signed: signed)))
        } catch {
            return .createAnswered(.failure(error))
        }
    }

    /// The status of an Assembly, nil when the service does not know it.
    private func status(at url: String, within: Duration = RequestDeadline.answer) async throws -> AssemblyStatus? {
        do throws(TransloaditError) {
            return try await context.client.status(url: url, within: within)
        } catch {
            throw ShardFailure(error)
        }
    }

    /// Sends the creating request with `files` (announced only, over tus), once the run's pace allows and unless the run
    /// stopped creating meanwhile (``CreationGate``).
    private func create(_ id: AssemblyID, _ signed: SignedParams, files: [FileRecord]) async throws -> ShardStateMachine.Event {
        let tus = context.tus != nil
        // Every file is checked before the creation, tus or not: an Assembly is never made for a file that fails alone.
        try checkUnchanged(files)
        let uploads: [TransloaditClient.Upload] = tus || context.params.importStep != nil ? [] : files.map { record in
            TransloaditClient.Upload(field: ResultMapper.field(forFile: record.index), path: record.file.path,
                                     filename: PathText.lastComponent(of: record.file.relativePath))
        }
        try await context.governor.awaitCreation()
        guard context.creations.stop == nil else { return .creationsStopped }
        let client = context.client
        let halfway = HalfwayTrigger(context.checkpoint, at: .midUpload).sending
        let counter = SentBytesCounter(context.sent)
        let both: TransferProgressHandler = { progress in
            halfway(progress)
            counter.report(progress)
        }
        let progress = tus ? nil : both
        return .createAnswered(try await context.governor.uploads.withSlot { () async -> Result<AssemblyStatus, TransloaditError> in
            do throws(TransloaditError) {
                return .success(try await client.create(id: id, params: signed.params, signature: signed.signature, uploads: uploads,
                                                        expectedTusUploads: tus ? files.count : nil, progress: progress))
            } catch {
                return .failure(error)
            }
        })
    }

    /// Downloads the results a prefetch did not, each in one of the run's download slots, then places them together:
    /// verified, flushed and moved into place, each directory flushed once (one hop to a blocking thread a shard); those
    /// in place are committed to the ledger together.
    ///
    /// The fetches are counted first, in one transaction, and the downloads recorded in one: two commits a shard, not
    /// two a result. A run killed before the second finds the verified results in place and keeps them; a run stopped
    /// while downloading leaves no temp file.
    func download(_ pending: [ResultRecord]) async throws -> [ShardStateMachine.DownloadOutcome] {
        try await context.ledger.recordFetches(context.runID, results: pending.map(\.id))
        let ended = await withTaskGroup(of: Transferred.self) { group in
            for record in pending {
                group.addTask {
                    if let early = prefetched.take(for: record.result) {
                        return Transferred(record: record, transfer: early, error: nil)
                    }
                    do {
                        return Transferred(record: record, transfer: try await transfer(record), error: nil)
                    } catch {
                        return Transferred(record: record, transfer: nil, error: error)
                    }
                }
            }
            return await group.reduce(into: [Int64: Transferred]()) { $0[$1.record.id] = $1 }
        }
        let transfers = pending.compactMap { ended[$0.id] }
        if let stop = transfers.lazy.compactMap(\.error).first(where: { !($0 is TransloaditError) }) {
            transfers.forEach { if let temporary = $0.transfer?.temporary { unlink(temporary) } }
            throw stop
        }
        let fetched = transfers.filter { $0.transfer != nil }
        let inPlace = transfers.filter { $0.transfer == nil && $0.error == nil }.map(\.record.result)
        let placing = await context.downloader.place(fetched.compactMap(\.transfer), alongside: inPlace)
        let failures = Dictionary(zip(fetched, placing).compactMap { fetch, outcome in
            if case .failure(let error) = outcome { (fetch.record.id, error) } else { nil }
        }, uniquingKeysWith: { first, _ in first })
        let outcomes = transfers.map { ended in
            ShardStateMachine.DownloadOutcome(ended.record, error: (ended.error as? TransloaditError) ?? failures[ended.record.id])
        }
        let placed = outcomes.filter { $0.error == nil }.map(\.record)
        placed.forEach { _ in context.checkpoint(.afterRename) }
        guard !placed.isEmpty else { return outcomes }
        try await context.ledger.recordDownloads(context.runID, results: placed.map(\.id), at: context.clock.now)
        context.checkpoint(.afterDownloadCommit)
        return outcomes
    }

    /// Downloads one result into its temp file in a download slot; nil when it is in place already.
    private func transfer(_ record: ResultRecord) async throws -> ResultDownloader.Transfer? {
        let (downloader, result) = (context.downloader, record.result)
        let progress = HalfwayTrigger(context.checkpoint, at: .midDownload).receiving
        return try await context.governor.downloads.withSlot { [shard] in try await downloader.transfer(result, shard: shard.index, progress: progress) }
    }

    /// What the import step of the attempt being signed names: the keys (or URLs) of the shard's pending files, in ledger
    /// order, which are the files its creation stands for; none when the files are uploaded.
    private func importSources() async throws -> [String] {
        guard let step = context.params.importStep else { return [] }
        return try await context.ledger.files(of: context.runID, shard: shard.index, state: .pending).map { step.source(of: $0.file.path) }
    }

    /// Refuses the first of `records`, in order, that changed since the plan, or is gone, unreadable or empty; the file fails
    /// alone. Remote inputs are not on this host: the service reads them as they are when it imports them.
    func checkUnchanged(_ records: [FileRecord]) throws {
        guard context.params.importStep == nil else { return }
        for record in records {
            do {
                try record.file.checkUnchanged()
            } catch {
                throw ShardFailure(error, uploading: record.index)
            }
        }
    }
}

/// What a download slot gave for one result of a shard: its transfer (nil when the result was in place), or why not.
///
/// A struct, not a tuple: a task group's child result of `(Int64, Result<ResultDownloader.Transfer?, any Error>)` came
/// back with keys mixed up in release builds (Swift 6.3.1; debug builds were right), and results were recorded unplaced
/// (scripts/check-imports.py refuses such a tuple).
private struct Transferred: Sendable {
    var record: ResultRecord
    var transfer: ResultDownloader.Transfer?
    var error: (any Error)?
}
