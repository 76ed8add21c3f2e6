import AssemblyLine
import ConfigFormat
import Digests
import Foundation
import HTTPMessages
@testable import LocalTransloadit
import Testing

@Suite(.timeLimit(.minutes(3))) struct AuthTests {
    static let steps = ["steps": JSONValue.object([":original": .object(["robot": .string("/upload/handle")])])]

    /// One refused creation: how the params and signature are made, and the code and status expected.
    struct Refusal: Sendable, CustomStringConvertible {
        var code: String
        var status: Int
        var fields: @Sendable (ServiceHarness) -> [(name: String, value: String)]

        var description: String { code }
    }

    static let refusals: [Refusal] = [
        Refusal(code: "NO_PARAMS_FIELD", status: 400) { _ in [(name: "signature", value: "sha384:00")] },
        Refusal(code: "INVALID_PARAMS_FIELD", status: 400) { h in [(name: "params", value: "{\"auth\":"), (name: "signature", value: h.sign("{\"auth\":"))] },
        Refusal(code: "INVALID_PARAMS_FIELD", status: 400) { h in [(name: "params", value: "[1]"), (name: "signature", value: h.sign("[1]"))] },
        Refusal(code: "NO_AUTH_PARAMETER", status: 400) { h in
            let params = JSONValue.object(steps).serialized
            return [(name: "params", value: params), (name: "signature", value: h.sign(params))]
        },
        Refusal(code: "GET_ACCOUNT_UNKNOWN_AUTH_KEY", status: 401) { h in
            let params = h.params(steps).replacingOccurrences(of: h.service.key, with: String(repeating: "0", count: 32))
            return [(name: "params", value: params), (name: "signature", value: h.sign(params))]
        },
        Refusal(code: "NO_SIGNATURE_FIELD", status: 400) { h in [(name: "params", value: h.params(steps))] },
        Refusal(code: "NO_AUTH_EXPIRES_PARAMETER", status: 400) { h in
            let params = JSONValue.object(steps.merging(["auth": .object(["key": .string(h.service.key)])]) { $1 }).serialized
            return [(name: "params", value: params), (name: "signature", value: h.sign(params))]
        },
        Refusal(code: "INVALID_SIGNATURE", status: 401) { h in
            let params = h.params(steps)
            return [(name: "params", value: params), (name: "signature", value: h.sign(params + " "))]
        },
        Refusal(code: "INVALID_SIGNATURE", status: 401) { h in
            let params = h.params(steps)
            return [(name: "params", value: params), (name: "signature", value: "sha512:" + String(repeating: "ab", count: 64))]
        },
        Refusal(code: "INVALID_AUTH_EXPIRES_PARAMETER", status: 400) { h in
            let params = h.params(steps, expires: "tomorrow")
            return [(name: "params", value: params), (name: "signature", value: h.sign(params))]
        },
        Refusal(code: "AUTH_EXPIRED", status: 401) { h in
            let params = h.params(steps, expires: ServiceHarness.expiry(in: -5))
            return [(name: "params", value: params), (name: "signature", value: h.sign(params))]
        },
    ]

    @Test(arguments: refusals)
    func creationIsRefused(_ refusal: Refusal) async throws {
        let harness = try ServiceHarness()
        let answer = try await harness.send(.form(.post, "\(harness.base)/assemblies", fields: refusal.fields(harness)))
        #expect(answer.status == refusal.status)
        #expect(answer["error"]?.stringValue == refusal.code)
        #expect(answer["message"]?.stringValue?.isEmpty == false)
        let id = try #require(answer["assembly_id"]?.stringValue)
        #expect(try await harness.get("/assemblies/\(id)").status == 404)
    }

    @Test func sameSignedParamsTwiceAreReuse() async throws {
        let harness = try ServiceHarness()
        let params = harness.params(Self.steps, nonce: false)
        let first = try await harness.create(params: params)
        #expect(first.status == 200)
        let second = try await harness.create(params: params)
        #expect(second.status == 403)
        #expect(second["error"]?.stringValue == "SIGNATURE_REUSE_DETECTED")
        let fresh = try await harness.create(params: harness.params(Self.steps, nonce: false).replacingOccurrences(of: "{\"auth\"", with: "{\"nonce\":1,\"auth\""))
        #expect(fresh.status == 200)
    }

    @Test(arguments: [HMAC.Algorithm.sha1, .sha256, .sha384])
    func everyPrefixedAlgorithmIsAccepted(_ algorithm: HMAC.Algorithm) async throws {
        let harness = try ServiceHarness()
        let params = harness.params(Self.steps)
        let signature = HMAC.transloaditSignature(params: params, secret: harness.service.secret, algorithm: algorithm)
        #expect(try await harness.create(params: params, signature: signature).status == 200)
    }

    @Test func legacyUnprefixedSHA1IsAccepted() async throws {
        let harness = try ServiceHarness()
        let params = harness.params(Self.steps)
        let signature = Hex.encode(HMAC.sha1(key: Array(harness.service.secret.utf8), message: Array(params.utf8)))
        #expect(try await harness.create(params: params, signature: signature).status == 200)
    }

    @Test(arguments: [
        "2099-01-02T03:04:05.678Z", "2099-01-02T03:04:05Z", "2099-01-02T05:04:05+02:00", "2099/01/02 03:04:05+00:00",
        "2099/01/02 03:04:5+00:00",
    ])
    func expiryFormatsOfEveryClientAreAccepted(_ expires: String) async throws {
        let harness = try ServiceHarness()
        #expect(try await harness.create(params: harness.params(Self.steps, expires: expires)).status == 200)
        let expected = try #require(UTCDateTime(year: 2099, month: 1, day: 2, hour: 3, minute: 4, second: 5))
        let parsed = try #require(AuthExpiry.parse(expires))
        #expect(abs(parsed.timeIntervalSince(expected.date)) < 1)
    }

    @Test func withoutSignaturesOnlyTheKeyCounts() async throws {
        let harness = try ServiceHarness { $0.requireSignature = false }
        let params = JSONValue.object(Self.steps.merging(["auth": .object(["key": .string(harness.service.key)])]) { $1 }).serialized
        let accepted = try await harness.send(.form(.post, "\(harness.base)/assemblies", fields: [(name: "params", value: params)]))
        #expect(accepted.status == 200)
        let wrongKey = params.replacingOccurrences(of: harness.service.key, with: "nope")
        let refused = try await harness.send(.form(.post, "\(harness.base)/assemblies", fields: [(name: "params", value: wrongKey)]))
        #expect(refused["error"]?.stringValue == "GET_ACCOUNT_UNKNOWN_AUTH_KEY")
    }

    /// The legacy documentation's example (transloadit-api.md §2.4): the raw bytes, `\/` escapes included, are signed.
    @Test func legacyDocumentationVectorVerifies() async throws {
        let secret = "d805593620e689465d7da6b8caf2ac7384fdb7e9"
        let key = "2b0c45611f6440dfb64611e872ec3211"
        let params = #"{"auth":{"expires":"2010\/10\/19 09:01:20+00:00","key":"2b0c45611f6440dfb64611e872ec3211"},"steps":{"encode":{"robot":"\/video\/encode"}}}"#
        let sha1 = "fec703ccbe36b942c90d17f64b71268ed4f5f512"
        let sha384 = "sha384:69b74f954488cbb571cace210ae9039d18d84ec57edc784d19fd364f4295c99c93c14f0fed7f245b480d5856f12effc2"
        let verifier = AuthVerifier(credentials: ServiceCredentials(key: key, secret: secret), requireSignature: true, detectReuse: false)
        let before = try #require(UTCDateTime(year: 2010, month: 10, day: 19, hour: 9, minute: 0, second: 0)).date
        for signature in [sha1, "sha1:" + sha1, sha384] {
            let object = try verifier.verify(params: params, signature: signature, purpose: .create, now: before)
            #expect(object["auth"]?["key"]?.stringValue == key)
        }
        let unescaped = params.replacingOccurrences(of: "\\/", with: "/")
        #expect(throws: APIError.self) { try verifier.verify(params: unescaped, signature: sha1, purpose: .create, now: before) }

        let harness = try ServiceHarness { $0.credentials = ServiceCredentials(key: key, secret: secret) }
        let late = try await harness.create(params: params, signature: sha1)
        #expect(late["error"]?.stringValue == "AUTH_EXPIRED")
        let tampered = try await harness.create(params: unescaped, signature: sha1)
        #expect(tampered["error"]?.stringValue == "INVALID_SIGNATURE")
    }
}
