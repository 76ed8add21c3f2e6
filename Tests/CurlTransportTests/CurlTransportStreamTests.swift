import AssemblyLine
import CurlTransport
import Foundation
import TestSupport
import Testing

/// A body streamed to a receiver as it arrives, and a transfer that never ends holding no other transfer back.
@Suite(.timeLimit(.minutes(3))) struct CurlTransportStreamTests {
    @Test(.timeLimit(.minutes(1)))
    func aRequestBesideALongStreamToTheSameHostIsAnsweredWhileTheStreamGoesOn() async throws {
        let server = try await TestServer.start()
        let transport = CurlTransport()
        let ended = Recorder<Int>()
        let received = Recorder<Int>()
        let receiver = HTTPStreamReceiver { received.append($0.count) }
        // 40 bytes, one every 250 ms: the stream lasts 10 s
        let stream = Task {
            let response = try await transport.send(.get(server.url("/slow-bytes?n=40&chunk=1&delay=0.25")), to: .stream(receiver))
            ended.append(response.status)
        }
        // Once the stream holds its connection, a request to the same host goes on another: HTTP/1.1 cannot share it
        for _ in 0..<500 where received.all.isEmpty {
            try await Task.sleep(for: .milliseconds(10))
        }
        let echo = try await transport.send(.get(server.url("/echo")))
        #expect(echo.status == 200)
        #expect(ended.all.isEmpty, "the request waited for the stream to end")
        stream.cancel()
        _ = await stream.result
    }

    @Test(.timeLimit(.minutes(1)))
    func aRequestBesideAStreamStillWaitingForItsHeadIsAnsweredFirst() async throws {
        // Given: a stream whose head the server sends only once the next request has come (a change stream
        // before its first event); a transport that waits to share that connection never sends the request
        let server = try await TestServer.start()
        let transport = CurlTransport()
        let chunks = Recorder<[UInt8]>()
        let stream = Task {
            try await transport.send(.get(server.url("/held-head?key=stream&seconds=20")),
                                     to: .stream(HTTPStreamReceiver { chunks.append($0) }))
        }
        // Until the server has the stream's connection, asked on a transport of its own (with its own connections)
        let probe = CurlTransport()
        while try await Self.acceptedConnections(server, through: probe) < 2 {
            try await Task.sleep(for: .milliseconds(10))
        }

        // When
        let release = try await transport.send(.get(server.url("/release?key=stream")))

        // Then: the request was answered while the stream waited, and released it
        #expect(release.status == 200)
        _ = try await stream.value
        #expect(String(decoding: chunks.all.joined(), as: UTF8.self) == "released")
    }

    @Test func aStreamedBodyGoesToTheReceiverAndNotIntoTheResponse() async throws {
        let server = try await TestServer.start()
        let chunks = Recorder<[UInt8]>()
        let response = try await CurlTransport().send(.get(server.url("/bytes?n=300000")),
                                                     to: .stream(HTTPStreamReceiver { chunks.append($0) }))
        #expect(response.status == 200)
        #expect(response.bodyBytes.isEmpty)
        #expect(chunks.all.reduce(0) { $0 + $1.count } == 300_000)
    }

    /// The TCP connections the server accepted so far, the probe's own included.
    private static func acceptedConnections(_ server: TestServer, through probe: CurlTransport) async throws -> Int {
        let response = try await probe.send(.get(server.url("/connections")))
        let json = try JSONSerialization.jsonObject(with: Data(response.bodyBytes)) as? [String: Any]
        return json?["accepted"] as? Int ?? 0
    }
}
