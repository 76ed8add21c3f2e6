import AssemblyLine
import Digests
import Foundation
import HTTPMessages
import SQLiteLedger
import TestSupport
import Testing

/// A result listed before its Assembly completes is put in place, verified, once; the ledger records it at the completion.
@Suite struct ResultPrefetchTests {
    @Test func aResultListedWhileTheAssemblyExecutesIsFetchedOnceAndKeptAtTheCompletion() async throws {
        let harness = try await ShardHarness()
        let early = #"{"copy":[\#(harness.resultEntry(0))]}"#
        harness.transport.script(.post, "/assemblies/") { .json(200, ShardHarness.status("ASSEMBLY_EXECUTING", id: ShardHarness.assemblyID(of: $0), results: early)) }
        harness.answerPolls(executing: 0)
        harness.serveResults()

        #expect(try await harness.runShard() == .downloaded)

        #expect(harness.transport.requests(.get, "https://tmp.test/r0/").count == 1)
        #expect(harness.transport.requests(.get, "https://tmp.test/r1/").count == 1)
        #expect(harness.output(0) == harness.contents[0] && harness.output(1) == harness.contents[1])
        let results = try await harness.ledger.results(of: harness.run, shard: 0)
        #expect(results.count == 2 && results.allSatisfy(\.isDownloaded))
    }

    @Test func aResultWithoutItsFieldWaitsForTheCompletion() async throws {
        let harness = try await ShardHarness()
        let zip = #"{"copy":[{"id":"r9","name":"zip.zip","ssl_url":"https://tmp.test/r9/zip.zip"}]}"#
        harness.transport.script(.post, "/assemblies/") { .json(200, ShardHarness.status("ASSEMBLY_EXECUTING", id: ShardHarness.assemblyID(of: $0), results: zip)) }
        harness.answerPolls(executing: 0)
        harness.serveResults()

        #expect(try await harness.runShard() == .downloaded)

        #expect(harness.transport.requests(.get, "https://tmp.test/r9/").isEmpty)
    }
}
