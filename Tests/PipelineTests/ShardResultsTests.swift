import AssemblyLine
import Digests
import Foundation
import HTTPMessages
import SQLiteLedger
import TestSupport
import Testing

/// What becomes of each result of a completed Assembly, in-process: production-shaped entries,
/// export results, storage's refusals, and a file the Assembly made nothing for.
@Suite struct ShardResultsTests {
    /// One result entry for input `index` of the harness, with its MD5 and no `id` or `size` (both optional in node-sdk's schema).
    static func bareEntry(_ harness: ShardHarness, _ index: Int, url: String, temporary: Bool? = nil) -> String {
        let flag = temporary.map { #","is_temp_url":\#($0)"# } ?? ""
        return #"{"name":"out-\#(index).txt","ext":"txt","original_id":["u\#(index)"],"#
            + #""md5hash":"\#(Hex.encode(Digest.md5(harness.contents[index])))","ssl_url":"\#(url)"\#(flag)}"#
    }

    /// A completed status's `results` and the `uploads` that map `u<index>` to `file_<index>`.
    static func completed(_ results: String, id: String) -> String {
        #"{"ok":"ASSEMBLY_COMPLETED","assembly_id":"\#(id)","assembly_ssl_url":"\#(ShardHarness.machine)/assemblies/\#(id)","#
            + #""uploads":[{"id":"u0","field":"file_0"},{"id":"u1","field":"file_1"}],"results":\#(results)}"#
    }

    @Test func aResultWithoutIDOrSizeIsDownloadedAndAFileWithoutResultIsNotDone() async throws {
        let harness = try await ShardHarness()
        harness.acceptCreation()
        let entry = Self.bareEntry(harness, 0, url: "https://tmp.test/r0/out-0.txt")
        harness.transport.script(.get, "\(ShardHarness.machine)/assemblies/") {
            .json(200, Self.completed(#"{"copy":[\#(entry), 7]}"#, id: ShardHarness.assemblyID(of: $0)))
        }
        harness.transport.script(.get, "https://tmp.test/r0/") { [harness] _ in .bytes(200, harness.contents[0]) }

        #expect(try await harness.runShard() == .downloaded)

        #expect(harness.output(0) == harness.contents[0] && harness.output(1) == nil)
        #expect(try await harness.ledger.files(of: harness.run).map(\.state) == [.done, .noResult])
        let results = try await harness.ledger.results(of: harness.run, shard: 0)
        #expect(results.count == 1 && results[0].result.remoteID == nil && results[0].result.size == nil && results[0].isDownloaded)
        #expect(harness.events.first { $0.kind == .completed }?.detail == .results(count: 1, unreadable: 1, unmatched: 0))
    }

    @Test func theResultsOfAShardAreRecordedInOneCommitOnceAllArePlaced() async throws {
        let harness = try await ShardHarness()
        harness.acceptCreation()
        harness.answerPolls(executing: 1)
        harness.serveResults()
        let passed = Recorder<PipelineCheckpoint>()

        #expect(try await harness.runShard(checkpoint: passed.sink) == .downloaded)

        let downloads = passed.all.filter { $0 == .afterRename || $0 == .afterDownloadCommit }
        #expect(downloads == [.afterRename, .afterRename, .afterDownloadCommit])
        let results = try await harness.ledger.results(of: harness.run, shard: 0)
        #expect(results.map(\.fetches) == [1, 1] && results.allSatisfy(\.isDownloaded))
        #expect(harness.output(0) == harness.contents[0] && harness.output(1) == harness.contents[1])
    }

    @Test func exportResultsAreRecordedAndNeverFetched() async throws {
        let harness = try await ShardHarness()
        harness.acceptCreation()
        let stored = (0..<2).map { Self.bareEntry(harness, $0, url: "https://bucket.storage.test/out-\($0).txt", temporary: false) }
        harness.transport.script(.get, "\(ShardHarness.machine)/assemblies/") {
            .json(200, Self.completed(#"{"store":[\#(stored.joined(separator: ","))]}"#, id: ShardHarness.assemblyID(of: $0)))
        }

        #expect(try await harness.runShard(steps: ResultSelection(downloaded: [], exported: ["store"])) == .downloaded)

        #expect(harness.transport.requests(.get, "https://bucket.storage.test/").isEmpty)
        #expect(try await harness.ledger.files(of: harness.run).map(\.state) == [.done, .done])
        let results = try await harness.ledger.results(of: harness.run, shard: 0)
        #expect(results.map(\.result.delivery) == [.exported, .exported] && results.allSatisfy { !$0.isDownloaded && !$0.result.isTemporary })
        #expect(results.map(\.result.url) == ["https://bucket.storage.test/out-0.txt", "https://bucket.storage.test/out-1.txt"])
    }

    @Test func privateStorageFailsItsFileAloneAndNamesTheStep() async throws {
        let harness = try await ShardHarness()
        harness.acceptCreation()
        let entries = [Self.bareEntry(harness, 0, url: "https://tmp.test/r0/out-0.txt", temporary: true),
                       Self.bareEntry(harness, 1, url: "https://bucket.storage.test/out-1.txt", temporary: false)]
        harness.transport.script(.get, "\(ShardHarness.machine)/assemblies/") {
            .json(200, Self.completed(#"{"exported":[\#(entries.joined(separator: ","))]}"#, id: ShardHarness.assemblyID(of: $0)))
        }
        harness.transport.script(.get, "https://tmp.test/r0/") { [harness] _ in .bytes(200, harness.contents[0]) }
        harness.transport.script(.get, "https://bucket.storage.test/") { _ in .bytes(403, Array("<Error>AccessDenied</Error>".utf8)) }

        #expect(try await harness.runShard() == .downloaded)

        let files = try await harness.ledger.files(of: harness.run)
        #expect(files.map(\.state) == [.done, .failed])
        #expect(files[1].failure?.code == .resultNotDownloadable && files[1].failure?.isRetryable == false)
        #expect(files[1].failure?.message.contains("step exported (HTTP 403)") == true)
        #expect(files[1].failure?.message.contains("output.steps") == true)
        #expect(harness.transport.requests(.get, "https://bucket.storage.test/").count == 1)
        #expect(harness.transport.requests(.post, "/assemblies/").count == 1)
    }

    @Test func aTemporaryResultRefusedWith403IsGoneAndTheShardRunsAgain() async throws {
        let harness = try await ShardHarness()
        harness.acceptCreation()
        harness.acceptCreation()
        let entries = (0..<2).map { Self.bareEntry(harness, $0, url: "https://tmp.test/r\($0)/out-\($0).txt", temporary: true) }
        harness.transport.script(.get, "\(ShardHarness.machine)/assemblies/", times: 2) {
            .json(200, Self.completed(#"{"copy":[\#(entries.joined(separator: ","))]}"#, id: ShardHarness.assemblyID(of: $0)))
        }
        harness.transport.script(.get, "https://tmp.test/r0/") { _ in .bytes(403, []) }
        harness.transport.script(.get, "https://tmp.test/r0/") { [harness] _ in .bytes(200, harness.contents[0]) }
        harness.transport.script(.get, "https://tmp.test/r1/", times: 2) { [harness] _ in .bytes(200, harness.contents[1]) }

        #expect(try await harness.runShard() == .downloaded)

        #expect(Set(harness.transport.requests(.post, "/assemblies/").map(ShardHarness.assemblyID)).count == 2)
        #expect(try await harness.ledger.files(of: harness.run).map(\.state) == [.done, .done])
        #expect(harness.output(0) == harness.contents[0])
    }

    @Test func aTemporaryResultIsFetchedAtMostTenTimes() async throws {
        let harness = try await ShardHarness()
        harness.acceptCreation()
        let entry = #"{"name":"out-0.txt","ext":"txt","field":"file_0","size":999,"ssl_url":"https://tmp.test/r0/out-0.txt","is_temp_url":true}"#
        harness.transport.script(.get, "\(ShardHarness.machine)/assemblies/") {
            .json(200, Self.completed(#"{"copy":[\#(entry)]}"#, id: ShardHarness.assemblyID(of: $0)))
        }
        harness.transport.script(.get, "https://tmp.test/r0/", times: 20) { [harness] _ in .bytes(200, harness.contents[0]) }

        // Each try fetches it again (its size never matches); the eleventh would be refused, so a new Assembly is asked for.
        #expect(try await harness.runShard(attempts: 13) == .failed)
        #expect(harness.transport.requests(.get, "https://tmp.test/r0/").count == 10)
        #expect(try await harness.ledger.results(of: harness.run, shard: 0).map(\.fetches) == [10])
        #expect(harness.events.contains {
            guard case let .retry(reason, _, _, _) = $0.detail else { return false }
            return reason.code == .resultFetchLimit && reason.message.hasPrefix("out-0.txt was fetched 10 times")
        })
        #expect(harness.transport.requests(.post, "/assemblies/").count == 2)
    }
}
