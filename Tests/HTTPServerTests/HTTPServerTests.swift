import Foundation
import HTTPMessages
import HTTPServer
import TestSupport
import Testing

/// What a test sink saw of one upload.
struct SinkReport: Sendable {
    var bytes = 0
    var chunks = 0
    var largestChunk = 0
    var finished = false
    var aborted: HTTPAbortReason?
}

/// Writes an upload to a file as it arrives; deletes it when the upload is aborted.
final class FileSink: HTTPBodySink {
    private let path: String
    private let descriptor: Int32
    private let report: Observed<SinkReport>
    private let refuseAfter: Int?

    init(path: String, report: Observed<SinkReport>, refuseAfter: Int? = nil) {
        self.path = path
        self.report = report
        self.refuseAfter = refuseAfter
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    }

    func receive(_ chunk: UnsafeRawBufferPointer) throws(HTTPRejection) {
        var written = 0
        while written < chunk.count {
            let result = write(descriptor, chunk.baseAddress! + written, chunk.count - written)
            guard result > 0 else { throw HTTPRejection(.text("write failed\n", status: 500)) }
            written += result
        }
        report.update {
            $0.bytes += chunk.count
            $0.chunks += 1
            $0.largestChunk = max($0.largestChunk, chunk.count)
        }
        if let refuseAfter, report.current.bytes >= refuseAfter {
            throw HTTPRejection(.text("refused after \(refuseAfter) bytes\n", status: 400))
        }
    }

    func finish() -> HTTPResponse {
        close(descriptor)
        report.update { $0.finished = true }
        return .text("stored \(report.current.bytes)")
    }

    func abort(_ reason: HTTPAbortReason) {
        close(descriptor)
        unlink(path)
        report.update { $0.aborted = reason }
    }
}

extension HTTPServerStatistics {
    /// Requests started and not yet ended.
    var requestsInFlight: Int { requestsStarted - requestsCompleted - requestsFailed }
}

extension HTTPServerSuite {
    @Suite struct HTTPServerTests {
        /// A router with the routes most tests use.
        static func router(directory: TemporaryDirectory, report: Observed<SinkReport>) -> HTTPRouter {
            var router = HTTPRouter()
            router.add(.get, "/hello/:name") { request, parameters in
                let query = request.query.map(\.description).joined(separator: "&")
                var response = HTTPResponse.text("hello \(parameters["name"] ?? "?") [\(query)] \(request.headers["x-custom"] ?? "-")")
                response.headers.add("X-Reply", "yes")
                return .respond(response)
            }
            router.add(.post, "/echo") { _, _ in
                .buffer(limit: 1000) { request, body in
                    .text("\(request.method) \(body.count) \(String(decoding: body, as: UTF8.self))")
                }
            }
            router.add(.post, "/upload") { _, _ in
                .stream(FileSink(path: directory.file("received.bin"), report: report))
            }
            router.add(.post, "/picky") { _, _ in
                .stream(FileSink(path: directory.file("picky.bin"), report: report, refuseAfter: 1))
            }
            router.add(.get, "/files/*") { _, parameters in
                do {
                    let file = try HTTPFile(path: directory.file(parameters["*"] ?? ""))
                    return .respond(.file(file, contentType: "application/x-test"))
                } catch {
                    return .respond(.text("\(error)\n", status: 404))
                }
            }
            router.add(.get, "/connection") { request, _ in
                .respond(.text("connection \(request.connectionID) from \(request.remoteAddress)\n"))
            }
            return router
        }

        let directory: TemporaryDirectory
        let report = Observed(SinkReport())
        let server: HTTPServer

        init() throws {
            directory = try TemporaryDirectory()
            server = try HTTPServer(configuration: .init(), handler: Self.router(directory: directory, report: report))
        }

        @Test func routesByMethodAndPath() async throws {
            let hello = try await curl(["-H", "X-CUSTOM: abc", "\(server.baseURL)/hello/w%C3%B6rld?a=1&b=x+y"])
            #expect(hello.status == 0)
            #expect(hello.output == "hello wörld [a=1&b=x y] abc")
            let wrongMethod = try await curl(["-X", "DELETE", "-w", "%{http_code}", "-o", "/dev/null", "\(server.baseURL)/hello/x"])
            #expect(wrongMethod.output == "404")
            let unknown = try await curl(["-w", " %{http_code}", "\(server.baseURL)/nowhere"])
            #expect(unknown.output == "Not Found\n 404")
        }

        @Test func sendsResponseHeaders() async throws {
            let result = try await curl(["-D", "-", "-o", "/dev/null", "\(server.baseURL)/hello/x"])
            let lines = result.output.split(separator: "\r\n").map(String.init)
            #expect(lines.first == "HTTP/1.1 200 OK")
            #expect(lines.contains("X-Reply: yes"))
            #expect(lines.contains("Content-Type: text/plain; charset=utf-8"))
            #expect(lines.contains { $0.hasPrefix("Content-Length: ") })
        }

        @Test func answersHeadWithHeadersOnly() async throws {
            let result = try await curl(["-I", "\(server.baseURL)/hello/x"])
            #expect(result.output.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(result.output.contains("Content-Length: 12\r\n"))  // "hello x [] -", not sent
            #expect(result.output.hasSuffix("\r\n\r\n"))
        }

        @Test func buffersASmallBody() async throws {
            let result = try await curl(["--data-binary", #"{"a":1}"#, "\(server.baseURL)/echo"])
            #expect(result.output == #"POST 7 {"a":1}"#)
            let empty = try await curl(["-X", "POST", "\(server.baseURL)/echo"])
            #expect(empty.output == "POST 0 ")
        }

        @Test func refusesABufferedBodyOverItsBound() async throws {
            let body = directory.file("body.txt")
            try String(repeating: "x", count: 5000).write(toFile: body, atomically: true, encoding: .utf8)
            let declared = try await curl(["-w", " %{http_code}", "--data-binary", "@\(body)", "\(server.baseURL)/echo"])
            #expect(declared.output == "Content Too Large\n 413")
            let chunked = try await curl([
                "-w", " %{http_code}", "-H", "Transfer-Encoding: chunked", "--data-binary", "@\(body)", "\(server.baseURL)/echo",
            ])
            #expect(chunked.output == "Content Too Large\n 413")
        }

        @Test func streamsA64MiBUploadToASinkChunkByChunk() async throws {
            let source = directory.file("source.bin")
            try writeRandomFile(source, size: 64 << 20, seed: 64)
            let result = try await curl(["-T", source, "-X", "POST", "\(server.baseURL)/upload"])
            #expect(result.status == 0, "\(result.errors)")
            #expect(result.output == "stored \(64 << 20)")
            let seen = report.current
            #expect(seen.finished && seen.aborted == nil)
            #expect(seen.chunks > 64)
            #expect(seen.largestChunk <= 256 * 1024)
            let sent = try checksum(ofFile: source)
            let received = try checksum(ofFile: directory.file("received.bin"))
            #expect(sent.size == 64 << 20)
            #expect(received.size == sent.size && received.hash == sent.hash)
        }

        @Test func sinkRejectionIsAnsweredAfterTheBody() async throws {
            let body = directory.file("body.bin")
            try writeRandomFile(body, size: 300_000, seed: 3)
            let result = try await curl(["-w", " %{http_code}", "--data-binary", "@\(body)", "\(server.baseURL)/picky"])
            #expect(result.output == "refused after 1 bytes\n 400")
            let seen = report.current
            #expect(!seen.finished && seen.aborted == nil)
        }

        @Test func servesAFileFromDisk() async throws {
            let source = directory.file("served.bin")
            try writeRandomFile(source, size: 5 << 20, seed: 5)
            let target = directory.file("downloaded.bin")
            let result = try await curl(["-w", "%{http_code} %{content_type}", "-o", target, "\(server.baseURL)/files/served.bin"])
            #expect(result.output == "200 application/x-test")
            #expect(try checksum(ofFile: target) == (try checksum(ofFile: source)))
            let missing = try await curl(["-w", " %{http_code}", "\(server.baseURL)/files/missing.bin"])
            #expect(missing.output.hasSuffix("No such file or directory\n 404"))
        }

        @Test func servesAByteRangeOfAFile() async throws {
            let path = directory.file("letters.txt")
            try "abcdefghijklmnopqrstuvwxyz".write(toFile: path, atomically: true, encoding: .utf8)
            let ranged = try HTTPServer(configuration: .init()) { _ in
                do {
                    return .respond(.file(try HTTPFile(path: path, offset: 3, length: 5)))
                } catch {
                    return .respond(.text("\(error)", status: 500))
                }
            }
            #expect(try await curl([ranged.baseURL]).output == "defgh")
            #expect(throws: HTTPServerError.rangeOutsideFile(path: path, offset: 20, length: 10, fileSize: 26)) {
                _ = try HTTPFile(path: path, offset: 20, length: 10)
            }
            #expect(throws: HTTPServerError.fileUnreadable(path: directory.path, errno: EISDIR)) {
                _ = try HTTPFile(path: directory.path)
            }
        }

        @Test func countsConnectionsAndSeesReuse() async throws {
            let url = "\(server.baseURL)/connection"
            let twoInOne = try await curl([url, url])
            let lines = twoInOne.output.split(separator: "\n")
            #expect(lines.count == 2)
            #expect(lines.first == lines.last)
            #expect(lines.first == "connection 1 from 127.0.0.1")
            #expect(server.statistics.connectionsOpened == 1)
            let another = try await curl([url])
            #expect(another.output == "connection 2 from 127.0.0.1\n")
            #expect(server.statistics.connectionsOpened == 2)
            #expect(await eventually { server.statistics.requestsCompleted == 3 && server.statistics.requestsInFlight == 0 })
        }
    }
}
