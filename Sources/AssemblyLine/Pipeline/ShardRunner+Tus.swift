extension ShardRunner {
    /// Uploads the shard's files that the created Assembly lacks over tus, each resumed from the ledger; returns what was done.
    ///
    /// What the Assembly lacks comes from its `uploads` and `tus_uploads`, as node-sdk's
    /// `resumeAssemblyUploads` decides it, never from `ok` (an Assembly may say EXECUTING once its
    /// first file is in). The endpoint and status URL are those the answer names now; an unfinished
    /// upload resumes at the URL the Assembly names for it (its machine may have changed), else at
    /// the ledger's, unless that one is under another endpoint: then the file starts over.
    func uploadByTus(_ attempt: AttemptRecord, status: AssemblyStatus) async throws -> String {
        guard let assemblyURL = status.statusURL ?? attempt.assemblyURL, let tusURL = status.tusURL ?? attempt.tusURL,
              let tus = context.tus else {
            preconditionFailure("the state machine asks for tus uploads only with both URLs and a tus uploader")
        }
        let arrived = Set(status.uploads.compactMap(\.field) + status.tusUploads.filter(\.finished).compactMap(\.fieldname))
        let named = Dictionary(status.tusUploads.filter { !$0.finished }.compactMap { upload in
            upload.fieldname.flatMap { field in upload.uploadURL.map { (field, $0) } }
        }, uniquingKeysWith: { _, last in last })
        let done = try await context.ledger.uploads(of: context.runID, shard: shard.index)
            .filter { $0.attempt == attempt.number }
        let stored = Dictionary(done.map { ($0.fileIndex, $0) }, uniquingKeysWith: { _, last in last })
        let files = try await context.ledger.files(of: context.runID, shard: shard.index, state: .pending)
            .filter { !arrived.contains(ResultMapper.field(forFile: $0.index)) && stored[$0.index]?.isComplete != true }
        guard !files.isEmpty else { return "every file was already there" }
        var checkpoints: [Int: TusUploadCheckpoint] = [:]
        for record in files {
            let field = ResultMapper.field(forFile: record.index)
            if let url = named[field], url != stored[record.index]?.url {
                try await context.ledger.recordUpload(context.runID, shard: shard.index, attempt: attempt.number, file: record.index,
                                                      url: url, length: record.file.size, at: context.clock.now)
                checkpoints[record.index] = TusUploadCheckpoint(url: url, offset: 0)
            } else if let row = stored[record.index], row.url.hasPrefix(tusURL) {
                checkpoints[record.index] = TusUploadCheckpoint(row)
            }
        }
        let outcomes = try await withThrowingTaskGroup(of: TusUploadOutcome.self) { group in
            for record in files {
                let job = TusUploadJob(file: record.file, endpoint: tusURL, assemblyURL: assemblyURL,
                                       fieldname: ResultMapper.field(forFile: record.index),
                                       filename: PathText.lastComponent(of: record.file.relativePath))
                let checkpoint = checkpoints[record.index]
                group.addTask { try await upload(job, of: record, attempt: attempt.number, resuming: checkpoint, with: tus) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let resumed = outcomes.filter { !$0.createdNew }.count
        return "\(CountText.of(outcomes.count, "file")) over tus, \(outcomes.reduce(0) { $0 + $1.bytesSent }) bytes sent, \(resumed) resumed"
    }

    /// One file's tus upload in one of the run's upload slots, each step written to the ledger before the next.
    private func upload(_ job: TusUploadJob, of record: FileRecord, attempt: Int, resuming checkpoint: TusUploadCheckpoint?,
                        with tus: TusUploader) async throws -> TusUploadOutcome {
        let (ledger, run, shard) = (context.ledger, context.runID, shard.index)
        let halfway = HalfwayTrigger(context.checkpoint, at: .midUpload)
        let sent = context.sent
        let clock = context.clock
        let length = record.file.size
        do {
            return try await context.governor.uploads.withSlot {
                try await tus.upload(job, resuming: checkpoint, onEvent: { event in
                    switch event {
                    case let .created(url, length):
                        try await ledger.recordUpload(run, shard: shard, attempt: attempt, file: record.index, url: url, length: length, at: clock.now)
                    case let .confirmed(url, offset):
                        try await ledger.recordUploadOffset(run, shard: shard, attempt: attempt, file: record.index, url: url, offset: offset, at: clock.now)
                    }
                }, onBytes: { bytes in
                    sent(bytes)
                    halfway.add(bytes, of: length)
                })
            }
        } catch let error as TransloaditError {
            throw ShardFailure(error, uploading: record.index)
        }
    }
}
