import AssemblyLine
import CurlTransport
import Digests
import Foundation
import HTTPMessages
import Synchronization
import TestSupport
import Testing

/// Successful exchanges against the loopback test server: bodies, headers, files, statuses, reuse.
@Suite(.timeLimit(.minutes(3))) struct CurlTransportExchangeTests {
    let server: TestServer
    let transport = CurlTransport()

    init() async throws {
        server = try await TestServer.start()
    }

    /// The JSON object of a response body.
    func object(_ response: HTTPResponseInfo) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(response.bodyBytes)) as? [String: Any])
    }

    @Test func jsonRequestAndResponse() async throws {
        // Given a JSON body
        let body = Array(#"{"params":"{\"auth\":{\"key\":\"k\"}}"}"#.utf8)
        // When it is posted
        let response = try await transport.send(.json(.post, server.url("/echo"), body: body))
        // Then the server saw exactly those bytes, our headers, and no 100-continue dance
        let echo = try object(response)
        #expect(response.status == 200)
        #expect(response.header("content-type") == "application/json")
        #expect(response.httpVersion == "1.1")
        #expect(response.bytesSent == Int64(body.count))
        #expect(echo["method"] as? String == "POST")
        #expect(echo["body"] as? String == String(decoding: body, as: UTF8.self))
        let headers = try #require(echo["headers"] as? [String: String])
        #expect(headers["content-type"] == "application/json")
        #expect(headers["transloadit-client"] == "assemblyline:\(ClientIdentity.version)")
        #expect(headers["content-length"] == "\(body.count)")
        #expect(headers["expect"] == nil)
    }

    @Test func formBodyAndCustomMethod() async throws {
        let request = HTTPRequestSpec.form(.patch, server.url("/echo"), fields: [("a", "1 2"), ("b", "é")])
        let echo = try object(try await transport.send(request))
        #expect(echo["method"] as? String == "PATCH")
        #expect(echo["body"] as? String == "a=1+2&b=%C3%A9")
    }

    @Test func bodylessRequestsSendNoContentType() async throws {
        let delete = try object(try await transport.send(HTTPRequestSpec(method: .delete, url: server.url("/echo"))))
        #expect(delete["method"] as? String == "DELETE")
        #expect((delete["headers"] as? [String: String])?["content-type"] == nil)
        let head = try await transport.send(HTTPRequestSpec(method: .head, url: server.url("/echo")))
        #expect(head.status == 200 && head.bodyBytes.isEmpty)
    }

    @Test func multipartUploadFromFilesIsByteExact() async throws {
        // Given a form with fields and three files, one larger than any transport buffer
        let scratch = try TemporaryDirectory()
        var form = MultipartFormBody()
        form.append(name: "params", value: #"{"auth":{"key":"k"},"steps":{}}"#)
        form.append(name: "signature", value: "sha384:" + String(repeating: "ab", count: 48))
        for (index, size) in [0, 1, 3_000_001].enumerated() {
            let path = try scratch.write("file \(index).jpg", Pattern.prefix(size))
            form.appendFile(name: "file_\(index)", path: path)
        }
        let request = try HTTPRequestSpec.multipart(.post, server.url("/echo"), form: form)
        guard case let .plan(plan) = request.body else { Issue.record("multipart body is not a plan"); return }

        // When it is sent
        let echo = try object(try await transport.send(request))

        // Then the server hashed exactly the planned bytes, announced with an exact Content-Length
        let expected = Digest(.sha256)
        let reader = BodyPlanReader(plan: plan)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
        defer { buffer.deallocate() }
        while case let count = try reader.read(into: buffer), count > 0 {
            expected.update(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
        #expect(echo["sha256"] as? String == Hex.encode(expected.finalize()))
        #expect(echo["length"] as? Int == Int(plan.contentLength))
        let headers = try #require(echo["headers"] as? [String: String])
        #expect(headers["content-type"] == form.contentType)
    }

    @Test func downloadStreamsToAFile() async throws {
        let scratch = try TemporaryDirectory()
        let path = scratch.path + "/download.bin"
        let length: Int64 = 5_000_000
        let response = try await transport.send(.get(server.url("/bytes?n=\(length)")), to: .file(path: path))
        #expect(response.body == .file(path: path, length: length))
        #expect(response.bytesReceived == length)
        #expect(try Pattern.fileMatches(path, length: length))
    }

    @Test func aFileHoldsOnlyTheLastResponsesBodyAfterARedirect() async throws {
        let scratch = try TemporaryDirectory()
        let path = scratch.path + "/download.bin"
        #expect(FileManager.default.createFile(atPath: path, contents: Data("left over from before".utf8)))
        let response = try await transport.send(.get(server.url("/redirect?to=%2Fbytes%3Fn%3D10")), to: .file(path: path),
                                                options: HTTPTransferOptions(followRedirects: true))
        #expect(response.status == 200 && response.body == .file(path: path, length: 10))
        #expect(try Pattern.fileMatches(path, length: 10))
        let plain = try await transport.send(.get(server.url("/redirect?to=/echo")), to: .file(path: path))
        #expect(plain.status == 302 && plain.body == .file(path: path, length: 5))
        #expect(FileManager.default.contents(atPath: path).map(Array.init) == Array("moved".utf8))
    }

    @Test func aFileBodyStopsAtItsBoundWhateverTheServerKeepsSending() async throws {
        let scratch = try TemporaryDirectory()
        let path = scratch.path + "/endless.bin"
        await #expect(throws: TransportError.tooLarge(endpoint: "http://127.0.0.1:\(server.port)", limit: 1_000_000)) {
            try await transport.send(.get(server.url("/endless")), to: .file(path: path, limit: 1_000_000))
        }
        let written = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(written <= 1_000_000, "no byte past the bound reaches the disk")
        await #expect(throws: TransportError.tooLarge(endpoint: "http://127.0.0.1:\(server.port)", limit: 1000)) {
            try await transport.send(.get(server.url("/bytes?n=1001")), to: .file(path: path, limit: 1000))
        }
        let exact = try await transport.send(.get(server.url("/bytes?n=1000")), to: .file(path: path, limit: 1000))
        #expect(exact.body == .file(path: path, length: 1000))
    }

    @Test func aFileBodyStopsWhereItsFileSystemWouldKeepLessFreeThanAsked() async throws {
        let scratch = try TemporaryDirectory()
        let path = scratch.path + "/endless.bin"
        let free = try #require(FreeSpace.available(at: scratch.path))
        let floor = free - (8 << 20)
        let stopped = await #expect(throws: TransportError.self) {
            try await transport.send(.get(server.url("/endless")), to: .file(path: path, keepFree: floor))
        }
        #expect(Self.floor(of: stopped, at: path) == floor, "\(String(describing: stopped))")
        let written = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(written < 64 << 20, "\(written) bytes written with 8 MiB of room")

        let refused = await #expect(throws: TransportError.self) {
            try await transport.send(.get(server.url("/bytes?n=10")), to: .file(path: path, keepFree: free + (1 << 40)))
        }
        #expect(Self.floor(of: refused, at: path) == free + (1 << 40), "\(String(describing: refused))")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int == 0, "no byte past the floor reaches the disk")
    }

    /// The floor an `insufficientSpace` error of `path` names; nil for any other error.
    static func floor(of error: TransportError?, at path: String) -> Int64? {
        guard case let .insufficientSpace(failed, _, floor)? = error, failed == path else { return nil }
        return floor
    }

    @Test func anErrorBodyIsBoundedLikeAnAPIAnswerNotByTheFilesBound() async throws {
        let scratch = try TemporaryDirectory()
        let path = scratch.path + "/error.bin"
        let small = try await transport.send(.get(server.url("/status?code=404&size=5000")), to: .file(path: path, limit: 10))
        #expect(small.status == 404 && small.bytesReceived == 5000, "a short bound on the result does not hide the service's 404")
        await #expect(throws: TransportError.tooLarge(endpoint: "http://127.0.0.1:\(server.port)", limit: HTTPDestination.defaultMemoryLimit)) {
            try await transport.send(.get(server.url("/status?code=404&size=\(HTTPDestination.defaultMemoryLimit + 1)")),
                                     to: .file(path: path, limit: 1 << 40))
        }
    }

    @Test func memoryBodyOverItsBoundIsTooLarge() async throws {
        await #expect(throws: TransportError.tooLarge(endpoint: "http://127.0.0.1:\(server.port)", limit: 1000)) {
            try await transport.send(.get(server.url("/bytes?n=100000")), to: .memory(limit: 1000))
        }
        let exact = try await transport.send(.get(server.url("/bytes?n=1000")), to: .memory(limit: 1000))
        #expect(exact.bodyBytes == Pattern.prefix(1000))
    }

    @Test(arguments: [404, 429, 503])
    func errorStatusesCarryStatusAndBoundedBody(code: Int) async throws {
        let response = try await transport.send(.get(server.url("/status?code=\(code)&size=10000")))
        #expect(response.status == code)
        let error = #expect(throws: TransportError.self) { try response.requireSuccess(bodyLimit: 100) }
        #expect(error == .httpStatus(endpoint: "http://127.0.0.1:\(server.port)", code: code,
                                     body: String(repeating: "x", count: 100)))
        #expect(error?.isRetryable == (code != 404))
    }

    @Test func redirectsAreNotFollowedUnlessAsked() async throws {
        let url = server.url("/redirect?to=/echo")
        let plain = try await transport.send(.get(url))
        #expect(plain.status == 302)
        #expect(plain.header("Location") == "/echo")
        #expect(plain.bodyBytes == Array("moved".utf8))

        let followed = try await transport.send(.get(url), options: HTTPTransferOptions(followRedirects: true))
        #expect(followed.status == 200)
        #expect(followed.url == server.url("/echo"))
        #expect(try object(followed)["path"] as? String == "/echo")
    }

    @Test func atMostTheAskedRedirectsAreFollowed() async throws {
        /// A path that redirects `hops` times before it reaches `/echo`.
        func chain(_ hops: Int) -> String {
            (0..<hops).reduce("/echo") { target, _ in "/redirect?to=" + (target.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "") }
        }
        let options = HTTPTransferOptions(followRedirects: true, maxRedirects: 5)
        let five = try await transport.send(.get(server.url(chain(5))), options: options)
        #expect(five.status == 200 && five.url == server.url("/echo"))
        let six = await #expect(throws: TransportError.self) { try await transport.send(.get(server.url(chain(6))), options: options) }
        #expect(six?.isRetryable == false)
    }

    @Test func followedRedirectResendsAStreamedBody() async throws {
        // Given a body with a file segment posted to a 307 redirect, which keeps method and body
        let scratch = try TemporaryDirectory()
        let content = Pattern.prefix(300_000)
        let path = try scratch.write("body.bin", content)
        let plan = BodyPlan([.bytes(Array("start".utf8)), .file(path: path, offset: 0, length: 300_000)])
        let request = HTTPRequestSpec(method: .post, url: server.url("/redirect?to=/echo&code=307"), body: .plan(plan))
        // When the redirect is followed, libcurl rewinds the body through the seek callback
        let response = try await transport.send(request, options: HTTPTransferOptions(followRedirects: true))
        // Then the final server saw the whole body again
        let echo = try object(response)
        #expect(echo["path"] as? String == "/echo")
        #expect(echo["length"] as? Int == 300_005)
        #expect(echo["sha256"] as? String == Hex.encode(Digest.sha256(Array("start".utf8) + content)))
    }

    @Test func hostConnectionLimitQueuesTransfersOnOneConnection() async throws {
        let transport = CurlTransport(configuration: .init(maxHostConnections: 1))
        let url = server.url("/sleep?seconds=0.05")
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<5 {
                group.addTask { try await transport.send(.get(url)).status }
            }
            for try await status in group {
                #expect(status == 200)
            }
        }
        let counted = try object(try await transport.send(.get(server.url("/connections"))))
        #expect(counted["accepted"] as? Int == 1)
    }

    @Test func sequentialRequestsReuseOneConnection() async throws {
        for _ in 0..<10 {
            let response = try await transport.send(.get(server.url("/echo")))
            #expect(response.status == 200)
        }
        let counted = try object(try await transport.send(.get(server.url("/connections"))))
        #expect(counted["accepted"] as? Int == 1)
    }

    @Test func concurrentRequestsAllComplete() async throws {
        let transport = transport
        let server = server
        let lengths = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<24 {
                group.addTask {
                    let body = Array(repeating: UInt8(index), count: index * 1000)
                    let request = HTTPRequestSpec(method: .post, url: server.url("/echo"), body: .bytes(body))
                    let response = try await transport.send(request)
                    let echo = try JSONSerialization.jsonObject(with: Data(response.bodyBytes)) as? [String: Any]
                    return echo?["length"] as? Int ?? -1
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(lengths.sorted() == (0..<24).map { $0 * 1000 })
    }

    @Test func progressReportsBytesBothWays() async throws {
        let seen = Mutex<[TransferProgress]>([])
        let body = Pattern.prefix(2_000_000)
        let request = HTTPRequestSpec(method: .post, url: server.url("/echo"), body: .bytes(body))
        let response = try await transport.send(request, to: .memory, options: HTTPTransferOptions()) { progress in
            seen.withLock { $0.append(progress) }
        }
        let reports = seen.withLock { $0 }
        let last = try #require(reports.last)
        #expect(last.bytesSent == Int64(body.count))
        #expect(last.bytesToSend == Int64(body.count))
        #expect(last.bytesReceived == response.bytesReceived)
        #expect(zip(reports, reports.dropFirst()).allSatisfy { $0.bytesSent <= $1.bytesSent })
    }
}
