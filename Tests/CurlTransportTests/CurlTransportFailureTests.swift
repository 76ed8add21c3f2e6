import AssemblyLine
import CurlTransport
import Foundation
import HTTPMessages
import TestSupport
import Testing

/// Each failure mode maps to its typed error, and timeouts and cancellation act promptly.
@Suite(.timeLimit(.minutes(3))) struct CurlTransportFailureTests {
    let server: TestServer
    let transport = CurlTransport()

    init() async throws {
        server = try await TestServer.start()
    }

    var endpoint: String { "http://127.0.0.1:\(server.port)" }

    /// Runs `body`, expecting it to throw, and returns the error and how long it took.
    func failure(_ body: () async throws(TransportError) -> HTTPResponseInfo) async -> (TransportError?, Duration) {
        let clock = ContinuousClock()
        let start = clock.now
        do {
            _ = try await body()
            return (nil, clock.now - start)
        } catch {
            return (error, clock.now - start)
        }
    }

    @Test func closedPortIsConnect() async throws {
        // Port 1 on loopback: nothing listens there, so the connection is refused.
        let (error, _) = await failure { () throws(TransportError) in try await transport.send(.get("http://127.0.0.1:1/x")) }
        guard case let .connect(endpoint, reason)? = error else { Issue.record("expected .connect, got \(String(describing: error))"); return }
        #expect(endpoint == "http://127.0.0.1:1")
        #expect(!reason.isEmpty)
    }

    @Test func totalTimeoutFires() async throws {
        let options = HTTPTransferOptions(totalTimeout: .milliseconds(300))
        let (error, elapsed) = await failure { () throws(TransportError) in
            try await transport.send(.get(server.url("/sleep?seconds=60")), options: options)
        }
        guard case .timeout(endpoint, _)? = error else { Issue.record("expected .timeout, got \(String(describing: error))"); return }
        // Far below the server's minute, with room for a busy test machine to resume the test.
        #expect(elapsed < .seconds(30), "the server answers only after 60 s")
    }

    @Test func aStatusTricklingAtTwoBytesASecondEndsAtThePollsTimeLeft() async throws {
        // 2 bytes a second passes libcurl's low-speed limit (1 byte a second for 60 s) for ever; the deadline does not.
        let client = TransloaditClient(transport: transport, endpoint: endpoint)
        let clock = ContinuousClock()
        let start = clock.now
        let error = await #expect(throws: TransloaditError.self) {
            _ = try await client.status(url: server.url("/slow-bytes?n=100000&chunk=2&delay=1"), within: .seconds(1))
        }
        #expect(clock.now - start < .seconds(30), "the answer would take 14 hours")
        #expect(error?.code == .transportTimeout && error?.isRetryable == true)
        #expect(RequestDeadline.transfer(bytes: 3_010) == .seconds(60) && RequestDeadline.transfer(bytes: 1 << 30) == .seconds(60 + 65_536))
    }

    @Test func totalTimeoutFiresWhileTheBodyKeepsComing() async throws {
        let options = HTTPTransferOptions(totalTimeout: .seconds(1))
        let (error, elapsed) = await failure { () throws(TransportError) in
            try await transport.send(.get(server.url("/chatter")), options: options)
        }
        guard case .timeout(endpoint, _)? = error else { Issue.record("expected .timeout, got \(String(describing: error))"); return }
        #expect(elapsed < .seconds(10), "a body that never ends, one byte a chunk")
    }

    @Test func lowSpeedLimitFires() async throws {
        // 10 bytes every half second is far below 1,000 bytes per second for a whole second.
        let options = HTTPTransferOptions(lowSpeed: .init(bytesPerSecond: 1000, duration: .seconds(1)))
        let (error, elapsed) = await failure { () throws(TransportError) in
            try await transport.send(.get(server.url("/slow-bytes?n=100000&chunk=10&delay=0.5")), options: options)
        }
        guard case .timeout(endpoint, _)? = error else { Issue.record("expected .timeout, got \(String(describing: error))"); return }
        #expect(elapsed < .seconds(30), "the whole body would take over an hour")
    }

    @Test func cancellingTheTaskStopsTheTransferAtOnce() async throws {
        let transport = transport
        let url = server.url("/slow-bytes?n=1000000&chunk=100&delay=0.2")
        let task = Task { () async throws(TransportError) -> HTTPResponseInfo in
            try await transport.send(.get(url))
        }
        try await Task.sleep(for: .milliseconds(300))
        let clock = ContinuousClock()
        let cancelledAt = clock.now
        task.cancel()
        let result = await task.result
        // Bounded well above a loaded machine's wait for a pool thread (3.3 s was seen under load), far below the transfer's.
        #expect(clock.now - cancelledAt < .seconds(10), "the transfer had half an hour to go")
        #expect(throws: TransportError.cancelled(endpoint: endpoint)) { try result.get() }
    }

    @Test func alreadyCancelledTaskSendsNothing() async throws {
        let transport = transport
        let url = server.url("/echo")
        let task = Task { () async throws(TransportError) -> HTTPResponseInfo in
            withUnsafeCurrentTask { $0?.cancel() }
            return try await transport.send(.get(url))
        }
        await #expect(throws: TransportError.cancelled(endpoint: endpoint)) { try await task.result.get() }
    }

    @Test func cancelAllStopsEveryTransferAndLaterOnesRun() async throws {
        let transport = transport
        let url = server.url("/sleep?seconds=60")
        let tasks = (0..<3).map { _ in
            Task { () async throws(TransportError) -> HTTPResponseInfo in try await transport.send(.get(url)) }
        }
        try await Task.sleep(for: .milliseconds(300))
        let clock = ContinuousClock()
        let start = clock.now
        transport.cancelAll()
        for task in tasks {
            await #expect(throws: TransportError.cancelled(endpoint: endpoint)) { try await task.result.get() }
        }
        // Bounded well above a loaded machine's wait for a pool thread (3.2 s was seen under load), far below the requests'.
        #expect(clock.now - start < .seconds(10), "the requests had a minute to go")
        #expect(try await transport.send(.get(server.url("/echo"))).status == 200)
    }

    @Test func droppedConnectionIsReset() async throws {
        let (error, _) = await failure { () throws(TransportError) in try await transport.send(.get(server.url("/drop"))) }
        guard case .reset(endpoint, _)? = error else { Issue.record("expected .reset, got \(String(describing: error))"); return }
    }

    @Test func bodyFileGoneAtSendTimeIsFileIO() async throws {
        let scratch = try TemporaryDirectory()
        let path = try scratch.write("input.jpg", Pattern.prefix(1000))
        var form = MultipartFormBody()
        form.appendFile(name: "file", path: path)
        let request = try HTTPRequestSpec.multipart(.post, server.url("/echo"), form: form)
        try FileManager.default.removeItem(atPath: path)
        let (error, _) = await failure { () throws(TransportError) in try await transport.send(request) }
        #expect(error == .fileIO(path: path, reason: "open: No such file or directory"))
    }

    @Test(arguments: [("http://169.254.169.254/latest/meta-data/", "169.254.169.254, a cloud metadata address"),
                      ("http://[fe80::1]/x", "fe80::1, a link-local address"),
                      ("http://[::ffff:169.254.1.1]/x", "::ffff:169.254.1.1, a link-local address"),
                      ("http://100.100.100.200/x", "100.100.100.200, a cloud metadata address"),
                      ("http://10.0.0.1/x", "10.0.0.1, a private address (RFC 1918)"),
                      ("http://0.0.0.0:1/x", "0.0.0.0, an unspecified address")])
    func aPublicOnlyTransferGetsNoConnectionToAnAddressThatIsNot(target: String, refusal: String) async throws {
        var options = HTTPTransferOptions(connectTimeout: .seconds(3), followRedirects: true)
        options.peers = .publicOnly
        let (direct, _) = await failure { () throws(TransportError) in try await transport.send(.get(target), options: options) }
        #expect(direct == TransportError.refusedAddress(endpoint: TransportEndpoint(url: target).description, address: refusal))
        for loopback in [server.url("/bytes?n=10"), "http://localhost:\(server.port)/bytes?n=10"] {
            let (refused, _) = await failure { () throws(TransportError) in try await transport.send(.get(loopback), options: options) }
            let endpoint = TransportEndpoint(url: loopback).description
            #expect([TransportError.refusedAddress(endpoint: endpoint, address: "127.0.0.1, a loopback address"),
                     .refusedAddress(endpoint: endpoint, address: "::1, a loopback address")].contains(refused),
                    "this machine is no public address, by its number or by its name: \(String(describing: refused))")
        }
    }

    @Test(arguments: ["http://169.254.169.254/latest/meta-data/", "http://127.0.0.1:1/x", "http://[::1]:1/x"])
    func aLoopbackOriginTransferStaysOnItsPortThroughRedirects(target: String) async throws {
        var options = HTTPTransferOptions(connectTimeout: .seconds(3), followRedirects: true)
        options.peers = .loopback(port: server.port)
        let loopback = try await transport.send(.get(server.url("/bytes?n=10")), options: options)
        #expect(loopback.status == 200 && loopback.bodyBytes == Pattern.prefix(10), "the origin itself is reached")
        let redirect = server.url("/redirect?to=\(target.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)")
        let (redirected, _) = await failure { () throws(TransportError) in try await transport.send(.get(redirect), options: options) }
        let peer = TransportEndpoint(url: target)
        let address = PeerAddress(peer.host)!
        #expect(redirected == TransportError.refusedAddress(
            endpoint: endpoint, address: "port \(peer.port!) of \(address), not the loopback endpoint's own origin (its port \(server.port))"))
    }

    /// A connection another transfer left open is reused without a socket callback: the check before each request holds it.
    @Test func aReusedConnectionIsCheckedLikeANewOne() async throws {
        _ = try await transport.send(.get(server.url("/bytes?n=10")))
        var options = HTTPTransferOptions()
        options.peers = .loopback(port: 1)
        let (refused, _) = await failure { () throws(TransportError) in try await transport.send(.get(server.url("/bytes?n=10")), options: options) }
        #expect(refused == TransportError.refusedAddress(endpoint: endpoint,
                                                         address: "port \(server.port) of 127.0.0.1, not the loopback endpoint's own origin (its port 1)"))
    }

    @Test func unwritableDestinationIsFileIO() async throws {
        let path = "/nonexistent-dir/out.bin"
        let (error, _) = await failure { () throws(TransportError) in
            try await transport.send(.get(server.url("/bytes?n=10")), to: .file(path: path))
        }
        #expect(error == .fileIO(path: path, reason: "create: No such file or directory"))
    }

    @Test(arguments: ["ftp://127.0.0.1/x", "http://", "not a url"])
    func unusableURLsAreInvalidRequests(url: String) async throws {
        let (error, _) = await failure { () throws(TransportError) in try await transport.send(.get(url)) }
        guard case .invalidRequest? = error else { Issue.record("expected .invalidRequest, got \(String(describing: error))"); return }
    }

    @Test func getWithABodyIsRefused() async throws {
        let request = HTTPRequestSpec(method: .get, url: server.url("/echo"), body: .bytes([1]))
        let (error, _) = await failure { () throws(TransportError) in try await transport.send(request) }
        guard case .invalidRequest? = error else { Issue.record("expected .invalidRequest, got \(String(describing: error))"); return }
    }
}
