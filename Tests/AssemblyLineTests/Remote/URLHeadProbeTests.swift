import AssemblyLine
import HTTPMessages
import TestSupport
import Testing

/// The HEAD probe's answers are untrusted: what a lying or broken server sends fails the probe, never the caller.
@Suite struct URLHeadProbeTests {
    static let url = "https://cdn.example.com/media/a.jpg"

    static func probe(_ answer: ScriptedTransport.Answer) async -> (Result<URLIdentity, URLHeadProbe.Failure>, ScriptedTransport) {
        let transport = ScriptedTransport()
        transport.script(.head, "/media/") { _ in answer }
        let probe = URLHeadProbe(rule: InputURLRule(endpoint: "https://api2.transloadit.com"), transport: transport)
        do throws(URLHeadProbe.Failure) {
            return (.success(try await probe.identity(of: url)), transport)
        } catch {
            return (.failure(error), transport)
        }
    }

    @Test func anAnswerGivesTheIdentityItsHeadersName() async throws {
        let (result, transport) = await Self.probe(.response(status: 200, headers: [
            HTTPHeader(name: "ETag", value: "W/\"5-abc\""), HTTPHeader(name: "Content-Length", value: "5"),
            HTTPHeader(name: "Last-Modified", value: "Thu, 03 Dec 2026 23:00:00 GMT"),
        ], body: []))
        #expect(try result.get() == URLIdentity(etag: "W/\"5-abc\"", size: 5,
                                                lastModified: UTCDateTime(year: 2026, month: 12, day: 3, hour: 23, minute: 0, second: 0)))
        #expect(transport.requests.map(\.method) == [.head])
        #expect(transport.requests.first?.url == Self.url)
    }

    @Test(arguments: [
        (ScriptedTransport.Answer.response(status: 200, headers: [:], body: []), URLHeadProbe.Failure.noIdentity),
        (.response(status: 200, headers: ["Content-Length": "abc"], body: []), .identity(.size("abc"))),
        (.response(status: 200, headers: ["Content-Length": "-1"], body: []), .identity(.size("-1"))),
        (.response(status: 200, headers: [HTTPHeader(name: "Content-Length", value: "10"), HTTPHeader(name: "Content-Length", value: "20")], body: []),
         .identity(.size("10, 20"))),
        (.response(status: 200, headers: ["Content-Length": "99999999999999999999999"], body: []), .identity(.size("99999999999999999999999"))),
        (.response(status: 200, headers: ["ETag": "\"a\u{1B}[2Jb\""], body: []), .identity(.etag)),
        (.response(status: 200, headers: ["ETag": "\"a\"", "Last-Modified": "yesterday"], body: []), .identity(.lastModified("yesterday"))),
        (.response(status: 200, headers: ["Content-Length": "4"], body: Array("body".utf8)), .bodyInAnswer),
        (.response(status: 404, headers: ["Content-Length": "4"], body: []), .status(404)),
        (.response(status: 403, headers: [:], body: []), .status(403)),
        (.response(status: 302, headers: ["Location": "http://169.254.169.254/"], body: []), .status(302)),
        (.failure(.refusedAddress(endpoint: "https://cdn.example.com:443", address: "10.0.0.1, a private address (RFC 1918)")),
         .transport(.refusedAddress(endpoint: "https://cdn.example.com:443", address: "10.0.0.1, a private address (RFC 1918)"))),
    ] as [(ScriptedTransport.Answer, URLHeadProbe.Failure)])
    func aHostileAnswerFailsTheProbe(answer: ScriptedTransport.Answer, failure: URLHeadProbe.Failure) async throws {
        let (result, _) = await Self.probe(answer)
        #expect(throws: failure) { try result.get() }
    }

    @Test func aRefusedURLIsNeverAsked() async throws {
        let transport = ScriptedTransport()
        let probe = URLHeadProbe(rule: InputURLRule(endpoint: "https://api2.transloadit.com"), transport: transport)
        await #expect(throws: URLHeadProbe.Failure.refused(.address("169.254.169.254, a cloud metadata address"))) {
            try await probe.identity(of: "https://169.254.169.254/latest/meta-data")
        }
        #expect(transport.requests.isEmpty)
    }

    @Test func serverTroubleMayPassAndARefusalMayNot() {
        #expect(URLHeadProbe.Failure.status(503).isRetryable)
        #expect(URLHeadProbe.Failure.transport(.timeout(endpoint: "https://a:443", reason: "slow")).isRetryable)
        #expect(!URLHeadProbe.Failure.status(404).isRetryable)
        #expect(!URLHeadProbe.Failure.noIdentity.isRetryable)
    }
}
