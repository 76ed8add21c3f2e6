/// Uploads files into Assemblies over tus 1.0.0 with the creation extension, resumable from a checkpoint the caller keeps.
///
/// It speaks plain tus (https://tus.io/protocols/resumable-upload) to any conforming server: OPTIONS
/// once per endpoint, creation with `Upload-Length` and `Upload-Metadata`, PATCH chunks of
/// `chunkSize` bytes streamed from the file with `Upload-Offset`, and `Upload-Checksum: sha1 ...`
/// only when the server announces the checksum extension with SHA-1. The caller persists each
/// event (`created`, then `confirmed` after every chunk) before the next step, so that a process
/// killed at any point resumes from the ledger:
///
/// ```swift
/// let outcome = try await uploader.upload(job, resuming: stored.map(TusUploadCheckpoint.init)) { event in
///     switch event {
///     case let .created(url, length): try await ledger.recordUpload(run, shard: s, attempt: a, file: f, url: url, length: length, at: clock.now)
///     case let .confirmed(url, offset): try await ledger.recordUploadOffset(run, shard: s, attempt: a, file: f, url: url, offset: offset, at: clock.now)
///     }
/// }
/// ```
///
/// Resuming asks the server (HEAD) and continues from its offset; an upload that is gone (404,
/// 410) or of another length is replaced by a new one; an offset behind the checkpoint or past
/// the file's size is an error. A 409 on PATCH resynchronizes with HEAD; 423, 429, 5xx and
/// dropped connections back off (`retry`) and resynchronize; a 460 checksum mismatch sends the
/// chunk again. Before each chunk the file is checked against the plan, so that a file changed
/// since then fails rather than uploading a mix.
package struct TusUploader: Sendable {
    /// The protocol version sent in `Tus-Resumable`.
    package static let protocolVersion = "1.0.0"
    /// The `Content-Type` of a PATCH body.
    package static let chunkContentType = "application/offset+octet-stream"

    package let transport: any HTTPTransport
    /// Computes the SHA-1 of each chunk for `Upload-Checksum`.
    package let digester: any FileDigester
    /// The most bytes one PATCH carries; the memory a transfer needs does not grow with it.
    package let chunkSize: Int64
    /// The backoff between tries, and how many tries in a row may fail before the upload gives up.
    package let retry: RetryPolicy
    /// False never sends checksums, even to a server that takes them (saves reading each chunk twice).
    package let useChecksums: Bool
    package let options: HTTPTransferOptions
    /// Waits between retries.
    package let clock: any PipelineClock
    /// Fixes the retries' jitter (each file adds the hash of its field name), so that the same faults give the same waits.
    package let seed: UInt64
    private let servers = TusCapabilityCache()

    package init(transport: any HTTPTransport, digester: any FileDigester, chunkSize: Int64 = ManifestDefaults.chunkSize,
                retry: RetryPolicy, useChecksums: Bool = true, options: HTTPTransferOptions = HTTPTransferOptions(),
                clock: any PipelineClock = SystemClock(), seed: UInt64 = 0) {
        precondition(chunkSize > 0, "a tus chunk holds at least one byte")
        self.transport = transport
        self.digester = digester
        self.chunkSize = chunkSize
        self.retry = retry
        self.useChecksums = useChecksums
        self.options = options
        self.clock = clock
        self.seed = seed
    }

    /// The jitter seed of one file's upload.
    func seed(of job: TusUploadJob) -> UInt64 {
        seed &+ FNVHash.of(job.fieldname)
    }

    /// Uploads the job's file, continuing from `checkpoint` when the server still holds that upload.
    ///
    /// - Parameters:
    ///   - checkpoint: the upload URL and offset an earlier try recorded, or nil to create a new upload.
    ///   - onEvent: called after the creation and after every confirmed offset, before the next request;
    ///     what it throws stops the upload and is thrown unchanged.
    ///   - onBytes: called with each increment of body bytes sent, on the transport's thread; must not block.
    /// - Returns: where the upload is and what it took; the server then holds every byte.
    /// - Throws: `TransloaditError` naming the file (`INPUT_CHANGED`, `INPUT_MISSING`, `TUS_*`, `HTTP_*`,
    ///   `TRANSPORT_*`; `isRetryable` says whether a later try can help), `CancellationError`, or what
    ///   `onEvent` threw.
    package func upload(
        _ job: TusUploadJob, resuming checkpoint: TusUploadCheckpoint? = nil,
        onEvent: @Sendable (TusUploadEvent) async throws -> Void,
        onBytes: (@Sendable (Int64) -> Void)? = nil
    ) async throws -> TusUploadOutcome {
        let file = job.file
        try file.checkUnchanged()
        let server = try await capabilities(for: job)
        try Self.check(server, accepts: file)
        let checksums = useChecksums && server.acceptsSHA1Checksums
        var session = TusSession(policy: retry, clock: clock, seed: seed(of: job))
        var position: TusUploadCheckpoint?
        var createdNew = false
        if let checkpoint {
            position = try await locate(checkpoint, job: job, session: &session)
            if let position, position.offset > checkpoint.offset {
                try await onEvent(.confirmed(url: position.url, offset: position.offset))
            }
        }
        var resumedAt = position?.offset ?? 0
        var prefetched = PrefetchedChecksum?.none
        while true {
            let current: TusUploadCheckpoint
            if let position {
                current = position
            } else {
                current = TusUploadCheckpoint(url: try await create(job, session: &session), offset: 0)
                (createdNew, resumedAt) = (true, 0)
                try await onEvent(.created(url: current.url, length: file.size))
            }
            position = current
            guard current.offset < file.size else {
                try file.checkUnchanged()
                return TusUploadOutcome(url: current.url, length: file.size, resumedAt: resumedAt, createdNew: createdNew,
                                        bytesSent: session.bytesSent, retries: session.retries)
            }
            try Task.checkCancellation()
            try file.checkUnchanged()
            let length = min(chunkSize, file.size - current.offset)
            var checksum: String?
            if checksums {
                checksum = try await prefetched?.value(offset: current.offset, length: length)
                    ?? checksumHeader(file, offset: current.offset, length: length)
                let next = current.offset + length
                if prefetched?.offset != next {
                    prefetched = next < file.size ? prefetch(file, offset: next, length: min(chunkSize, file.size - next)) : nil
                }
            }
            switch try await sendChunk(at: current, length: length, checksum: checksum, job: job, session: &session,
                                       onBytes: onBytes) {
            case .advanced(let offset):
                session.progressed()
                position = TusUploadCheckpoint(url: current.url, offset: offset)
                try await onEvent(.confirmed(url: current.url, offset: offset))
            case .sendAgain:
                break
            case .resynchronize:
                position = try await locate(current, job: job, session: &session)
                if let position, position.offset > current.offset {
                    session.progressed()
                    try await onEvent(.confirmed(url: position.url, offset: position.offset))
                }
            case .startOver:
                position = nil
            }
        }
    }

    /// The checksum of the chunk after the one being sent, computed while that one is on the wire.
    struct PrefetchedChecksum {
        let offset: Int64
        let length: Int64
        let task: Task<String, any Error>

        /// The checksum when it is the one of this chunk; nil for another chunk (the upload moved elsewhere).
        func value(offset: Int64, length: Int64) async throws -> String? {
            guard offset == self.offset, length == self.length else { return nil }
            return try await task.value
        }
    }

    private func prefetch(_ file: PlannedFile, offset: Int64, length: Int64) -> PrefetchedChecksum {
        PrefetchedChecksum(offset: offset, length: length, task: Task { try checksumHeader(file, offset: offset, length: length) })
    }

    /// What the server announced at the job's endpoint, asked once per endpoint.
    func capabilities(for job: TusUploadJob) async throws -> TusCapabilities {
        try await servers.capabilities(of: job.endpoint) { [self] in
            try await askOptions(job)
        }
    }

    /// Refuses a server that does not speak tus 1.0.0, and a file over its size limit.
    static func check(_ server: TusCapabilities, accepts file: PlannedFile) throws(TransloaditError) {
        guard server.speaksVersion1 else {
            throw .tus(.tusUnsupported, file: file.path,
                       "the server speaks tus \(server.versions.joined(separator: ", ")), expected \(protocolVersion)")
        }
        if let maxSize = server.maxSize, file.size > maxSize {
            throw .tus(.tusTooLarge, file: file.path, "\(file.size) bytes, over the server's Tus-Max-Size of \(maxSize)")
        }
    }
}
