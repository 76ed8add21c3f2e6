import AssemblyLine
import Digests
import Foundation
import HTTPMessages
import TestSupport
import Testing

/// A result's body stops at its declared size, at `limits.max_result_size` when a larger one is declared, or at
/// `limits.max_undeclared_result_size` when none is: a service that streams on cannot fill the disk, and nothing
/// reaches the output.
@Suite struct ResultDownloaderBoundTests {
    static let url = "https://tmp.test/r/a.jpg"

    /// A downloader against a transport that answers the result with `served` bytes.
    static func downloader(serving served: Int, maxResultSize: Int64, maxUndeclared: Int64 = ManifestDefaults.maxUndeclaredResultSize)
        -> ResultDownloader {
        let transport = ScriptedTransport()
        transport.script(.get, url) { _ in .bytes(200, Array(repeating: 7, count: served)) }
        let client = TransloaditClient(transport: transport, endpoint: "https://api2.test")
        return ResultDownloader(client: client, digester: LibcryptoFileDigester(),
                                limits: ResultLimits(maxResultSize: maxResultSize, maxUndeclaredResultSize: maxUndeclared))
    }

    static func result(declared size: Int64?, at path: String) -> NewResult {
        NewResult(source: .file(0), step: "thumb", remoteID: "r1", name: "a.jpg", url: url, size: size, md5: nil,
                  mime: "image/jpeg", width: nil, height: nil, delivery: .download(to: path))
    }

    @Test(arguments: [
        (declared: Int64?.some(3), max: Int64(1_000), undeclared: Int64(1_000), served: 5_000, bound: "its declared 3 bytes"),
        (declared: nil, max: 100, undeclared: 1_000, served: 101, bound: "limits.max_result_size (100 bytes)"),
        (declared: 200, max: 100, undeclared: 1_000, served: 150, bound: "limits.max_result_size (100 bytes)"),
        (declared: nil, max: 1_000, undeclared: 100, served: 101, bound: "limits.max_undeclared_result_size (100 bytes)"),
        (declared: 500, max: 1_000, undeclared: 100, served: 501, bound: "its declared 500 bytes"),
    ])
    func aBodyPastItsBoundFailsTheResultAndLeavesNothing(declared: Int64?, max: Int64, undeclared: Int64, served: Int, bound: String)
        async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("out/a.jpg")
        let downloader = Self.downloader(serving: served, maxResultSize: max, maxUndeclared: undeclared)
        await #expect(throws: TransloaditError(code: .resultTooLarge,
                                               message: "a.jpg of step thumb ran past \(bound); the download stopped there",
                                               isRetryable: true)) {
            try await downloader.transfer(Self.result(declared: declared, at: path), shard: 0)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.file("out")).isEmpty, "no output, no temp file")
    }

    @Test func aBodyOfExactlyItsBoundIsDownloaded() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("out/a.jpg")
        let downloader = Self.downloader(serving: 100, maxResultSize: 100)
        let transfer = try #require(try await downloader.transfer(Self.result(declared: nil, at: path), shard: 0))
        #expect(transfer.bytes == 100)
        #expect(await downloader.place([transfer]).allSatisfy { (try? $0.get()) != nil })
        #expect(FileManager.default.contents(atPath: path)?.count == 100)
    }

    @Test func aResultThatWouldLeaveLessThanTheFreeSpaceFloorIsNotFetched() async throws {
        let directory = try TemporaryDirectory()
        let transport = ScriptedTransport()
        transport.script(.get, Self.url) { _ in .bytes(200, [7]) }
        let downloader = ResultDownloader(client: TransloaditClient(transport: transport, endpoint: "https://api2.test"),
                                          digester: LibcryptoFileDigester(), limits: ResultLimits(maxResultSize: 1 << 60))
        let error = await #expect(throws: TransloaditError.self) {
            try await downloader.transfer(Self.result(declared: 1 << 50, at: directory.file("out/a.jpg")), shard: 0)
        }
        #expect(error?.code == .outputSpaceLow && error?.isRetryable == false, "\(String(describing: error))")
        #expect(error?.message.hasSuffix("for its 1125899906842624 bytes, and no download leaves less than limits.min_free_space (1GiB); "
                                         + "free some space, then resume the run") == true, "\(String(describing: error))")
        #expect(transport.requests.isEmpty, "nothing was asked")
    }

    @Test func aDeclaredSizePastTheUndeclaredBoundIsDownloaded() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("out/a.jpg")
        let downloader = Self.downloader(serving: 500, maxResultSize: 1_000, maxUndeclared: 100)
        #expect(try await downloader.transfer(Self.result(declared: 500, at: path), shard: 0)?.bytes == 500)
    }
}
