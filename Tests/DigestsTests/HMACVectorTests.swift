import Digests
import Testing

/// One published HMAC test case: key and message in hex, the expected code (possibly truncated) in hex.
struct HMACVector: Sendable, CustomTestStringConvertible {
    var name: String
    var key: String
    var message: String
    var expected: String

    var testDescription: String { name }

    static func text(_ string: String) -> String { Hex.encode(Array(string.utf8)) }
    static func repeated(_ byte: String, _ count: Int) -> String { String(repeating: byte, count: count) }
    static let counting25 = Hex.encode(Array(1...25 as ClosedRange<UInt8>))
    static let longMessage = text(
        "This is a test using a larger than block-size key and a larger than block-size data."
            + " The key needs to be hashed before being used by the HMAC algorithm.")
}

@Suite struct HMACVectorTests {
    /// RFC 4231 §4.2–4.8, HMAC-SHA-384 (test case 5 is truncated to 128 bits).
    static let sha384: [HMACVector] = [
        .init(name: "4231-1", key: HMACVector.repeated("0b", 20), message: HMACVector.text("Hi There"),
              expected: "afd03944d84895626b0825f4ab46907f15f9dadbe4101ec682aa034c7cebc59cfaea9ea9076ede7f4af152e8b2fa9cb6"),
        .init(name: "4231-2", key: HMACVector.text("Jefe"), message: HMACVector.text("what do ya want for nothing?"),
              expected: "af45d2e376484031617f78d2b58a6b1b9c7ef464f5a01b47e42ec3736322445e8e2240ca5e69e2c78b3239ecfab21649"),
        .init(name: "4231-3", key: HMACVector.repeated("aa", 20), message: HMACVector.repeated("dd", 50),
              expected: "88062608d3e6ad8a0aa2ace014c8a86f0aa635d947ac9febe83ef4e55966144b2a5ab39dc13814b94e3ab6e101a34f27"),
        .init(name: "4231-4", key: HMACVector.counting25, message: HMACVector.repeated("cd", 50),
              expected: "3e8a69b7783c25851933ab6290af6ca77a9981480850009cc5577c6e1f573b4e6801dd23c4a7d679ccf8a386c674cffb"),
        .init(name: "4231-5", key: HMACVector.repeated("0c", 20), message: HMACVector.text("Test With Truncation"),
              expected: "3abf34c3503b2a23a46efc619baef897"),
        .init(name: "4231-6", key: HMACVector.repeated("aa", 131),
              message: HMACVector.text("Test Using Larger Than Block-Size Key - Hash Key First"),
              expected: "4ece084485813e9088d2c63a041bc5b44f9ef1012a2b588f3cd11f05033ac4c60c2ef6ab4030fe8296248df163f44952"),
        .init(name: "4231-7", key: HMACVector.repeated("aa", 131), message: HMACVector.longMessage,
              expected: "6617178e941f020d351e2f254e8fd32c602420feb0b8fb9adccebb82461e99c5a678cc31e799176d3860e6110c46523e"),
    ]

    /// RFC 4231 §4.2–4.8, HMAC-SHA-256 (test case 5 is truncated to 128 bits).
    static let sha256: [HMACVector] = [
        .init(name: "4231-1", key: HMACVector.repeated("0b", 20), message: HMACVector.text("Hi There"),
              expected: "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        .init(name: "4231-2", key: HMACVector.text("Jefe"), message: HMACVector.text("what do ya want for nothing?"),
              expected: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        .init(name: "4231-3", key: HMACVector.repeated("aa", 20), message: HMACVector.repeated("dd", 50),
              expected: "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
        .init(name: "4231-4", key: HMACVector.counting25, message: HMACVector.repeated("cd", 50),
              expected: "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
        .init(name: "4231-5", key: HMACVector.repeated("0c", 20), message: HMACVector.text("Test With Truncation"),
              expected: "a3b6167473100ee06e0c796c2955552b"),
        .init(name: "4231-6", key: HMACVector.repeated("aa", 131),
              message: HMACVector.text("Test Using Larger Than Block-Size Key - Hash Key First"),
              expected: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        .init(name: "4231-7", key: HMACVector.repeated("aa", 131), message: HMACVector.longMessage,
              expected: "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
    ]

    /// RFC 2202 §3, HMAC-SHA-1 (full 160-bit codes).
    static let sha1: [HMACVector] = [
        .init(name: "2202-1", key: HMACVector.repeated("0b", 20), message: HMACVector.text("Hi There"),
              expected: "b617318655057264e28bc0b6fb378c8ef146be00"),
        .init(name: "2202-2", key: HMACVector.text("Jefe"), message: HMACVector.text("what do ya want for nothing?"),
              expected: "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"),
        .init(name: "2202-3", key: HMACVector.repeated("aa", 20), message: HMACVector.repeated("dd", 50),
              expected: "125d7342b9ac11cd91a39af48aa17b4f63f175d3"),
        .init(name: "2202-4", key: HMACVector.counting25, message: HMACVector.repeated("cd", 50),
              expected: "4c9007f4026250c6bc8414f9bf50c86c2d7235da"),
        .init(name: "2202-5", key: HMACVector.repeated("0c", 20), message: HMACVector.text("Test With Truncation"),
              expected: "4c1a03424b55e07fe7f27be1d58bb9324a9a5a04"),
        .init(name: "2202-6", key: HMACVector.repeated("aa", 80),
              message: HMACVector.text("Test Using Larger Than Block-Size Key - Hash Key First"),
              expected: "aa4ae5e15272d00e95705637ce8a3b55ed402112"),
        .init(name: "2202-7", key: HMACVector.repeated("aa", 80),
              message: HMACVector.text("Test Using Larger Than Block-Size Key and Larger Than One Block-Size Data"),
              expected: "e8e99d0f45237d786d6bbaa7965c7808bbff1a91"),
    ]

    private func code(_ compute: ([UInt8], [UInt8]) -> [UInt8], _ vector: HMACVector) throws -> String {
        let key = try #require(Hex.decode(vector.key))
        let message = try #require(Hex.decode(vector.message))
        return String(Hex.encode(compute(key, message)).prefix(vector.expected.count))
    }

    @Test(arguments: sha384)
    func hmacSHA384(_ vector: HMACVector) throws {
        #expect(try code({ HMAC.sha384(key: $0, message: $1) }, vector) == vector.expected)
    }

    @Test(arguments: sha256)
    func hmacSHA256(_ vector: HMACVector) throws {
        #expect(try code({ HMAC.sha256(key: $0, message: $1) }, vector) == vector.expected)
    }

    @Test(arguments: sha1)
    func hmacSHA1(_ vector: HMACVector) throws {
        #expect(try code({ HMAC.sha1(key: $0, message: $1) }, vector) == vector.expected)
    }

    @Test(arguments: HMAC.Algorithm.allCases)
    func codeLengthMatchesAlgorithm(_ algorithm: HMAC.Algorithm) {
        let code = HMAC.authenticationCode(algorithm, key: Array("k".utf8), message: Array("m".utf8))
        #expect(code.count == algorithm.byteCount)
    }

    @Test func emptyKeyAndMessageAreAllowed() {
        // HMAC-SHA256 of "" under "" (computed independently with Python's hmac module).
        #expect(Hex.encode(HMAC.sha256(key: [], message: []))
            == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
    }
}
