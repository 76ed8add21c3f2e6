import AssemblyLine
import Digests
import HTTPMessages
import Testing

/// SigV4 signatures against AWS's published S3 example and against botocore's for the cases libcurl 7.88 signs wrong.
@Suite struct SigV4SignerTests {
    static let awsExample = S3Credentials(accessKeyID: "AKIAIOSFODNN7EXAMPLE", secret: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")
    /// A secret with `+` and `/`, as real ones have.
    static let botocoreCase = S3Credentials(accessKeyID: "AKIDEXAMPLE", secret: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY")
    static let may2013 = UTCDateTime(year: 2013, month: 5, day: 24, hour: 0, minute: 0, second: 0)!
    static let december2026 = UTCDateTime(year: 2026, month: 12, day: 4, hour: 23, minute: 0, second: 0)!

    func signer(_ credentials: S3Credentials) -> SigV4Signer {
        SigV4Signer(credentials: credentials, region: "us-east-1", hashing: LibcryptoSigV4Hashing())
    }

    func signature(_ headers: HTTPHeaders) -> String? {
        headers["Authorization"].flatMap { $0.split(separator: "Signature=").last.map(String.init) }
    }

    /// S3 API Reference, "Signature Calculations for the Authorization Header", Example: GET Object (with a Range header).
    @Test func theS3DocumentationsGetObjectExampleSignsAsPublished() {
        let request = SigV4Request(
            method: .get, host: "examplebucket.s3.amazonaws.com", path: "/test.txt", headers: ["Range": "bytes=0-9"])
        let headers = signer(Self.awsExample).headers(for: request, at: Self.may2013)
        #expect(headers["Authorization"] == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,"
            + "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,"
            + "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
        #expect(headers["x-amz-date"] == "20130524T000000Z")
        #expect(headers["x-amz-content-sha256"] == SigV4Request.emptyPayloadHash)
        #expect(signer(Self.awsExample).canonicalRequest(request, at: Self.may2013) == """
            GET
            /test.txt

            host:examplebucket.s3.amazonaws.com
            range:bytes=0-9
            x-amz-content-sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
            x-amz-date:20130524T000000Z

            host;range;x-amz-content-sha256;x-amz-date
            e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
            """)
    }

    /// botocore 1.44.8's `S3SigV4Auth` signed the same request at the same time (the snippet is in docs/remote-inputs.md).
    @Test func aContinuationTokenWithPlusSlashAndEqualsAndANonASCIIPrefixSignAsBotocoreSigns() {
        let request = SigV4Request(method: .get, host: "127.0.0.1:9000", path: "/night-bucket", query: [
            .init("list-type", "2"), .init("prefix", "fotos/über straße/"), .init("max-keys", "1000"),
            .init("continuation-token", "a+b/c=="),
        ])
        #expect(request.urlSuffix
            == "/night-bucket?continuation-token=a%2Bb%2Fc%3D%3D&list-type=2&max-keys=1000&prefix=fotos%2F%C3%BCber%20stra%C3%9Fe%2F")
        let headers = signer(Self.botocoreCase).headers(for: request, at: Self.december2026)
        #expect(signature(headers) == "e486ac4657654c64a5b4c3dbc15e386b460096dc71ebaa78ec87c6b400a858b4")
    }

    @Test func aPrefixInAnotherScriptSignsAsBotocoreSigns() {
        let request = SigV4Request(method: .get, host: "127.0.0.1:9000", path: "/night-bucket", query: [
            .init("list-type", "2"), .init("prefix", "写真/"), .init("max-keys", "7"),
        ])
        let headers = signer(Self.botocoreCase).headers(for: request, at: Self.december2026)
        #expect(signature(headers) == "89d6529517b01f9be9535ae74f2929396325de608af6516275da3a968658c441")
    }

    @Test func theSecretAppearsInNoDescriptionMirrorOrHeader() {
        let secret = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
        let signer = signer(Self.botocoreCase)
        let request = SigV4Request(method: .get, host: "h", path: "/b")
        let headers = signer.headers(for: request, at: Self.december2026)
        let texts = [
            String(describing: signer), String(reflecting: signer), String(describing: Self.botocoreCase),
            String(reflecting: Self.botocoreCase), headers.description, signer.stringToSign(request, at: Self.december2026),
        ]
        for text in texts {
            #expect(!text.contains(secret))
            #expect(!text.contains("bPxRfiCY"))
        }
        var dumped = ""
        dump(signer, to: &dumped)
        dump(Self.botocoreCase, to: &dumped)
        #expect(!dumped.contains("bPxRfiCY"))
    }
}
