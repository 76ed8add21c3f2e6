@testable import AssemblyLine
import ConfigFormat
import Foundation
import HTTPMessages
import HTTPServer
import Testing

/// `BackendSigner` over `CurlTransport` against backends that answer wrongly on purpose: each answer is refused with its typed error.
@Suite(.timeLimit(.minutes(3))) struct BackendSignerHostileTests {
    /// A misbehaving answer and the error the signer must give.
    static let cases: [(name: String, answer: @Sendable (String) -> HTTPResponse, expected: SigningError)] = [
        ("params changed by one byte", { params in
            HostileBackend.answer(params: params.replacingOccurrences(of: "tpl-ok", with: "tpl-ol"), signature: HostileBackend.signature(params))
        }, .tampered(firstDifference: offset(of: "tpl-ok", in: TestParams.fixedTemplate) + 5)),
        ("params re-serialized with escaped slashes", { params in
            HostileBackend.answer(params: params.replacingOccurrences(of: "/", with: "\\/"), signature: HostileBackend.signature(params))
        }, .tampered(firstDifference: offset(of: "/", in: TestParams.fixedTemplate))),
        ("params answered empty", { _ in HostileBackend.answer(params: "", signature: HostileBackend.signature("")) }, .tampered(firstDifference: 0)),
        ("uppercase hex", { params in
            HostileBackend.answer(params: params, signature: "sha384:" + HostileBackend.signature(params).dropFirst(7).uppercased())
        }, .badSignature("its hex digits are uppercase")),
        ("short signature", { params in
            HostileBackend.answer(params: params, signature: String(HostileBackend.signature(params).dropLast()))
        }, .badSignature("it has 95 hex digits, not 96")),
        ("long signature", { params in
            HostileBackend.answer(params: params, signature: HostileBackend.signature(params) + "00")
        }, .badSignature("it has 98 hex digits, not 96")),
        ("no prefix", { params in
            HostileBackend.answer(params: params, signature: String(HostileBackend.signature(params).dropFirst(7)))
        }, .badSignature("it has no sha384: prefix")),
        ("another algorithm", { params in
            HostileBackend.answer(params: params, signature: "sha1:" + HostileBackend.signature(params).dropFirst(7))
        }, .badSignature("it names another algorithm than sha384")),
        ("a character that is not hex", { params in
            HostileBackend.answer(params: params, signature: String(HostileBackend.signature(params).dropLast()) + "g")
        }, .badSignature("it has a character that is not a hex digit")),
        ("answer not JSON", { _ in .text("signed!") },
         .malformed("expected a JSON object, found a body that is not JSON (JSON at byte 0: expected a value)")),
        ("answer without signature", { params in .json(JSONValue.object(["params": .string(params)]).serialized) },
         .malformed("expected signature to be a string")),
        ("answer a list", { _ in .json("[]") }, .malformed("expected a JSON object with params and signature")),
        ("500", { _ in .json(#"{"error":"INTERNAL","message":"database down"}"#, status: 500) },
         .httpStatus(code: 500, reason: "database down")),
        ("403 with a reason", { _ in .json(#"{"error":"TEMPLATE_NOT_ALLOWED","reason":"template_id \"x\" is not allowed"}"#, status: 403) },
         .denied(reason: #"template_id "x" is not allowed"#)),
        ("401 as text", { _ in .text("go away\n", status: 401) }, .unauthorized(reason: "go away")),
        ("403 echoing the token", { _ in
            .json(JSONValue.object(["reason": .string("token \(SignServerFixture.token) is not allowed")]).serialized, status: 403)
        }, .denied(reason: "token [token] is not allowed")),
        ("401 echoing the token where the reason is cut", { _ in
            .text(String(repeating: "x", count: 190) + SignServerFixture.token + String(repeating: "y", count: 50), status: 401)
        }, .unauthorized(reason: String(repeating: "x", count: 190) + "[token]" + String(repeating: "y", count: 3) + "…")),
        ("a reason forging a line and clearing the screen", { _ in
            .json(JSONValue.object(["reason": .string("no\nshard 0: downloaded\u{1B}[2J")]).serialized, status: 403)
        }, .denied(reason: "no\\nshard 0: downloaded\\u{1B}[2J")),
        ("a 20 KB reason", { _ in .text(String(repeating: "z", count: 20_000), status: 403) },
         .denied(reason: String(repeating: "z", count: 200) + "…")),
        ("429 with Retry-After", { _ in
            var response = HTTPResponse.json(#"{"error":"RATE_LIMITED"}"#, status: 429)
            response.headers.set("Retry-After", "7")
            return response
        }, .rateLimited(retryAfter: .seconds(7))),
        ("an answer over the bound", { params in
            HostileBackend.answer(params: params + String(repeating: " ", count: 70_000), signature: HostileBackend.signature(params))
        }, .tooLarge(limit: 64 << 10)),
        ("204 without a body", { _ in .empty(status: 204) },
         .malformed("expected a JSON object, found a body that is not JSON (JSON at byte 0: expected a value, found the end of the text)")),
    ]

    @Test(arguments: cases)
    func refusesAWrongAnswer(name: String, answer: @escaping @Sendable (String) -> HTTPResponse, expected: SigningError) async throws {
        let backend = try HostileBackend(answer)
        let signer = try BackendSigner(url: backend.url, token: SignServerFixture.token, timeout: .seconds(5), transport: SignServerFixture.transport)
        #expect(await signingError(signer, TestParams.fixedTemplate) == expected, "\(name)")
    }

    /// The UTF-8 offset of the first `needle` in `text`.
    static func offset(of needle: String, in text: String) -> Int {
        text.utf8.count - text[text.range(of: needle)!.lowerBound...].utf8.count
    }

    @Test func neverFollowsARedirect() async throws {
        // Given a well-behaved backend, and a second one that redirects to it
        let good = try HostileBackend { params in HostileBackend.answer(params: params, signature: HostileBackend.signature(params)) }
        let goodURL = good.url
        let redirecting = try HostileBackend { _ in
            var response = HTTPResponse.empty(status: 307)
            response.headers.set("Location", goodURL)
            return response
        }
        // When a signer asks the redirecting one
        let signer = try BackendSigner(url: redirecting.url, token: SignServerFixture.token, timeout: .seconds(5), transport: SignServerFixture.transport)
        let error = await signingError(signer, TestParams.template())
        // Then it refuses, and the target never saw a request
        #expect(error == .redirected(status: 307, location: TransportEndpoint(url: goodURL).description))
        #expect(good.server.statistics.requestsStarted == 0)
    }

    @Test func givesUpOnASlowAnswer() async throws {
        let backend = try HostileBackend { params in
            HostileBackend.answer(params: params, signature: HostileBackend.signature(params)).delayed(by: .seconds(20))
        }
        let signer = try BackendSigner(url: backend.url, token: SignServerFixture.token, timeout: .milliseconds(300), transport: SignServerFixture.transport)
        // The answer would come after 20 s and sign correctly: only the 300 ms timeout can make this a timeout.
        let error = await signingError(signer, TestParams.template())
        #expect(error == .timeout(endpoint: TransportEndpoint(url: backend.url).description, after: .milliseconds(300)))
        #expect(error?.isRetryable == true)
    }

    @Test func reportsADroppedConnectionAndAClosedPortAsUnreachable() async throws {
        let dropping = try HostileBackend { _ in .dropConnection() }
        let signer = try BackendSigner(url: dropping.url, token: SignServerFixture.token, timeout: .seconds(5), transport: SignServerFixture.transport)
        guard case .unreachable? = await signingError(signer, TestParams.template()) else {
            Issue.record("expected unreachable for a dropped connection")
            return
        }
        let closedURL = dropping.url
        dropping.server.stop()
        let closed = try BackendSigner(url: closedURL, token: SignServerFixture.token, timeout: .seconds(5), transport: SignServerFixture.transport)
        guard case let .unreachable(transportError)? = await signingError(closed, TestParams.template()) else {
            Issue.record("expected unreachable for a closed port")
            return
        }
        #expect(transportError.isRetryable)
    }

    @Test(arguments: ["http://signer.example.com/sign", "http://10.0.0.1:9443/sign", "ftp://127.0.0.1/sign", "signer.example.com/sign"])
    func refusesAnInsecureURLBeforeSendingAnything(url: String) async {
        #expect(throws: SigningError.insecureURL(endpoint: TransportEndpoint(url: url).description)) {
            try BackendSigner(url: url, token: SignServerFixture.token, timeout: .seconds(1), transport: SignServerFixture.transport)
        }
    }

    @Test func refusesATokenThatCannotBeAHeader() async {
        #expect(throws: SigningError.invalidToken(reason: "it contains a space or a control character")) {
            try BackendSigner(url: "https://signer.example.com/sign", token: "abc\r\nX-Evil: 1", timeout: .seconds(1), transport: SignServerFixture.transport)
        }
        #expect(throws: SigningError.invalidToken(reason: "it is empty")) {
            try BackendSigner(url: "https://signer.example.com/sign", token: "", timeout: .seconds(1), transport: SignServerFixture.transport)
        }
    }

    @Test func neverShowsTheToken() async throws {
        let signer = try BackendSigner(url: "https://signer.example.com/sign?k=1", token: SignServerFixture.token, timeout: .seconds(1), transport: SignServerFixture.transport)
        #expect(signer.description == "backend signer at https://signer.example.com:443")
        var dumped = ""
        dump(signer, to: &dumped)
        #expect(!dumped.contains(SignServerFixture.token))
        #expect(!String(reflecting: signer).contains(SignServerFixture.token))
    }
}
