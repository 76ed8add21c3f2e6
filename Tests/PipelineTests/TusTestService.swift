import AssemblyLine
import ConfigFormat
import CurlTransport
import Digests
import Foundation
import HTTPMessages
import LocalTransloadit
import Synchronization
import TestSupport
import Testing

/// Every request sent through the real transport it wraps, so a test can see what went on the wire.
final class RecordingTransport: HTTPTransport {
    let inner: any HTTPTransport
    private let sent = Mutex<[HTTPRequestSpec]>([])

    init(_ inner: any HTTPTransport) {
        self.inner = inner
    }

    var requests: [HTTPRequestSpec] { sent.withLock { $0 } }

    func send(_ request: HTTPRequestSpec, to destination: HTTPDestination, options: HTTPTransferOptions,
              progress: TransferProgressHandler?) async throws(TransportError) -> HTTPResponseInfo {
        sent.withLock { $0.append(request) }
        return try await inner.send(request, to: destination, options: options, progress: progress)
    }

    func cancelAll() { inner.cancelAll() }
}

/// What an upload reported, in order, and the bytes it counted.
final class UploadLog: Sendable {
    private let state = Mutex<(events: [TusUploadEvent], bytes: Int64)>(([], 0))

    var events: [TusUploadEvent] { state.withLock { $0.events } }
    var bytes: Int64 { state.withLock { $0.bytes } }

    func record(_ event: TusUploadEvent) { state.withLock { $0.events.append(event) } }
    func count(_ bytes: Int64) { state.withLock { $0.bytes += bytes } }

    /// The offsets of the `confirmed` events.
    var confirmedOffsets: [Int64] {
        events.compactMap { if case let .confirmed(_, offset) = $0 { offset } else { nil } }
    }
}

/// The lines a service logged.
final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])

    func append(_ line: String) { lines.withLock { $0.append(line) } }

    var all: [String] { lines.withLock { $0 } }
}

/// The local Transloadit service on 127.0.0.1:0 with its own data directory, and the domain's client for it.
final class TusTestService: Sendable {
    let directory: TemporaryDirectory
    let service: RunningService
    let transport: RecordingTransport
    let client: TransloaditClient
    let log = LogLines()
    /// Retries quick enough for tests.
    static let retry = RetryPolicy(attempts: 8, baseDelay: .milliseconds(10), maxDelay: .milliseconds(80))

    init(faults: FaultPlan? = nil) throws {
        directory = try TemporaryDirectory()
        var configuration = LocalServiceConfiguration(dataDirectory: directory.file("data"), workers: 2, statusRequestsPerSecond: 0)
        configuration.faults = faults
        let log = log
        configuration.log = ServiceLog { log.append($0) }
        service = try LocalService.start(configuration)
        transport = RecordingTransport(CurlTransport())
        client = TransloaditClient(transport: transport, endpoint: service.baseURL)
    }

    deinit {
        service.stop()
    }

    func uploader(chunkSize: Int64, digester: any FileDigester = LibcryptoFileDigester(), useChecksums: Bool = true) -> TusUploader {
        TusUploader(transport: transport, digester: digester, chunkSize: chunkSize, retry: Self.retry, useChecksums: useChecksums)
    }

    /// Creates an Assembly expecting `count` tus uploads and no file parts; `steps` default to keeping `:original`.
    func assembly(expecting count: Int, steps: JSONValue = .object([":original": .object(["robot": .string("/upload/handle")])])) async throws -> AssemblyStatus {
        let auth: [String: JSONValue] = [
            "key": .string(service.key),
            "expires": .string(UTCDateTime(Date().addingTimeInterval(600)).authExpiresText),
            "nonce": .string(UUID().uuidString),
        ]
        let params = JSONValue.object(["auth": .object(auth), "steps": steps]).serialized
        return try await client.create(id: .generate(), params: params,
                                       signature: HMAC.transloaditSignature(params: params, secret: service.secret),
                                       uploads: [], expectedTusUploads: count)
    }

    /// Polls the Assembly until it no longer runs (20 s at most).
    func waitForEnd(_ assembly: AssemblyStatus) async throws -> AssemblyStatus? {
        let url = try #require(assembly.statusURL)
        let deadline = ContinuousClock.now + .seconds(20)
        while true {
            let status = try await client.status(url: url)
            if let status, !status.isRunning { return status }
            guard ContinuousClock.now < deadline else { return status }
            try await Task.sleep(for: .milliseconds(25))
        }
    }

    /// Waits for the Assembly to end and checks that it completed with the file's exact bytes as its upload.
    @discardableResult
    func expectCompleted(_ assembly: AssemblyStatus, holding file: PlannedFile,
                         sourceLocation: SourceLocation = #_sourceLocation) async throws -> AssemblyStatus {
        let done = try #require(try await waitForEnd(assembly), sourceLocation: sourceLocation)
        let md5 = try TestFiles.md5(file.path)
        #expect(done.ok == "ASSEMBLY_COMPLETED", sourceLocation: sourceLocation)
        #expect(done.uploads.first?.md5hash == md5, sourceLocation: sourceLocation)
        #expect(done.uploads.first?.size == file.size, sourceLocation: sourceLocation)
        return done
    }

    /// The job of uploading `file` into `assembly` as file number `index`.
    func job(_ file: PlannedFile, into assembly: AssemblyStatus, index: Int = 0) throws -> TusUploadJob {
        TusUploadJob(file: file, endpoint: try #require(assembly.tusURL), assemblyURL: try #require(assembly.statusURL),
                     fieldname: "file_\(index)", filename: URL(fileURLWithPath: file.path).lastPathComponent)
    }

    /// The upload's offset as the server reports it (HEAD).
    func serverOffset(_ url: String) async throws -> Int64? {
        let response = try await transport.inner.send(HTTPRequestSpec(method: .head, url: url, headers: [
            HTTPHeader(name: "Tus-Resumable", value: "1.0.0"),
        ]))
        return response.header("Upload-Offset").flatMap { Int64($0) }
    }

    /// PATCHes `length` bytes of the file from `offset` behind the uploader's back (another process's last chunk).
    func patch(_ url: String, file: PlannedFile, offset: Int64, length: Int64) async throws -> HTTPResponseInfo {
        var body = BodyPlan()
        body.appendFile(path: file.path, offset: offset, length: length)
        return try await transport.inner.send(HTTPRequestSpec(method: .patch, url: url, headers: [
            HTTPHeader(name: "Tus-Resumable", value: "1.0.0"), HTTPHeader(name: "Upload-Offset", value: String(offset)),
            HTTPHeader(name: "Content-Type", value: TusUploader.chunkContentType),
        ], body: .plan(body)))
    }

    /// A raw tus creation for `assembly` of `length` bytes; returns the upload's URL.
    func createUpload(into assembly: AssemblyStatus, length: Int64) async throws -> String {
        let metadata = TusUploadMetadata([("assembly_url", try #require(assembly.statusURL)), ("fieldname", "raw"), ("filename", "raw.bin")])
        let response = try await transport.inner.send(HTTPRequestSpec(method: .post, url: try #require(assembly.tusURL), headers: [
            HTTPHeader(name: "Tus-Resumable", value: "1.0.0"), HTTPHeader(name: "Upload-Length", value: String(length)),
            HTTPHeader(name: "Upload-Metadata", value: metadata.headerValue),
        ]))
        return try #require(response.header("Location"))
    }
}

/// Test files: written in pieces, never held whole, and described as the planner would.
enum TestFiles {
    /// Writes `size` pseudo-random bytes (fixed by `seed`) and returns the file as planned.
    static func random(_ path: String, size: Int, seed: UInt64 = 1) throws -> PlannedFile {
        guard FileManager.default.createFile(atPath: path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        var state = seed &+ 0x9E37_79B9_7F4A_7C15
        var remaining = size
        while remaining > 0 {
            let count = min(remaining, 64 << 10)
            var piece = [UInt8](repeating: 0, count: count)
            for index in 0..<count {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                piece[index] = UInt8(truncatingIfNeeded: state >> 33)
            }
            try handle.write(contentsOf: piece)
            remaining -= count
        }
        return try planned(path)
    }

    /// The file as the planner would record it: size and modification time now.
    static func planned(_ path: String) throws -> PlannedFile {
        var info = stat()
        guard stat(path, &info) == 0 else { throw CocoaError(.fileNoSuchFile) }
        return PlannedFile(path: path, relativePath: URL(fileURLWithPath: path).lastPathComponent, size: Int64(info.st_size),
                           modifiedNanoseconds: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
    }

    static func md5(_ path: String) throws -> String {
        Hex.encode(try Digest.hashFile(.md5, path: path))
    }
}
