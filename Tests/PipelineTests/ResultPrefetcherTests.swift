@testable import AssemblyLine
import Digests
import Foundation
import HTTPMessages
import SQLiteLedger
import TestSupport
import Testing

/// A result announced before its Assembly completes is put in place, verified, once; the ledger records nothing yet.
@Suite struct ResultPrefetcherTests {
    static func file(_ json: String) throws -> AssemblyFile {
        try JSONDecoder().decode(AssemblyFile.self, from: Data(json.utf8))
    }

    @Test func anAnnouncedResultLandsInPlaceOnceAndTheLedgerWaitsForTheCompletion() async throws {
        let harness = try await ShardHarness()
        harness.serveResults()
        let prefetcher = ResultPrefetcher(context: try harness.context(), shardIndex: 0)
        let bytes = harness.contents[0]
        let result = try Self.file(#"{"id":"r0","name":"out-0.txt","ext":"txt","field":"file_0","size":\#(bytes.count),"#
                                   + #""md5hash":"\#(Hex.encode(Digest.md5(bytes)))","ssl_url":"https://tmp.test/r0/out-0.txt"}"#)

        prefetcher.prefetch(result, step: "copy")
        prefetcher.prefetch(result, step: "copy")
        await prefetcher.settle()

        #expect(harness.output(0) == bytes)
        #expect(harness.transport.requests(.get, "https://tmp.test/r0/").count == 1)
        #expect(try await harness.ledger.results(of: harness.run, shard: 0).isEmpty)
    }

    @Test func aResultWithoutItsFieldWaitsForTheCompletion() async throws {
        let harness = try await ShardHarness()
        let prefetcher = ResultPrefetcher(context: try harness.context(), shardIndex: 0)
        prefetcher.prefetch(try Self.file(#"{"id":"r9","name":"zip.zip","ssl_url":"https://tmp.test/r9/zip.zip"}"#), step: "copy")
        await prefetcher.settle()
        #expect(harness.transport.requests.isEmpty)
    }
}
