import AssemblyLine
import ConfigFormat
import Foundation
import SQLiteLedger
import TestSupport
import Testing

/// The read side's use cases in-process: reports, details, pages, listings, the history, a batch's report and
/// coverage, a run's metrics and where its ledger is, each on a real ledger written by real runs on the manual clock.
@Suite struct ReportUseCaseTests {
    /// The harness's ledgers, opened as the CLI opens them.
    static let store = SQLiteLedgerStore()

    @Test func aRunsReportHoldsTheFilesItsSelectionAsksForAndPagesHoldEveryFileWithItsOutputs() async throws {
        let harness = try SessionHarness()
        harness.service.fail("b.txt")
        let outcome = try await harness.run()
        let locator = LedgerLocator(scope: .stateDirectory(harness.stateDirectory), store: Self.store)

        let (problems, everything, paged) = try await locator.withRun(nil) { ledger, id, directory in
            let problems = try await RunReport.read(id, from: ledger, in: directory, files: .only([.failed, .knownBad, .noResult]))
            let everything = try await RunReport.read(id, from: ledger, in: directory, files: .all, results: true)
            var paged: [ReportedFile] = []
            try await FilePages.everyFile(ledger, id, shards: everything.shards).forEach { paged += $0.files }
            return (problems, everything, paged)
        }

        #expect(problems.run.id == outcome.runID, "latest is the newest run")
        #expect(problems.files.map(\.file.relativePath) == ["b.txt"] && problems.results.isEmpty)
        #expect(problems.failuresByCode.map(\.code) == ["IMAGE_RESIZE_ERROR"])
        #expect(problems.statistics.assembliesCreated == harness.service.created.count)
        #expect(everything.files.count == 3 && !everything.results.isEmpty)
        let outputs = Dictionary(uniqueKeysWithValues: everything.filesWithOutputs.map { ($0.record.file.relativePath, $0.outputs) })
        #expect(outputs["a.txt"] == ["\(harness.outputDirectory)/a.txt"] && outputs["b.txt"] == [])
        #expect(paged.map(\.record.file.relativePath).sorted() == ["a.txt", "b.txt", "c.txt"])
        #expect(paged.first { $0.record.file.relativePath == "c.txt" }?.outputs == ["\(harness.outputDirectory)/c.txt"],
                "the pages carry each file's outputs as the whole report does")
    }

    @Test func pagesReadInTurnWithASecondConnectionComeInFileOrderAsFromOne() async throws {
        let harness = try SessionHarness()
        _ = try await harness.run()
        let statements = Recorder<String>()
        let second = SQLiteLedgerStore(trace: statements.sink)
        let locator = LedgerLocator(scope: .stateDirectory(harness.stateDirectory), store: Self.store)

        let (alone, inTurn) = try await locator.withRun(nil) { ledger, id, directory in
            let shards = try await ledger.shards(of: id)
            var alone: [ReportedFile] = [], inTurn: [ReportedFile] = []
            try await FilePages.everyFile(ledger, id, shards: shards).forEach { alone += $0.files }
            try await second.withExistingLedger(in: directory) { reader in
                let reader = try #require(reader)
                try await FilePages.everyFile(ledger, id, shards: shards, alongside: [reader]).forEach { inTurn += $0.files }
            }
            return (alone, inTurn)
        }

        #expect(alone.map(\.record.file.relativePath) == ["a.txt", "b.txt", "c.txt"] && inTurn == alone)
        #expect(statements.all.contains { $0.contains("FROM files") && $0.contains("shard_index IS NULL") },
                "the second connection read the second page: the files in no shard")
    }

    @Test func aRunsDetailListsTheFilesNotDoneFirstWithinItsBudgetAndEveryAttempt() async throws {
        let harness = try SessionHarness(files: ["a.txt": "1\n", "b.txt": "2\n", "c.txt": "3\n", "d.txt": "4\n", "e.txt": "5\n"])
        harness.service.fail("d.txt")
        let outcome = try await harness.run()

        let detail = try await harness.ledger { ledger in
            let report = try await RunReport.read(outcome.runID, from: ledger, in: harness.stateDirectory, files: .only([.failed]))
            return try await RunDetail.read(report, from: ledger, files: 3)
        }

        #expect(detail.files.map(\.record.file.relativePath) == ["d.txt", "a.txt", "b.txt"], "the failed file, then the first done ones")
        #expect(detail.files[1].outputs == ["\(harness.outputDirectory)/a.txt"] && detail.files[1].outputBytes > 0)
        #expect(Set(detail.attempts.map(\.shardIndex)) == [0, 1, 2] && detail.attempts.count == harness.service.created.count)
    }

    @Test func theLocatorFindsARunByItsIndexOrSaysThereIsNoLedger() async throws {
        let harness = try SessionHarness()
        let outcome = try await harness.run()
        let elsewhere = try TemporaryDirectory()
        let index = RunIndex(environment: ["XDG_STATE_HOME": elsewhere.file("xdg"), "TMPDIR": elsewhere.file("tmp")])
        #expect(index.record(outcome.runID, stateDirectory: harness.stateDirectory) == nil)
        let unnamed = LedgerLocator(scope: .unnamed(defaultDirectory: elsewhere.file("runs"), index: index), store: Self.store)

        let located = try await unnamed.locate(outcome.runID)
        let newest = try await unnamed.withRun(nil) { _, id, directory in (id, directory) }

        #expect(located.stateDirectory == harness.stateDirectory && located.run == outcome.runID)
        #expect(newest.0 == outcome.runID && newest.1 == harness.stateDirectory, "no ledger in ./runs: the index's newest run")
        let empty = LedgerLocator(scope: .stateDirectory(elsewhere.file("runs")), store: Self.store)
        await #expect(throws: LedgerReadError.noLedger(path: "at \(elsewhere.file("runs"))/ledger.sqlite", hint: "no run has been recorded there")) {
            _ = try await empty.withRun(nil) { _, id, _ in id }
        }
        let stranger = try #require(RunID("20990101T000000Z-0c0c0c"))
        await #expect(throws: LedgerError.runNotFound(stranger)) {
            _ = try await LedgerLocator(scope: .stateDirectory(harness.stateDirectory), store: Self.store).withRun(stranger) { ledger, id, _ in
                try await ledger.run(id)
            }
        }
    }

    @Test func theListingAndTheHistoryTakeTheRunsOfTheirTimeNewestOrOldestFirst() async throws {
        let harness = try SessionHarness()
        harness.service.fail("b.txt")
        let first = try await harness.run()
        try await harness.clock.sleep(for: .seconds(3 * 86_400))
        let second = try await harness.run(retryFailed: true)
        let locator = LedgerLocator(scope: .stateDirectory(harness.stateDirectory), store: Self.store)
        let ledgers = LedgerSet(patterns: [harness.stateDirectory], store: Self.store)

        let newest = try await RunListing.recent(limit: 1, state: nil, since: nil, at: locator)
        let failed = try await RunListing.recent(limit: 20, state: .failed, since: nil, at: locator)
        let all = try await ledgers.withEach { try await RunHistory.read(since: .distantPast, job: nil, from: $0) }
        let recent = try await ledgers.withEach { [clock = harness.clock] opened in
            try await RunHistory.read(since: clock.now.addingTimeInterval(-86_400), job: nil, from: opened)
        }

        #expect(newest.entries.map(\.run.id) == [second.runID] && !newest.fromSeveralLedgers)
        #expect(newest.place == "\(harness.stateDirectory)/ledger.sqlite")
        #expect(Set(failed.entries.map(\.run.id)) == [first.runID, second.runID] && failed.entries.first?.run.id == second.runID)
        #expect(all.nights.map(\.label) == [first.runID.rawValue, second.runID.rawValue], "oldest first")
        #expect(all.nights[0].files(.failed) == 1 && all.nights[0].files(.done) == 2 && all.nights[1].files(.skipped) == 2)
        #expect(all.nights[0].assembliesCreated == 3 && all.nights[1].assembliesCreated == 1)
        #expect(recent.nights.map(\.label) == [second.runID.rawValue], "--since leaves the night three days back out")
    }

    @Test func aBatchsPartsMergeIntoOneReportThatCoversThePlanOnce() async throws {
        let harness = try SessionHarness(files: ["a.txt": "1\n", "b.txt": "2\n", "c.txt": "3\n", "d.txt": "4\n", "e.txt": "5\n", "f.txt": "6\n"])
        let batch = try #require(BatchID(rawValue: "night-1"))
        let manifest = try harness.manifest()
        var directories: [String] = []
        for index in 0..<2 {
            let directory = harness.directory.file("parts/\(index)")
            directories.append(directory)
            let part = try #require(Partition(index: index, count: 2))
            let session = RunSession(manifest: manifest.partitioned(part), stateDirectory: directory,
                                     adapters: ScriptedAdapters(transport: harness.service.transport, clock: harness.clock, embedded: true,
                                                                statements: harness.statements), batch: batch)
            _ = try await session.run(force: false, checksums: false, maxDuration: nil, observer: harness.observer, stop: RunStop())
        }
        let both = LedgerSet(patterns: [harness.directory.file("parts/*")], store: Self.store)
        let one = LedgerSet(patterns: [directories[0]], store: Self.store)

        let merged = try await both.withEach { try await BatchReport.read(batch, from: $0, files: .none) }
        let covered = try await both.withEach { try await BatchCoverage.check(manifest, batch: batch, in: $0, remote: harness.remoteInputs) }
        let half = try await one.withEach { try await BatchCoverage.check(manifest, batch: batch, in: $0, remote: harness.remoteInputs) }
        let listing = try await RunListing.runs(of: batch, state: nil, in: both)

        #expect(both.stateDirectories == directories)
        #expect(merged.count == 2 && merged.missing.isEmpty && merged.unfinished.isEmpty)
        #expect(merged.filesByState[.done] == 6 && merged.sum { Int64($0.statistics.assembliesCreated) } == Int64(harness.service.created.count))
        #expect(covered.problems == 0 && covered.planned == 6 && covered.found == [0, 1])
        let untaken = ["a.txt", "b.txt", "c.txt", "d.txt", "e.txt", "f.txt"].filter { Partition.part(of: $0, among: 2) == 1 }
        #expect(half.untaken == untaken && half.missingParts == [1], "the part whose ledger was not read took nothing")
        #expect(listing.entries.map(\.run.partition.index) == [0, 1] && listing.entries.map(\.stateDirectory) == directories)
        await #expect(throws: LedgerReadError.invalidBatch("no run of batch night-2 in the 2 ledgers read")) {
            _ = try await both.withEach { try await BatchReport.read(try #require(BatchID(rawValue: "night-2")), from: $0, files: .none) }
        }
    }

    @Test func aRunsMetricsAreItsEndAndWhatItMovedAsTheLedgerCountsThem() async throws {
        let harness = try SessionHarness()
        let outcome = try await harness.run()

        let metrics = try await RunMetrics.read(outcome, partition: .whole, stateDirectory: harness.stateDirectory, store: Self.store)

        let record = outcome.summary.record
        #expect(metrics.succeeded && metrics.manifestName == "session" && metrics.end == record.finishedAt)
        #expect(metrics.start == metrics.end.addingTimeInterval(-outcome.elapsed.timeInterval) && metrics.duration == outcome.elapsed)
        #expect(metrics.statistics.assembliesCreated == 2 && metrics.statistics.bytesSent > 0 && metrics.filesByState[.done] == 3)
        await #expect(throws: LedgerReadError.self) {
            _ = try await RunMetrics.read(outcome, partition: .whole, stateDirectory: harness.directory.file("none"), store: Self.store)
        }
    }
}
