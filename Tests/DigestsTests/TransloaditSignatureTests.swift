import Digests
import Foundation
import Testing

/// The legacy-docs vector of shared/reference/transloadit-api.md §2.4 and the prefix rules around it.
@Suite struct TransloaditSignatureTests {
    static let secret = "d805593620e689465d7da6b8caf2ac7384fdb7e9"
    /// The params exactly as the legacy docs sign them, with `\/` escapes kept.
    static let params = #"{"auth":{"expires":"2010\/10\/19 09:01:20+00:00","key":"2b0c45611f6440dfb64611e872ec3211"},"#
        + #""steps":{"encode":{"robot":"\/video\/encode"}}}"#
    static let sha384 = "sha384:69b74f954488cbb571cace210ae9039d18d84ec57edc784d19fd364f4295c99c"
        + "93c14f0fed7f245b480d5856f12effc2"
    static let sha1 = "fec703ccbe36b942c90d17f64b71268ed4f5f512"

    @Test func sha384IsTheDefault() {
        #expect(HMAC.transloaditSignature(params: Self.params, secret: Self.secret) == Self.sha384)
    }

    @Test func legacySHA1() {
        #expect(HMAC.transloaditSignature(params: Self.params, secret: Self.secret, algorithm: .sha1) == "sha1:" + Self.sha1)
    }

    @Test func reserializedParamsSignDifferently() {
        // Given the same JSON without the `\/` escapes
        let unescaped = Self.params.replacingOccurrences(of: #"\/"#, with: "/")
        // Then the signature changes: the raw bytes are signed, not the JSON value.
        let signature = HMAC.transloaditSignature(params: unescaped, secret: Self.secret, algorithm: .sha1)
        #expect(signature.hasPrefix("sha1:00320965"))
        #expect(!HMAC.verifyTransloaditSignature("sha1:" + Self.sha1, params: unescaped, secret: Self.secret))
    }

    static let verificationCases: [(signature: String, valid: Bool)] = [
        (sha384, true),
        ("sha1:" + sha1, true),
        (sha1, true),
        (sha1.uppercased(), true),
        ("sha256:" + sha1, false),
        ("sha512:" + sha1, false),
        (String(sha384.dropLast(2)), false),
        (String(sha384.dropLast()) + "3", false),
        ("sha384:", false),
        ("", false),
        ("sha384:zz" + String(sha384.dropFirst(9)), false),
    ]

    @Test(arguments: verificationCases)
    func verification(signature: String, valid: Bool) {
        #expect(HMAC.verifyTransloaditSignature(signature, params: Self.params, secret: Self.secret) == valid)
    }

    @Test func wrongSecretDoesNotVerify() {
        #expect(!HMAC.verifyTransloaditSignature(Self.sha384, params: Self.params, secret: Self.secret + "x"))
    }

    @Test func sha256RoundTrip() {
        let signature = HMAC.transloaditSignature(params: Self.params, secret: Self.secret, algorithm: .sha256)
        #expect(signature.hasPrefix("sha256:") && signature.count == 7 + 64)
        #expect(HMAC.verifyTransloaditSignature(signature, params: Self.params, secret: Self.secret))
    }
}
