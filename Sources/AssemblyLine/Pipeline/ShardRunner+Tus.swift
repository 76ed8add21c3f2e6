extension ShardRunner {
    /// Uploads the shard's files that the created Assembly lacks over tus, each resumed from the ledger; returns what was done.
    ///
    /// An Assembly still `ASSEMBLY_UPLOADING` gets the files it lacks; one that already runs or
    /// completed got them all (a crash came after the last chunk).
    func uploadByTus(_ attempt: AttemptRecord, status: AssemblyStatus) async throws -> String {
        guard status.ok == .uploading else { return "every file was already there" }
        guard let assemblyURL = attempt.assemblyURL, let tusURL = attempt.tusURL, let tus = context.tus else {
            preconditionFailure("the state machine asks for tus uploads only with both URLs and a tus uploader")
        }
        let done = try await context.ledger.uploads(of: context.runID, shard: shard.index)
            .filter { $0.attempt == attempt.number }
        let stored = Dictionary(done.map { ($0.fileIndex, $0) }, uniquingKeysWith: { _, last in last })
        let files = try await context.ledger.files(of: context.runID, shard: shard.index, state: .pending)
            .filter { stored[$0.index]?.isComplete != true }
        let outcomes = try await withThrowingTaskGroup(of: TusUploadOutcome.self) { group in
            for record in files {
                let job = TusUploadJob(file: record.file, endpoint: tusURL, assemblyURL: assemblyURL,
                                       fieldname: ResultMapper.field(forFile: record.index),
                                       filename: PathText.lastComponent(of: record.file.relativePath))
                let checkpoint = stored[record.index].map(TusUploadCheckpoint.init)
                group.addTask { try await upload(job, of: record, attempt: attempt.number, resuming: checkpoint, with: tus) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let resumed = outcomes.filter { !$0.createdNew }.count
        return "\(outcomes.count) files over tus, \(outcomes.reduce(0) { $0 + $1.bytesSent }) bytes sent, \(resumed) resumed"
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
