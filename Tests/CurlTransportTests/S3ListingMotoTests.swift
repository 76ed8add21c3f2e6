import AssemblyLine
import CurlTransport
import Digests
import Foundation
import Testing
import TestSupport

/// ListObjectsV2 against moto, a real S3-compatible server the project did not write, over loopback and libcurl.
///
/// moto checks every SigV4 signature after the seeding's first three requests, so a listing that
/// comes back at all was signed right: its path, its query with a non-ASCII prefix, its tokens.
@Suite(.serialized) struct S3ListingMotoTests {
    /// 5,000 keys: nested prefixes, spaces, non-ASCII, and characters XML must escape.
    static let keys: [String] = (0..<5000).map { index in
        let kinds = ["photos/\(index % 10)/\(index % 7)/img \(index).jpg", "fotos/über straße/\(index).png",
                     "写真/\(index % 3)/ファイル\(index).webp", "odd/a&b <c> 'd' \"e\" +=%\(index)", "deep/a/b/c/d/e/f/\(index)"]
        return kinds[index % kinds.count]
    }

    static let server = Task { try await MotoS3Server.start(bucket: "night-bucket", keys: keys) }

    func lister(_ server: MotoS3Server, secret: String? = nil, pageSize: Int = 1000) throws -> S3BucketLister {
        try S3BucketLister(
            address: S3BucketAddress(endpoint: server.endpoint, region: server.region, bucket: "night-bucket"),
            credentials: S3Credentials(accessKeyID: server.accessKeyID, secret: secret ?? server.secret),
            hashing: LibcryptoSigV4Hashing(), transport: CurlTransport(), clock: SystemClock(), pageSize: pageSize)
    }

    func listAll(_ lister: S3BucketLister, prefix: String) async throws -> (keys: [String], pages: [Int], skipped: Int) {
        let keys = Recorder<String>()
        let sizes = Recorder<Int>()
        let summary = try await lister.list(prefix: prefix) { page in
            for object in page.objects { keys.append(object.key) }
            sizes.append(page.objects.count)
            return .next
        }
        return (keys.all, sizes.all, summary.skipped)
    }

    @Test func everyKeyOfAFiveThousandObjectBucketIsListedExactlyOnceInPages() async throws {
        let server = try await Self.server.value
        let started = ContinuousClock.now
        let listed = try await listAll(lister(server, pageSize: 700), prefix: "")
        #expect(listed.keys.count == 5000)
        #expect(Set(listed.keys) == Set(Self.keys))
        #expect(listed.pages == Array(repeating: 700, count: 7) + [100])
        #expect(listed.skipped == 0)
        #expect(ContinuousClock.now - started < .seconds(60))
    }

    @Test func aNonASCIIPrefixWithASpaceListsOnlyItsKeys() async throws {
        let server = try await Self.server.value
        for prefix in ["fotos/über straße/", "写真/1/"] {
            let listed = try await listAll(lister(server, pageSize: 150), prefix: prefix)
            let expected = Self.keys.filter { $0.utf8.starts(with: prefix.utf8) }
            #expect(!expected.isEmpty)
            #expect(listed.keys.sorted() == expected.sorted())
        }
    }

    @Test func aContinuationTokenWithPlusSlashAndEqualsPassesTheSignatureCheck() async throws {
        let server = try await Self.server.value
        let lister = try lister(server)
        let request = lister.request(prefix: "photos/", token: "AbC+/x==")
        #expect(request.url.contains("continuation-token=AbC%2B%2Fx%3D%3D"))
        let answer = try await CurlTransport().send(request)
        #expect(!String(decoding: answer.bodyBytes, as: UTF8.self).contains("SignatureDoesNotMatch"))
        if !answer.isSuccess {
            let refusal = S3ErrorAnswer.refusal(status: answer.status, body: answer.bodyBytes)
            #expect(!refusal.isAuthorizationFailure, "moto refused the signature: \(refusal)")
        }
    }

    @Test func aWrongSecretIsASignatureErrorThatNamesNoSecret() async throws {
        let server = try await Self.server.value
        let wrong = "wrong-" + String(server.secret.dropFirst(6))
        let lister = try lister(server, secret: wrong)
        do {
            try await lister.list(prefix: "") { _ in .next }
            Issue.record("a wrong secret listed the bucket")
        } catch {
            guard case .refused(.signatureDoesNotMatch, 403, _) = error else {
                Issue.record("expected SignatureDoesNotMatch, got \(error)")
                return
            }
            #expect(error.isAuthorizationFailure)
            for text in [String(describing: error), String(reflecting: error)] {
                #expect(!text.contains(wrong) && !text.contains(server.secret))
            }
        }
    }
}
