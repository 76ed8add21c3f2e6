import Foundation
import HTTPMessages

/// The requests of the tus protocol, each with its own recovery: OPTIONS, creation, HEAD and PATCH.
extension TusUploader {
    /// What one PATCH achieved, and what the upload does next.
    enum ChunkResult: Sendable, Hashable {
        /// The server confirmed the upload up to this offset.
        case advanced(Int64)
        /// The server refused the chunk's checksum (460): send it again.
        case sendAgain
        /// The exchange failed or conflicted: ask the server's offset (HEAD) before going on.
        case resynchronize
        /// The upload is gone (404, 410): create a new one.
        case startOver
    }

    /// The largest tus answer kept: they are headers and a line of text.
    static let answerLimit = 64 << 10

    private static var resumable: HTTPHeader { HTTPHeader(name: "Tus-Resumable", value: protocolVersion) }

    /// OPTIONS at the endpoint: what the server supports; a server that does not answer it announces nothing.
    func askOptions(_ job: TusUploadJob) async throws -> TusCapabilities {
        var session = TusSession(policy: retry, clock: clock, seed: seed(of: job))
        let response = try await exchange(HTTPRequestSpec(method: .options, url: job.endpoint), "OPTIONS", job: job,
                                          session: &session)
        return response.isSuccess ? TusCapabilities(headers: response.headers) : TusCapabilities()
    }

    /// Creates an upload of the job's file (POST with `Upload-Length` and `Upload-Metadata`) and returns its URL.
    func create(_ job: TusUploadJob, session: inout TusSession) async throws -> String {
        let request = HTTPRequestSpec(method: .post, url: job.endpoint, headers: [
            Self.resumable,
            HTTPHeader(name: "Upload-Length", value: String(job.file.size)),
            HTTPHeader(name: "Upload-Metadata", value: job.metadata.headerValue),
        ])
        let response = try await exchange(request, "creation", job: job, session: &session)
        guard response.isSuccess else { throw TransloaditError.tusAnswer("creation", file: job.file.path, response: response) }
        guard let location = response.header("Location"), let url = Self.resolve(location, against: job.endpoint) else {
            throw TransloaditError.tus(.tusProtocolError, file: job.file.path,
                                       "the creation answered HTTP \(response.status) without a usable Location")
        }
        return url
    }

    /// Asks the server (HEAD) where the upload at `checkpoint.url` stands; nil when a new upload must replace it.
    func locate(_ checkpoint: TusUploadCheckpoint, job: TusUploadJob, session: inout TusSession) async throws -> TusUploadCheckpoint? {
        let request = HTTPRequestSpec(method: .head, url: checkpoint.url, headers: [Self.resumable])
        let response = try await exchange(request, "HEAD", job: job, session: &session)
        return try Self.resumePoint(after: response, from: checkpoint, file: job.file)
    }

    /// Sends `length` bytes of the file from the checkpoint's offset in one PATCH, streamed from disk.
    func sendChunk(
        at position: TusUploadCheckpoint, length: Int64, checksum: String?, job: TusUploadJob, session: inout TusSession,
        onBytes: (@Sendable (Int64) -> Void)?
    ) async throws -> ChunkResult {
        var body = BodyPlan()
        body.appendFile(path: job.file.path, offset: position.offset, length: length)
        var headers: HTTPHeaders = [
            Self.resumable,
            HTTPHeader(name: "Upload-Offset", value: String(position.offset)),
            HTTPHeader(name: "Content-Type", value: Self.chunkContentType),
        ]
        if let checksum { headers.add("Upload-Checksum", checksum) }
        let request = HTTPRequestSpec(method: .patch, url: position.url, headers: headers, body: .plan(body))
        let counter = TusByteCounter(report: onBytes)
        let response: HTTPResponseInfo
        do {
            response = try await transport.send(request, to: .memory(limit: Self.answerLimit),
                                                options: options.bounded(by: RequestDeadline.transfer(bytes: length)), progress: counter.handler)
        } catch {
            session.bytesSent += counter.counted
            try Task.checkCancellation()
            let failure = TransloaditError.tusTransport(error, file: job.file.path)
            guard failure.isRetryable else { throw failure }
            try await session.recover(from: failure, wait: true)
            return .resynchronize
        }
        counter.advance(to: response.bytesSent)
        session.bytesSent += counter.counted
        let path = job.file.path
        switch response.status {
        case 200...299:
            guard let offset = response.header("Upload-Offset").flatMap({ Int64($0) }) else {
                throw TransloaditError.tus(.tusProtocolError, file: path, "PATCH answered HTTP \(response.status) without Upload-Offset")
            }
            try Self.check(offset, from: position.offset, size: job.file.size, path: path)
            guard offset > position.offset else {
                try await session.recover(from: .tus(.tusNoProgress, file: path, "PATCH at byte \(offset) was accepted without moving the offset",
                                                     retryable: true), wait: true)
                return .resynchronize
            }
            return .advanced(offset)
        case 409:
            try await session.recover(from: .tusAnswer("PATCH", file: path, response: response), wait: false)
            return .resynchronize
        case 404, 410:
            try await session.recover(from: .tusAnswer("PATCH", file: path, response: response), wait: false)
            return .startOver
        case 460:
            try await session.recover(from: .tus(.tusChecksumMismatch, file: path,
                                                 "the chunk at byte \(position.offset) failed its checksum (HTTP 460)", retryable: true),
                                      wait: false)
            return .sendAgain
        case let status where Retryability.isRetryable(status: status, from: .tus):
            try await session.recover(from: .tusAnswer("PATCH", file: path, response: response), wait: true)
            return .resynchronize
        default:
            throw TransloaditError.tusAnswer("PATCH", file: path, response: response)
        }
    }

    /// `sha1 <base64>` of the chunk, for `Upload-Checksum`.
    func checksumHeader(_ file: PlannedFile, offset: Int64, length: Int64) throws(TransloaditError) -> String {
        do {
            return "sha1 " + Data(try digester.sha1(ofFile: file.path, offset: offset, length: length)).base64EncodedString()
        } catch {
            throw .tus(.inputUnreadable, file: file.path, "cannot read bytes \(offset) to \(offset + length) for their checksum: \(error)")
        }
    }

    /// Sends a request whose answer carries no body to stream, trying again after dropped connections and busy answers.
    ///
    /// - Returns: the first answer that is not 5xx, 408, 423 or 429.
    private func exchange(_ request: HTTPRequestSpec, _ name: String, job: TusUploadJob,
                          session: inout TusSession) async throws -> HTTPResponseInfo {
        while true {
            let response: HTTPResponseInfo
            do {
                response = try await transport.send(request, to: .memory(limit: Self.answerLimit),
                                                    options: options.bounded(by: RequestDeadline.answer), progress: nil)
            } catch {
                try Task.checkCancellation()
                let failure = TransloaditError.tusTransport(error, file: job.file.path)
                guard failure.isRetryable else { throw failure }
                try await session.recover(from: failure, wait: true)
                continue
            }
            guard Retryability.isRetryable(status: response.status, from: .tus) else { return response }
            try await session.recover(from: .tusAnswer(name, file: job.file.path, response: response), wait: true)
        }
    }

    // MARK: - Decisions

    /// Where a HEAD answer says the upload stands: nil when it is gone (404, 410) or holds another length than the file.
    ///
    /// - Throws: `TUS_OFFSET_BACKWARDS` for an offset behind the checkpoint's, `TUS_OFFSET_BEYOND_SIZE`
    ///   past the file's size, `TUS_PROTOCOL_ERROR` without `Upload-Offset`, `HTTP_<status>` for other refusals.
    static func resumePoint(after head: HTTPResponseInfo, from checkpoint: TusUploadCheckpoint,
                            file: PlannedFile) throws(TransloaditError) -> TusUploadCheckpoint? {
        if head.status == 404 || head.status == 410 { return nil }
        guard head.isSuccess else { throw .tusAnswer("HEAD", file: file.path, response: head) }
        guard head.header("Upload-Length").flatMap({ Int64($0) }) == file.size else { return nil }
        guard let offset = head.header("Upload-Offset").flatMap({ Int64($0) }) else {
            throw .tus(.tusProtocolError, file: file.path, "HEAD answered HTTP \(head.status) without Upload-Offset")
        }
        try check(offset, from: checkpoint.offset, size: file.size, path: file.path)
        return TusUploadCheckpoint(url: checkpoint.url, offset: offset)
    }

    /// Refuses a server offset behind what it confirmed before, or past the file's size.
    static func check(_ offset: Int64, from confirmed: Int64, size: Int64, path: String) throws(TransloaditError) {
        guard offset >= confirmed else {
            throw .tus(.tusOffsetBackwards, file: path, "the server's offset \(offset) is behind the confirmed \(confirmed)")
        }
        guard offset <= size else {
            throw .tus(.tusOffsetBeyondSize, file: path, "the server's offset \(offset) is past the file's \(size) bytes")
        }
    }

    /// An absolute URL for a `Location` header, which tus allows to be relative to the endpoint.
    static func resolve(_ location: String, against endpoint: String) -> String? {
        let trimmed = location.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, let base = URL(string: endpoint), let url = URL(string: trimmed, relativeTo: base) else { return nil }
        return url.absoluteURL.absoluteString
    }
}
