extension ShardRunner {
    /// Uploads the files of the machine's plan over tus, each from its checkpoint; returns what was sent.
    func uploadByTus(_ uploads: [TusResumePlan.Upload], attempt: Int) async throws -> TusUploadTotals {
        guard let tus = context.tus else { preconditionFailure("the state machine asks for tus uploads only with a tus uploader") }
        let outcomes = try await withThrowingTaskGroup(of: TusUploadOutcome.self) { group in
            for upload in uploads {
                group.addTask { try await self.upload(upload, attempt: attempt, with: tus) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        return TusUploadTotals(outcomes)
    }

    /// One file's tus upload in one of the run's upload slots, each step written to the ledger before the next.
    private func upload(_ upload: TusResumePlan.Upload, attempt: Int, with tus: TusUploader) async throws -> TusUploadOutcome {
        let (ledger, run, shard, file) = (context.ledger, context.runID, shard.index, upload.fileIndex)
        let halfway = HalfwayTrigger(context.checkpoint, at: .midUpload)
        let sent = context.sent
        let clock = context.clock
        let length = upload.job.file.size
        do {
            return try await context.governor.uploads.withSlot {
                try await tus.upload(upload.job, resuming: upload.checkpoint, onEvent: { event in
                    switch event {
                    case let .created(url, length):
                        try await ledger.recordUpload(run, shard: shard, attempt: attempt, file: file, url: url, length: length, at: clock.now)
                    case let .confirmed(url, offset):
                        try await ledger.recordUploadOffset(run, shard: shard, attempt: attempt, file: file, url: url, offset: offset, at: clock.now)
                    }
                }, onBytes: { bytes in
                    sent(bytes)
                    halfway.add(bytes, of: length)
                })
            }
        } catch let error as TransloaditError {
            throw ShardFailure(error, uploading: file)
        }
    }
}
