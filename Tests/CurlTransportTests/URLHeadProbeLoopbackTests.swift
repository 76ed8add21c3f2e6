import AssemblyLine
import CurlTransport
import Foundation
import Testing

/// One HEAD request for a URL's identity, over libcurl against a real HTTP server on loopback.
@Suite(.timeLimit(.minutes(3))) struct URLHeadProbeLoopbackTests {
    let server: TestServer
    let probe = URLHeadProbe(rule: InputURLRule(endpoint: "http://127.0.0.1:9000"), transport: CurlTransport())

    init() async throws {
        server = try await TestServer.start()
    }

    static let modified = "Sun, 06 Nov 1994 08:49:37 GMT"

    static func encoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    }

    @Test func theAnswersHeadersAreTheIdentity() async throws {
        let url = server.url("/object?size=1234&etag=\(Self.encoded("\"abc\""))&modified=\(Self.encoded(Self.modified))")
        let identity = try await probe.identity(of: url)
        #expect(identity == URLIdentity(etag: "\"abc\"", size: 1234, lastModified: UTCDateTime(httpDate: Self.modified)))
    }

    @Test func aRedirectIsFollowedUnderTheRule() async throws {
        let identity = try await probe.identity(of: server.url("/redirect?to=\(Self.encoded("/object?size=5"))"))
        #expect(identity == URLIdentity(size: 5))
        await #expect(throws: URLHeadProbe.Failure.transport(.refusedAddress(endpoint: "http://127.0.0.1:\(server.port)",
                                                                             address: "169.254.169.254, a cloud metadata address"))) {
            try await probe.identity(of: server.url("/redirect?to=\(Self.encoded("http://169.254.169.254/latest/meta-data"))"))
        }
    }

    @Test func aMissingObjectIsItsStatus() async throws {
        await #expect(throws: URLHeadProbe.Failure.status(404)) {
            try await probe.identity(of: server.url("/status?code=404&body=gone"))
        }
    }
}
