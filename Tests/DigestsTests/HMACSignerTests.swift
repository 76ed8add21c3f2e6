import AssemblyLine
import Digests
import Testing

@Suite struct HMACSignerTests {
    @Test func givesTheKnownTransloaditSignature() async throws {
        // The legacy-docs vector of shared/reference/transloadit-api.md §2.4, signed as a Signer
        let signer = HMACSigner(secret: TransloaditSignatureTests.secret)
        let signed = try await signer.signed(TransloaditSignatureTests.params)
        #expect(signed.signature == TransloaditSignatureTests.sha384)
        #expect(signed.params == TransloaditSignatureTests.params)
    }

    @Test func neverShowsTheSecret() {
        let signer = HMACSigner(secret: TransloaditSignatureTests.secret)
        var dumped = ""
        dump(signer, to: &dumped)
        #expect(!dumped.contains(TransloaditSignatureTests.secret))
        #expect(!String(describing: signer).contains(TransloaditSignatureTests.secret))
    }
}
