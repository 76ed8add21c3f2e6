@testable import AssemblyLine
import ConfigFormat
import Digests
import Foundation
import HTTPMessages
import SignServer
import TestSupport
import Testing

/// The real sign-server on loopback, driven by `BackendSigner` over `CurlTransport`.
@Suite(.timeLimit(.minutes(3))) struct SignServerPolicyTests {
    @Test func signsAllowedParamsWithASignatureThatVerifies() async throws {
        // Given a service and params for the allowed Template, and then for the allowed steps
        let fixture = try SignServerFixture()
        let signer = try fixture.signer()
        for params in [TestParams.template(fields: ["album": .string("summer-26")]), TestParams.resize()] {
            // When the signer asks for a signature
            let signed = try await signer.signed(params)
            // Then it comes back in the exact form and verifies with the secret over the exact bytes
            #expect(signed.params == params)
            #expect(SignerAnswer.problem(with: signed.signature) == nil)
            #expect(HMAC.verifyTransloaditSignature(signed.signature, params: params, secret: SignServerFixture.secret))
            #expect(signed.signature == HMAC.transloaditSignature(params: params, secret: SignServerFixture.secret))
        }
    }

    @Test func signsTheOriginalBytesNeverReserialized() async throws {
        // Given params with an escape and spaces that a re-serialization would remove
        let fixture = try SignServerFixture()
        let canonical = TestParams.template(fields: ["album": .string("ete")])
        let odd = canonical.replacingOccurrences(of: #""album":"ete""#, with: #"  "album" : "\u0065te""#)
            .replacingOccurrences(of: "{\"auth\"", with: "{ \"auth\"")
        #expect(odd != canonical)
        // When it is signed
        let signature = try await fixture.signer().sign(odd)
        // Then the signature covers exactly the bytes sent
        #expect(HMAC.verifyTransloaditSignature(signature, params: odd, secret: SignServerFixture.secret))
        #expect(!HMAC.verifyTransloaditSignature(signature, params: canonical, secret: SignServerFixture.secret))
    }

    /// Policy refusals: each case's params and the refusal the service must give.
    static func refusalCases() -> [(String, String, PolicyRefusal)] {
        let template = TestParams.template()
        let tooLong = TestParams.template(expiresIn: .seconds(3700))
        let past = TestParams.auth(template, "expires", .string(UTCDateTime(Date().addingTimeInterval(-60)).authExpiresText))
        var wide = SignServerFixture.resize
        wide.width = 201
        var extra = SignServerFixture.resize.steps.objectValue!
        extra["export"] = .object(["robot": .string("/s3/store"), "use": .string("resize")])
        return [
            ("other Template", TestParams.template("tpl-evil"), .templateNotAllowed("tpl-evil")),
            ("changed width", TestParams.resize(wide), .stepsNotAllowed("resize.width is 201, allowed 200")),
            ("extra step", TestParams.edited(TestParams.resize()) { $0["steps"] = .object(extra) },
             .stepsNotAllowed(#"step "export" is not in the allowed set"#)),
            ("expiry too long", tooLong, .expiresTooLate(TestParams.expires(tooLong), maximum: .seconds(3600))),
            ("expiry in the past", past, .expired(TestParams.expires(past))),
            ("unknown field", TestParams.template(fields: ["path": .string("x")]), .fieldNotAllowed("path")),
            ("field off its pattern", TestParams.template(fields: ["album": .string("../etc")]), .fieldValueNotAllowed("album")),
            ("unknown key", TestParams.edited(template) { $0["allow_steps_override"] = .bool(true) }, .unknownKey("allow_steps_override", in: .params(.assembly))),
            ("unknown auth key", TestParams.auth(template, "max_size", .integer(1)), .unknownKey("max_size", in: .auth)),
            ("missing nonce", TestParams.auth(template, "nonce", nil), .missingNonce),
            ("other Auth Key", TestParams.auth(template, "key", .string("key-2")), .wrongAuthKey("key-2")),
            ("other notify URL", TestParams.edited(template) { $0["notify_url"] = .string("https://evil.example/") },
             .notifyURLNotAllowed("https://evil.example/")),
        ]
    }

    @Test(arguments: refusalCases())
    func refusesWhatThePolicyDoesNotAllow(name: String, params: String, refusal: PolicyRefusal) async throws {
        let fixture = try SignServerFixture()
        let error = await signingError(try fixture.signer(), params)
        #expect(error == .denied(reason: refusal.reason), "\(name)")
        #expect(error?.isRetryable == false)
        #expect(fixture.log.all.count == 1)
        #expect(fixture.log.all.first?.contains(" 403 \(refusal.code) ") == true)
    }

    @Test func signsATemplateReadAndAReplayAndRefusesAWriteByDefault() async throws {
        // Given the fixture's policy, which leaves template_api at its default (read)
        let fixture = try SignServerFixture()
        let signer = try fixture.signer()
        let auth = { (members: [String: JSONValue]) in TestParams.edited(TestParams.template()) { $0 = members.merging(["auth": $0["auth"]!]) { $1 } } }
        // When a Template read and a replay that reloads its Template are signed, they verify
        for params in [auth([:]), auth(["reparse_template": .integer(1)])] {
            let signature = try await signer.sign(params)
            #expect(HMAC.verifyTransloaditSignature(signature, params: params, secret: SignServerFixture.secret))
        }
        // And a Template write is refused with a reason that survives the signer's cut whole
        let write = auth(["name": .string("nightly"), "template": .object(["steps": SignServerFixture.resize.steps]), "require_signature_auth": .integer(1)])
        #expect(await signingError(signer, write) == .denied(reason: PolicyRefusal.templateWriteNotAllowed(.read).reason))
        let lines = fixture.log.all
        #expect(lines.count == 3)
        #expect(lines.first?.contains(" bytes of params of a Template read, expiring ") == true)
        #expect(lines.dropFirst().first?.contains(" bytes of params of a replay, expiring ") == true)
        #expect(lines.last?.contains(" 403 TEMPLATE_WRITE_NOT_ALLOWED ") == true)
    }

    @Test func refusesAReplayedNonce() async throws {
        let fixture = try SignServerFixture()
        let signer = try fixture.signer()
        let params = TestParams.template()
        _ = try await signer.sign(params)
        #expect(await signingError(signer, params) == .denied(reason: PolicyRefusal.replayedNonce.reason))
        // The same Template with a fresh nonce is signed again
        _ = try await signer.sign(TestParams.template())
    }

    @Test func refusesMalformedParamsWith400() async throws {
        let fixture = try SignServerFixture()
        let error = await signingError(try fixture.signer(), "{\"auth\": ")
        guard case let .httpStatus(400, reason)? = error else {
            Issue.record("expected HTTP 400, got \(String(describing: error))")
            return
        }
        #expect(reason.hasPrefix("params are not strict JSON"))
    }

    @Test func refusesAWrongToken() async throws {
        let fixture = try SignServerFixture()
        let error = await signingError(try fixture.signer(token: SignServerFixture.otherToken), TestParams.template())
        #expect(error == .unauthorized(reason: "the token is not one this service accepts"))
    }

    @Test func refusesARequestWithoutAToken() async throws {
        // Given a request with no Authorization header at all, which BackendSigner never sends
        let fixture = try SignServerFixture()
        let body = JSONValue.object(["params": .string(TestParams.template())]).serialized
        let response = try await SignServerFixture.transport.send(.json(.post, fixture.server.signURL, body: Array(body.utf8)))
        // Then the service answers 401, which a signer reads as unauthorized
        #expect(response.status == 401)
        #expect(response.header("WWW-Authenticate") == "Bearer")
        #expect(throws: SigningError.unauthorized(reason: "expected Authorization: Bearer <token>")) {
            try SignerAnswer(response: response, token: "never-sent").signature(for: TestParams.template())
        }
        #expect(fixture.log.all.first?.contains(" 401 UNAUTHORIZED token=- ") == true)
    }

    @Test func refusesPastTheRate() async throws {
        let fixture = try SignServerFixture(requestsPerMinute: 2)
        let signer = try fixture.signer()
        _ = try await signer.sign(TestParams.template())
        _ = try await signer.sign(TestParams.template())
        let error = await signingError(signer, TestParams.template())
        // Two a minute refill one every 30 s; a slow machine may already have refilled part of one
        guard case let .rateLimited(retryAfter?)? = error, (Duration.seconds(1)...Duration.seconds(30)).contains(retryAfter) else {
            Issue.record("expected rateLimited with Retry-After of at most 30 s, got \(String(describing: error))")
            return
        }
        #expect(error?.isRetryable == true)
        // Another token's refusal does not count against the rate
        #expect(await signingError(try fixture.signer(token: SignServerFixture.otherToken), TestParams.template()) != nil)
    }

    @Test func refusesABodyThatIsNotTheEnvelope() async throws {
        let fixture = try SignServerFixture()
        let headers: HTTPHeaders = [HTTPHeader(name: "Authorization", value: "Bearer \(SignServerFixture.token)")]
        for body in [#"{"params": 1}"#, #"{"params": "{}", "signature": "x"}"#, "params=1", String(repeating: " ", count: 70_000)] {
            let response = try await SignServerFixture.transport.send(
                .json(.post, fixture.server.signURL, body: Array(body.utf8), headers: headers))
            #expect(response.status == (body.utf8.count > 64 << 10 ? 413 : 400))
        }
        #expect(fixture.log.all.count == 4)
    }

    @Test func logsEachDecisionOnOneLineWithoutSecrets() async throws {
        let fixture = try SignServerFixture()
        _ = try await fixture.signer().sign(TestParams.template())
        _ = await signingError(try fixture.signer(), TestParams.template("tpl-\nevil"))
        _ = await signingError(try fixture.signer(token: SignServerFixture.otherToken), TestParams.template())
        let lines = fixture.log.all
        #expect(lines.count == 3)
        let fingerprint = String(Hex.encode(Digest.sha256(Array(SignServerFixture.token.utf8))).prefix(8))
        #expect(lines[0].contains(" 200 SIGNED token=\(fingerprint) from=127.0.0.1: signed "))
        for line in lines {
            #expect(!line.contains("\n"))
            #expect(!line.contains(SignServerFixture.token) && !line.contains(SignServerFixture.otherToken))
            #expect(!line.contains(SignServerFixture.secret))
        }
    }
}
