@testable import AssemblyLine
import Foundation
import HTTPMessages
import Synchronization
import TestSupport
import Testing

/// The tus client's pure parts: the metadata it sends, what it reads from OPTIONS and HEAD, and how it counts bytes.
@Suite struct TusDecisionTests {
    static let file = PlannedFile(path: "/in/clip.mov", relativePath: "clip.mov", size: 1_000, modifiedNanoseconds: 0)
    static let checkpoint = TusUploadCheckpoint(url: "https://tus.example/files/abc", offset: 400)

    static func head(_ status: Int, _ headers: [String: String] = [:]) -> HTTPResponseInfo {
        HTTPResponseInfo(status: status, headers: HTTPHeaders(headers.sorted { $0.key < $1.key }.map { HTTPHeader(name: $0.key, value: $0.value) }),
                         body: .bytes([]), url: checkpoint.url, bytesSent: 0, bytesReceived: 0, httpVersion: "1.1")
    }

    @Test func metadataKeepsItsKeyOrderWithBase64Values() {
        let job = TusUploadJob(file: Self.file, endpoint: "https://tus.example/files/", assemblyURL: "https://api/assemblies/x1",
                               fieldname: "file_3", filename: "café.mov")
        #expect(job.metadata.headerValue == "assembly_url aHR0cHM6Ly9hcGkvYXNzZW1ibGllcy94MQ==,fieldname ZmlsZV8z,filename Y2Fmw6kubW92,"
            + "filetype dmlkZW8vcXVpY2t0aW1l")
        #expect(TusUploadMetadata([("b", ""), ("a", "1")]).headerValue == "b ,a MQ==")
    }

    @Test func optionsAnswersAreRead() {
        let full = TusCapabilities(headers: [
            HTTPHeader(name: "Tus-Version", value: "1.0.0, 0.2.2"), HTTPHeader(name: "tus-extension", value: "creation, Checksum,termination"),
            HTTPHeader(name: "Tus-Checksum-Algorithm", value: "md5,sha1"), HTTPHeader(name: "Tus-Max-Size", value: " 2000 "),
        ])
        #expect(full.acceptsSHA1Checksums && full.speaksVersion1 && full.maxSize == 2_000)
        #expect(full.extensions == ["creation", "checksum", "termination"])
        let md5Only = TusCapabilities(headers: [HTTPHeader(name: "Tus-Extension", value: "creation,checksum"),
                                                HTTPHeader(name: "Tus-Checksum-Algorithm", value: "md5")])
        #expect(!md5Only.acceptsSHA1Checksums)
        #expect(!TusCapabilities(headers: []).acceptsSHA1Checksums && TusCapabilities(headers: []).speaksVersion1)
        #expect(!TusCapabilities(headers: [HTTPHeader(name: "Tus-Version", value: "0.2.2")]).speaksVersion1)
    }

    @Test func serversThatCannotTakeTheFileAreRefused() {
        #expect(throws: TransloaditError(code: "TUS_TOO_LARGE", message: "/in/clip.mov: 1000 bytes, over the server's Tus-Max-Size of 999",
                                         isRetryable: false)) {
            try TusUploader.check(TusCapabilities(maxSize: 999), accepts: Self.file)
        }
        #expect(throws: TransloaditError(code: "TUS_UNSUPPORTED", message: "/in/clip.mov: the server speaks tus 0.2.2, expected 1.0.0",
                                         isRetryable: false)) {
            try TusUploader.check(TusCapabilities(versions: ["0.2.2"]), accepts: Self.file)
        }
        #expect(throws: Never.self) { try TusUploader.check(TusCapabilities(maxSize: 1_000), accepts: Self.file) }
    }

    @Test(arguments: [
        (head(404), nil), (head(410), nil),
        (head(200, ["Upload-Offset": "0", "Upload-Length": "999"]), nil),
        (head(200, ["Upload-Offset": "500"]), nil),
        (head(200, ["Upload-Offset": "400", "Upload-Length": "1000"]), 400),
        (head(204, ["Upload-Offset": "1000", "Upload-Length": "1000"]), 1_000),
    ] as [(HTTPResponseInfo, Int64?)])
    func headAnswersSayWhereToContinue(head: HTTPResponseInfo, offset: Int64?) throws {
        let point = try TusUploader.resumePoint(after: head, from: Self.checkpoint, file: Self.file)
        #expect(point?.offset == offset)
        #expect(point == nil || point?.url == Self.checkpoint.url)
    }

    @Test(arguments: [
        (head(200, ["Upload-Offset": "399", "Upload-Length": "1000"]), "TUS_OFFSET_BACKWARDS",
         "/in/clip.mov: the server's offset 399 is behind the confirmed 400"),
        (head(200, ["Upload-Offset": "1001", "Upload-Length": "1000"]), "TUS_OFFSET_BEYOND_SIZE",
         "/in/clip.mov: the server's offset 1001 is past the file's 1000 bytes"),
        (head(200, ["Upload-Length": "1000"]), "TUS_PROTOCOL_ERROR", "/in/clip.mov: HEAD answered HTTP 200 without Upload-Offset"),
        (head(403), "HTTP_403", "/in/clip.mov: tus HEAD answered HTTP 403"),
    ] as [(HTTPResponseInfo, FailureCode, String)])
    func headAnswersThatCannotBeTrustedAreErrors(head: HTTPResponseInfo, code: FailureCode, message: String) {
        let error = #expect(throws: TransloaditError.self) {
            try TusUploader.resumePoint(after: head, from: Self.checkpoint, file: Self.file)
        }
        #expect(error?.code == code && error?.message == message && error?.isRetryable == false)
    }

    @Test(arguments: [
        ("https://tus.example/files/abc", "https://tus.example/files/abc"),
        ("/other/abc", "https://tus.example/other/abc"),
        ("abc", "https://tus.example/files/abc"),
        (" ", nil),
    ] as [(String, String?)])
    func locationsResolveAgainstTheEndpoint(location: String, url: String?) {
        #expect(TusUploader.resolve(location, against: "https://tus.example/files/") == url)
    }

    @Test func byteCountsGrowByWhatIsNewAndCountResentBytesAgain() {
        let seen = TestCounter()
        let counter = TusByteCounter { seen.add($0) }
        for total: Int64 in [0, 100, 100, 250, 50, 120] {
            counter.advance(to: total)
        }
        #expect(counter.counted == 320 && seen.total == 320)
    }

    @Test func aFileThatChangedOrWentIsRefused() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("a.bin")
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: path))
        var info = stat()
        #expect(stat(path, &info) == 0)
        let planned = PlannedFile(path: path, relativePath: "a.bin", size: 3,
                                  modifiedNanoseconds: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
        #expect(throws: Never.self) { try planned.checkUnchanged() }
        var bigger = planned
        bigger.size = 4
        #expect(throws: TransloaditError(code: "INPUT_CHANGED", message: "\(path) changed since the plan (size or modification time)",
                                         isRetryable: false)) { try bigger.checkUnchanged() }
        try FileManager.default.removeItem(atPath: path)
        #expect(throws: TransloaditError(code: "INPUT_MISSING", message: "\(path) is gone since the plan", isRetryable: false)) {
            try planned.checkUnchanged()
        }
    }
}

/// A running total that a `@Sendable` closure can add to.
private final class TestCounter: Sendable {
    private let value = Mutex<Int64>(0)

    func add(_ bytes: Int64) { value.withLock { $0 += bytes } }

    var total: Int64 { value.withLock { $0 } }
}
