import Foundation
import HTTPServer
import Synchronization
import TestSupport
import Testing

extension HTTPServerSuite {
    /// The server's own defences: malformed heads refused before any handler, bounded connections, head deadlines, a bounded log.
    @Suite struct HTTPServerHardeningTests {
        /// Counts the requests that reached the handler.
        final class HandlerCount: Sendable {
            let value = Atomic<Int>(0)
        }

        static func start(_ configuration: HTTPServerConfiguration = .init(), count: HandlerCount = HandlerCount()) throws -> HTTPServer {
            try HTTPServer(configuration: configuration) { request in
                count.value.add(1, ordering: .relaxed)
                return .respond(.text("ok \(request.path)\n"))
            }
        }

        @Test(arguments: [
            ("GET /a\u{0}/b HTTP/1.1\r\nHost: h\r\n\r\n", "the request target contains a NUL byte"),
            ("GET /a%00/b HTTP/1.1\r\nHost: h\r\n\r\n", "the request target contains a NUL byte"),
            ("GET /a\u{1}b HTTP/1.1\r\nHost: h\r\n\r\n", "the request target contains a space or a control character"),
            ("GET /a b HTTP/1.1\r\nHost: h\r\n\r\n", "the request target contains a space or a control character"),
            ("GET /a HTTP/1.1\r\nHost : h\r\n\r\n", "header field name 'Host ' is not a token (whitespace before the colon?)"),
            ("GET /a HTTP/1.1\r\nHost: h\r\nX-Tab\t: v\r\n\r\n", "header field name 'X-Tab\t' is not a token (whitespace before the colon?)"),
            ("GET /a HTTP/1.1\r\nHost: h\r\nX-Folded: one\r\n two\r\n\r\n", "a header field is continued on a second line (obs-fold is not accepted)"),
            ("GET /a HTTP/1.1\r\nHost: h\r\nX-Folded: one\r\n\ttwo\r\n\r\n", "a header field is continued on a second line (obs-fold is not accepted)"),
            ("GET /a HTTP/1.1\r\nAccept: */*\r\n\r\n", "an HTTP/1.1 request needs a Host header field"),
            ("GET /a HTTP/1.1\r\nHost: h\r\nHost: i\r\n\r\n", "header field Host appears more than once"),
            ("GET /a HTTP/1.1\r\nHost: h\r\nAuthorization: Bearer a\r\nauthorization: Bearer b\r\n\r\n", "header field Authorization appears more than once"),
            ("GET /a HTTP/1.1\r\nHost: h\r\nContent-Type: a/b\r\nContent-Type: c/d\r\n\r\n", "header field Content-Type appears more than once"),
        ])
        func malformedHeadsAreRefusedBeforeTheHandler(request: String, reason: String) throws {
            let count = HandlerCount()
            let server = try Self.start(count: count)
            let connection = try #require(RawConnection(port: server.port))
            connection.send(request)
            let (reply, _) = connection.receive()
            let text = String(decoding: reply, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 400 "))
            #expect(text.contains("Bad Request: \(reason)\n"))
            #expect(count.value.load(ordering: .relaxed) == 0)
        }

        @Test func wellFormedHeadsPass() async throws {
            let server = try Self.start()
            for request in [
                "GET /a HTTP/1.0\r\n\r\n",
                "GET /a HTTP/1.1\r\nHost: h\r\nX-Empty:\r\nX-Spaces:  \t v \r\nConnection: close\r\n\r\n",
                "GET /a?b=%00 HTTP/1.1\r\nHost: h\r\nAccept: a\r\nAccept: b\r\nConnection: close\r\n\r\n",
            ] {
                let connection = try #require(RawConnection(port: server.port))
                connection.send(request)
                let text = String(decoding: connection.receive().bytes, as: UTF8.self)
                #expect(text.hasPrefix("HTTP/1.1 200 ") || text.hasPrefix("HTTP/1.0 200 "), "\(request.debugDescription): \(text)")
            }
        }

        @Test func configuredSingletonsMayNotRepeat() async throws {
            let server = try Self.start(HTTPServerConfiguration(singletonHeaders: ["Upload-Offset"]))
            let connection = try #require(RawConnection(port: server.port))
            connection.send("PATCH /u HTTP/1.1\r\nHost: h\r\nUpload-Offset: 0\r\nUpload-Offset: 10\r\n\r\n")
            #expect(String(decoding: connection.receive().bytes, as: UTF8.self).contains("header field Upload-Offset appears more than once"))
        }

        @Test func oneAddressCannotTakeEverySlot() async throws {
            let server = try Self.start(HTTPServerConfiguration(maxConnections: 16, maxConnectionsPerAddress: 4))
            let greedy = (0..<8).compactMap { _ in RawConnection(port: server.port, source: "127.0.0.2") }
            for connection in greedy { connection.send("G") }
            let closed = greedy.filter { $0.isClosedByPeer(within: .milliseconds(300)) }.count
            #expect(closed == 4)
            let other = try #require(RawConnection(port: server.port, source: "127.0.0.1"))
            other.send("GET /x HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(String(decoding: other.receive().bytes, as: UTF8.self).hasPrefix("HTTP/1.1 200 "))
        }

        @Test func aTricklingHeadIsCutAtItsDeadline() async throws {
            let server = try Self.start(HTTPServerConfiguration(idleTimeout: .seconds(60), requestHeadTimeout: .seconds(1)))
            let slow = try #require(RawConnection(port: server.port))
            var cut = false
            for byte in "GET /slow HTTP/1.1\r\nHost: h\r\nX-Padding: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" {
                guard slow.send(String(byte)), !slow.isClosedByPeer(within: .milliseconds(100)) else {
                    cut = true
                    break
                }
            }
            #expect(cut)
            #expect(server.statistics.requestHeadsTimedOut == 1)
        }

        @Test func aKeptAliveConnectionGetsANewDeadlineForEachRequest() async throws {
            let server = try Self.start(HTTPServerConfiguration(idleTimeout: .seconds(60), requestHeadTimeout: .seconds(1)))
            let port = server.port
            // Five requests half a second apart, 2.5 s in all, on a thread of its own so that the pauses are what they say.
            let replies = try await offThePool { () -> [(String, Bool)] in
                guard let connection = RawConnection(port: port) else { return [] }
                return (0..<5).map { index in
                    connection.send("GET /\(index) HTTP/1.1\r\nHost: h\r\n\r\n")
                    let (reply, closed) = connection.receive()
                    usleep(500_000)
                    return (String(decoding: reply, as: UTF8.self), closed)
                }
            }
            #expect(replies.count == 5)
            for (index, (reply, closed)) in replies.enumerated() {
                #expect(reply.hasSuffix("ok /\(index)\n"))
                #expect(!closed)
            }
            #expect(server.statistics.requestHeadsTimedOut == 0)
        }

        @Test func refusedConnectionsAreLoggedAtABoundedRate() async throws {
            let lines = Mutex<[String]>([])
            let server = try Self.start(HTTPServerConfiguration(
                maxConnections: 2, maxConnectionsPerAddress: 2, log: { line in lines.withLock { $0.append(line) } }))
            let held = (0..<2).compactMap { _ in RawConnection(port: server.port) }
            for connection in held { connection.send("G") }
            for _ in 0..<60 {
                _ = RawConnection(port: server.port)?.isClosedByPeer(within: .milliseconds(50))
            }
            let logged = lines.withLock { $0 }
            #expect(logged.first == "Server reached connection limit. Closing inbound connection.")
            #expect(logged.count <= 5)
        }
    }
}
