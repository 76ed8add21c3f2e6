import AssemblyLine
import Foundation
import HTTPMessages
import TestSupport
import Testing

/// The ListObjectsV2 client over a scripted transport: paging, and the hostile answers a bucket can give.
@Suite struct S3BucketListerTests {
    /// Hashes that sign nothing: the scripted transport checks no signature.
    struct NoHashing: SigV4Hashing {
        func sha256(_ bytes: [UInt8]) -> [UInt8] { [UInt8](repeating: 0, count: 32) }
        func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8] { [UInt8](repeating: 0, count: 32) }
    }

    static let secret = "SECRET-wJalrXUtnFEMI/K7MDENG+bPxRfiCY"

    func lister(_ transport: ScriptedTransport, pageSize: Int = 3, maximumPages: Int = 50) throws -> S3BucketLister {
        try S3BucketLister(
            address: S3BucketAddress(endpoint: "http://127.0.0.1:9000", region: "us-east-1", bucket: "night-bucket"),
            credentials: S3Credentials(accessKeyID: "AKIDEXAMPLE", secret: Self.secret), hashing: NoHashing(),
            transport: transport, clock: ManualClock(), pageSize: pageSize, maximumPages: maximumPages)
    }

    /// A `<ListBucketResult>` of `entries` (key, size) with a token when truncated.
    static func page(_ entries: [(key: String, size: String)], token: String? = nil, keyCount: Int? = nil) -> ScriptedTransport.Answer {
        var xml = #"<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">"#
        xml += "<Name>night-bucket</Name><KeyCount>\(keyCount ?? entries.count)</KeyCount><IsTruncated>\(token != nil)</IsTruncated>"
        if let token { xml += "<NextContinuationToken>\(token)</NextContinuationToken>" }
        for entry in entries {
            xml += "<Contents><Key>\(entry.key)</Key><LastModified>2026-12-04T23:00:00.000Z</LastModified>"
            xml += "<ETag>&quot;9b2cf535f27731c974343645a3985328&quot;</ETag><Size>\(entry.size)</Size></Contents>"
        }
        return .response(status: 200, headers: ["Content-Type": "application/xml"], body: Array((xml + "</ListBucketResult>").utf8))
    }

    static func error(_ status: Int, _ code: String, _ message: String = "") -> ScriptedTransport.Answer {
        .response(status: status, headers: [:], body: Array("<Error><Code>\(code)</Code><Message>\(message)</Message></Error>".utf8))
    }

    /// Lists `prefix`, returning every page delivered and the error, if any.
    func run(_ lister: S3BucketLister, prefix: String = "") async -> (pages: [S3ListPage], error: S3ListingError?) {
        let pages = Recorder<S3ListPage>()
        do {
            try await lister.list(prefix: prefix) { page in
                pages.append(page)
                return .next
            }
            return (pages.all, nil)
        } catch {
            return (pages.all, error)
        }
    }

    @Test func pagesFollowTheirTokensInOrderAndEachIsDeliveredOnce() async throws {
        let transport = ScriptedTransport()
        transport.script(.get, "/night-bucket?") { request in
            #expect(!request.url.contains("continuation-token"))
            return Self.page([("a/1", "1"), ("a/2", "2"), ("a/3", "3")], token: "t+1/=")
        }
        transport.script(.get, "continuation-token=t%2B1%2F%3D") { _ in Self.page([("a/4", "4")]) }
        let (pages, error) = await run(try lister(transport), prefix: "a/")
        #expect(error == nil)
        #expect(pages.map(\.number) == [1, 2])
        #expect(pages.flatMap(\.objects).map(\.key) == ["a/1", "a/2", "a/3", "a/4"])
        #expect(pages[0].objects[0].etag == "\"9b2cf535f27731c974343645a3985328\"")
        #expect(pages[0].objects[0].lastModified == UTCDateTime(year: 2026, month: 12, day: 4, hour: 23, minute: 0, second: 0))
        let first = try #require(transport.requests.first)
        #expect(first.url == "http://127.0.0.1:9000/night-bucket?list-type=2&max-keys=3&prefix=a%2F")
        #expect(first.headers["Authorization"]?.hasPrefix("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/") == true)
        #expect(first.headers["x-amz-content-sha256"] == SigV4Request.emptyPayloadHash)
    }

    @Test func keysWithDotSegmentsControlCharactersOrOutsideThePrefixAreSkippedWithTheirReason() async throws {
        let transport = ScriptedTransport()
        transport.script(.get, "/night-bucket?") { _ in
            Self.page([("in/...", "2"), ("in/../../etc/passwd", "1"), ("in/./x", "1"), ("in/a&#10;b", "1"), ("in/esc&#x1B;[2J", "1"),
                       ("in/good key ü", "5"), ("in/nul&#0;", "1"), ("in/x/..", "1"), ("out/y", "1")])
        }
        let (pages, error) = await run(try lister(transport, pageSize: 10), prefix: "in/")
        #expect(error == nil)
        let page = try #require(pages.first)
        #expect(page.objects.map(\.key) == ["in/...", "in/good key ü"])
        #expect(page.skipped.map(\.reason) == [.dotSegment, .dotSegment, .controlCharacter, .controlCharacter, .controlCharacter, .dotSegment,
                                              .outsidePrefix])
        #expect(page.skipped[2].key == "in/a\\nb")
        #expect(page.skipped.allSatisfy { !$0.description.contains("\u{1B}") && !$0.description.contains("\n") })
    }

    @Test(arguments: ["-1", "12abc", "", "+5", "99999999999999999999", "5497558138881", "1e9", " 7"])
    func aLyingSizeSkipsItsEntry(_ size: String) async throws {
        let transport = ScriptedTransport()
        transport.script(.get, "/night-bucket?") { _ in Self.page([("fine", "5497558138880"), ("lying", size)]) }
        let (pages, error) = await run(try lister(transport))
        #expect(error == nil)
        #expect(pages.first?.objects.map(\.key) == ["fine"])
        #expect(pages.first?.skipped.map(\.reason) == [.badSize(size)])
    }

    @Test func morekeysThanMaxKeysFailThePage() async throws {
        let transport = ScriptedTransport()
        transport.script(.get, "/night-bucket?") { _ in Self.page([("a", "1"), ("b", "1"), ("c", "1"), ("d", "1")]) }
        let (pages, error) = await run(try lister(transport))
        #expect(pages.isEmpty)
        #expect(error == .tooManyKeys(page: 1, count: 4, maxKeys: 3))
    }

    @Test func aKeyCountThatDoesNotCountThePageFailsIt() async throws {
        let transport = ScriptedTransport()
        transport.script(.get, "/night-bucket?") { _ in Self.page([("a", "1")], keyCount: 2) }
        let (_, error) = await run(try lister(transport))
        guard case .malformedPage(page: 1, _)? = error else {
            Issue.record("expected a malformed page, got \(String(describing: error))")
            return
        }
    }

    @Test func aTruncatedPageWithoutATokenFails() async throws {
        let transport = ScriptedTransport()
        transport.script(.get, "/night-bucket?") { _ in
            .response(status: 200, headers: [:], body: Array("<ListBucketResult><IsTruncated>true</IsTruncated></ListBucketResult>".utf8))
        }
        #expect(await run(try lister(transport)).error == .missingContinuationToken(page: 1))
    }

    @Test func aRepeatedTokenEndsTheListingInsteadOfGoingRoundForever() async throws {
        let transport = ScriptedTransport()
        let counter = Recorder<Int>()
        transport.script(.get, "/night-bucket?", times: 100) { request in
            counter.append(1)
            return Self.page([("k\(counter.all.count)", "1")], token: request.url.contains("continuation-token") ? "B" : "A")
        }
        let (pages, error) = await run(try lister(transport))
        #expect(error == .repeatedContinuationToken(page: 3))
        #expect(pages.count == 2)
    }

    @Test func aListingThatNeverEndsFailsAtItsPageBound() async throws {
        let transport = ScriptedTransport()
        let counter = Recorder<Int>()
        transport.script(.get, "/night-bucket?", times: 1000) { _ in
            counter.append(1)
            return Self.page([("k\(1000 + counter.all.count)", "1")], token: "token-\(counter.all.count)")
        }
        let (pages, error) = await run(try lister(transport, maximumPages: 20))
        #expect(error == .tooManyPages(pages: 20))
        #expect(pages.count == 20)
        #expect(transport.requests.count == 20)
    }

    @Test func aKeyRepeatedOnTheNextPageFailsTheListing() async throws {
        let transport = ScriptedTransport()
        transport.script(.get, "/night-bucket?") { _ in Self.page([("a", "1"), ("b", "1")], token: "t1") }
        transport.script(.get, "continuation-token=t1") { _ in Self.page([("b", "1"), ("c", "1")]) }
        let (pages, error) = await run(try lister(transport))
        #expect(error == .keysOutOfOrder(page: 2))
        #expect(pages.count == 1)
    }

    @Test func keysOutOfOrderWithinAPageFailIt() async throws {
        let transport = ScriptedTransport()
        transport.script(.get, "/night-bucket?") { _ in Self.page([("b", "1"), ("a", "1")]) }
        #expect(await run(try lister(transport)).error == .keysOutOfOrder(page: 1))
    }

    @Test func theCallerCanStopAfterAPage() async throws {
        let transport = ScriptedTransport()
        transport.script(.get, "/night-bucket?") { _ in Self.page([("a", "1")], token: "next") }
        let summary = try await lister(transport).list(prefix: "") { _ in .stop }
        #expect(summary.pages == 1 && summary.stopped)
        #expect(transport.requests.count == 1)
    }

    @Test func aBadSignatureIsATypedAuthorizationFailureThatNamesNoSecret() async throws {
        let transport = ScriptedTransport()
        transport.script(.get, "/night-bucket?") { _ in
            Self.error(403, "SignatureDoesNotMatch", "The request signature we calculated does not match the signature you provided.")
        }
        let (_, error) = await run(try lister(transport))
        let failure = try #require(error)
        guard case .refused(.signatureDoesNotMatch, 403, _) = failure else {
            Issue.record("expected SignatureDoesNotMatch, got \(failure)")
            return
        }
        #expect(failure.isAuthorizationFailure && !failure.isRetryable)
        #expect(!String(describing: failure).contains("SECRET"))
        #expect(!String(reflecting: failure).contains("SECRET"))
    }

    @Test func accessDeniedIsAnAuthorizationFailureAndAServerErrorIsRetryable() async throws {
        let denied = S3ErrorAnswer.refusal(status: 403, body: Array("<Error><Code>AccessDenied</Code></Error>".utf8))
        #expect(denied == .refused(code: .accessDenied, status: 403, message: ""))
        #expect(denied.isAuthorizationFailure)
        let busy = S3ErrorAnswer.refusal(status: 503, body: Array("<Error><Code>SlowDown</Code><Message>x&#10;y</Message></Error>".utf8))
        #expect(busy == .refused(code: .slowDown, status: 503, message: "x\\ny"))
        #expect(busy.isRetryable && !busy.isAuthorizationFailure)
        let bare = S3ErrorAnswer.refusal(status: 500, body: Array("<html>oops".utf8))
        #expect(bare == .refused(code: .unnamed, status: 500, message: ""))
        #expect(bare.isRetryable)
        #expect(S3ErrorAnswer.refusal(status: 403, body: []).isAuthorizationFailure)
        #expect(S3ListingError.transport(.connect(endpoint: "http://127.0.0.1:9000", reason: "refused")).isRetryable)
    }

    @Test(arguments: [
        ("ftp://host", "b-bucket"), ("http://host/path", "bucket"), ("http://user:pw@host", "bucket"), ("http://host", "Bucket"),
        ("http://host", "ab"), ("http://host", "-bucket"), ("http://host", "a/b"),
    ])
    func anEndpointOrBucketThatCannotBeAddressedIsRefused(_ endpoint: String, _ bucket: String) {
        #expect(throws: S3ListingError.self) { try S3BucketAddress(endpoint: endpoint, region: "us-east-1", bucket: bucket) }
    }

    @Test func theHostHeaderCarriesAPortOnlyWhenItIsNotTheDefault() throws {
        #expect(try S3BucketAddress(endpoint: "https://s3.example.com:443/", region: "r", bucket: "bkt").host == "s3.example.com")
        #expect(try S3BucketAddress(endpoint: "http://127.0.0.1:9000", region: "r", bucket: "bkt").host == "127.0.0.1:9000")
    }
}
