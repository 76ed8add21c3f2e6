import AssemblyLine
import Digests
import Foundation
import HTTPMessages
import SQLiteLedger
import TestSupport
import Testing

/// A result listed before its Assembly completes is fetched once, and placed, verified, with the shard's other downloads;
/// the ledger records it at the completion.
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

    @Test func aResultTheCompletionNamesAtAnotherURLIsFetchedAnewFromThere() async throws {
        let harness = try await ShardHarness()
        let early = #"{"copy":[\#(harness.resultEntry(0))]}"#
        let moved = harness.resultEntry(0).replacingOccurrences(of: "https://tmp.test/r0/", with: "https://tmp.test/moved/r0/")
        harness.transport.script(.post, "/assemblies/") { .json(200, ShardHarness.status("ASSEMBLY_EXECUTING", id: ShardHarness.assemblyID(of: $0), results: early)) }
        harness.answerPolls(executing: 0, results: #"{"copy":[\#(moved),\#(harness.resultEntry(1))]}"#)
        harness.serveResults()
        harness.transport.script(.get, "https://tmp.test/moved/r0/") { [contents = harness.contents] _ in .bytes(200, contents[0]) }

        #expect(try await harness.runShard() == .downloaded)

        #expect(harness.transport.requests(.get, "https://tmp.test/r0/").count == 1, "fetched early")
        #expect(harness.transport.requests(.get, "https://tmp.test/moved/r0/").count == 1, "fetched again where the completion says")
        #expect(harness.output(0) == harness.contents[0] && harness.output(1) == harness.contents[1])
        let left = try FileManager.default.subpathsOfDirectory(atPath: harness.directory.file("out"))
        #expect(left.sorted() == ["in-0.txt", "in-1.txt"], "no temp file left")
    }

    @Test func aResultListedWhileExecutingAndDroppedAtTheCompletionLeavesNoFile() async throws {
        let harness = try await ShardHarness()
        let early = #"{"copy":[\#(harness.resultEntry(0))]}"#
        harness.transport.script(.post, "/assemblies/") { .json(200, ShardHarness.status("ASSEMBLY_EXECUTING", id: ShardHarness.assemblyID(of: $0), results: early)) }
        harness.answerPolls(executing: 0, results: #"{"copy":[\#(harness.resultEntry(1))]}"#)
        harness.serveResults()

        _ = try await harness.runShard()

        #expect(harness.transport.requests(.get, "https://tmp.test/r0/").count == 1, "fetched early")
        #expect(harness.output(0) == nil, "the completed status never confirmed it")
        let left = try FileManager.default.subpathsOfDirectory(atPath: harness.directory.file("out"))
        #expect(left == ["in-1.txt"], "no temp file left")
    }

    @Test func aPrefetchNoDownloadStepTookIsUnlinkedWhenTheShardEnds() async throws {
        let directory = try TemporaryDirectory()
        let result = ResultDownloaderBoundTests.result(declared: 3, at: directory.file("out/a.jpg"))
        let prefetched = PrefetchedTransfers()
        try await Self.prefetch(result, into: prefetched)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.file("out")).count == 1, "the temp file")

        prefetched.discardAll()

        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.file("out")).isEmpty)
        #expect(prefetched.take(for: result) == nil)
    }

    @Test func aPrefetchIsTakenOnlyForItsURLAndThenPlacedAsTheCompletionSays() async throws {
        let directory = try TemporaryDirectory()
        let result = ResultDownloaderBoundTests.result(declared: 3, at: directory.file("out/a.jpg"))
        let prefetched = PrefetchedTransfers()
        try await Self.prefetch(result, into: prefetched)
        var elsewhere = result
        elsewhere.url = "https://tmp.test/other/a.jpg"
        #expect(prefetched.take(for: elsewhere) == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.file("out")).isEmpty, "its temp file unlinked")

        try await Self.prefetch(result, into: prefetched)
        var declaredOtherwise = result
        declaredOtherwise.size = 4
        let taken = try #require(prefetched.take(for: declaredOtherwise))
        #expect(prefetched.take(for: result) == nil, "taken once")
        let placed = await ResultDownloaderBoundTests.downloader(serving: 0, maxResultSize: 100).place([taken])
        #expect(placed.map { (try? $0.get()) == nil } == [true], "checked against the size the completion gives")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.file("out")).isEmpty, "nothing placed, no temp file")
    }

    /// Fetches `result` (3 bytes) into its temp file, as a prefetch does, and keeps the transfer in `prefetched`.
    private static func prefetch(_ result: NewResult, into prefetched: PrefetchedTransfers) async throws {
        let downloader = ResultDownloaderBoundTests.downloader(serving: 3, maxResultSize: 100)
        prefetched.keep(try #require(try await downloader.transfer(result, shard: 0)))
    }
}
