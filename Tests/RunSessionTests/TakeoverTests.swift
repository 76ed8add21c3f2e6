import AssemblyLine
import Foundation
import SQLiteLedger
import TestSupport
import Testing

/// A plain run takes over its job's killed or interrupted run (issue 33, item 2): it follows the Assemblies that run made,
/// makes none of them again, sends the rest, and the old run ends superseded.
@Suite struct TakeoverTests {
    /// A run stopped while its first result downloads (its Assemblies made, completed at the scripted service), or with
    /// `atFirstStatus` at its first status request (its Assemblies made, none seen to end), recorded `running` again as a
    /// run whose process was killed leaves it.
    static func killedRun(_ harness: SessionHarness, atFirstStatus: Bool = false) async throws -> RunOutcome {
        let stop = RunStop()
        if atFirstStatus {
            harness.service.stopAtFirstStatus(stop)
        } else {
            harness.service.stopAtFirstDownload(stop)
        }
        let stopped = try await harness.run(stop: stop)
        try #require(stopped.state == .interrupted && !harness.service.created.isEmpty)
        let connection = try SQLiteConnection(path: SQLiteLedger.path(inStateDirectory: harness.stateDirectory), mode: .readWrite)
        try connection.execute("UPDATE runs SET state = 'running', finished_at = NULL WHERE id = ?", [.text(stopped.runID.rawValue)])
        try await harness.clock.sleep(for: .seconds(60))
        return stopped
    }

    static let files = ["a.txt": "1\n", "b.txt": "22\n", "c.txt": "333\n", "d.txt": "4444\n", "e.txt": "55555\n"]

    @Test func aKilledRunsAssembliesAreFollowedNotMadeAgainTheRestSentAndItEndsSuperseded() async throws {
        let harness = try SessionHarness(files: Self.files)
        let killed = try await Self.killedRun(harness)
        let made = harness.service.created
        let withAssembly: Set<ShardState> = [.signed, .created, .uploaded, .executing, .completed]
        let followed = try await harness.ledger { try await $0.shards(of: killed.runID) }.filter { withAssembly.contains($0.state) }

        let next = try await harness.run()

        let takeover = try #require(harness.observer.starts.all.last?.takeover)
        #expect(takeover.run == killed.runID && takeover.followed == followed.count && takeover.lost == 0, "\(takeover)")
        #expect(takeover.filesDone == followed.reduce(0) { $0 + $1.fileCount })
        let killedShards = try await harness.ledger { try await $0.shards(of: killed.runID) }
        let doneBefore = killedShards.filter { $0.state == .downloaded }.reduce(0) { $0 + $1.fileCount }
        #expect(next.state == .finished && next.summary.filesByState[.skipped] == doneBefore && next.summary.filesByState[.done] == 5 - doneBefore)
        let again = harness.service.created.dropFirst(made.count)
        #expect(again.count == (5 - doneBefore + 1) / 2, "Assemblies only for the files it never sent, two a shard: \(again.count)")
        let record = try await harness.ledger { try await $0.run(killed.runID).record }
        #expect(record.state == .superseded && record.supersededBy == next.runID)
        #expect(try await harness.resumption(of: killed.runID) == .superseded(killed.runID, by: next.runID), "a resume of it creates nothing")
        for (name, text) in Self.files { #expect(harness.output(name) == text, "\(name)") }
    }

    @Test func assembliesTheServiceNoLongerKnowsAreMadeAgainAndTheirLeftoversRemoved() async throws {
        let harness = try SessionHarness(files: Self.files)
        let killed = try await Self.killedRun(harness)
        harness.service.forgetAssemblies()
        // What its downloads left in the output, as a killed run's are left: each pending result's temporary file.
        var leftovers: [String] = []
        try await harness.ledger { ledger in
            for shard in try await ledger.shards(of: killed.runID) {
                for record in try await ledger.results(of: killed.runID, shard: shard.index) where record.needsDownload {
                    let path = try #require(record.result.outputPath)
                    leftovers.append(ResultDownloader.temporaryPath(for: path, of: record.result))
                }
            }
        }
        try #require(!leftovers.isEmpty)
        for path in leftovers { try Data("half".utf8).write(to: URL(fileURLWithPath: path)) }

        let next = try await harness.run()

        let takeover = try #require(harness.observer.starts.all.last?.takeover)
        // A shard whose results were all in place before the kill ends done without a fetch; the others' results were gone.
        #expect(takeover.lost > 0, "the Assemblies were gone: \(takeover)")
        let files = next.summary.filesByState
        #expect(next.state == .finished && (files[.done] ?? 0) + (files[.skipped] ?? 0) == 5 && (files[.done] ?? 0) >= takeover.lost,
                "the files of the shards lost were sent again: \(files)")
        #expect(leftovers.allSatisfy { !FileManager.default.fileExists(atPath: $0) }, "no download of the killed run is left half")
        let names = try FileManager.default.contentsOfDirectory(atPath: harness.outputDirectory)
        #expect(!names.contains { $0.hasSuffix(".part") }, "\(names)")
    }

    /// The takeover follows a killed run's Assemblies; those that crashed meanwhile (a Template's) are replayed on their
    /// stored uploads, not made again: no file is uploaded twice.
    @Test func crashedAssembliesOfAKilledRunAreReplayedByTheTakeover() async throws {
        let harness = try SessionHarness(files: Self.files)
        harness.service.executeFirst()
        let stopped = try await Self.killedRun(harness, atFirstStatus: true)
        // The Assemblies the killed run had not seen complete: each crashes at the service.
        let running: Set<ShardState> = [.signed, .created, .uploaded, .executing]
        let crashed = try await harness.ledger { ledger in
            var ids: [String] = []
            for shard in try await ledger.shards(of: stopped.runID) where running.contains(shard.state) {
                ids += try await ledger.attempts(of: stopped.runID, shard: shard.index).suffix(1).map(\.assemblyID.rawValue)
            }
            return ids
        }
        try #require(!crashed.isEmpty)
        harness.service.crash(crashed)

        let next = try await harness.run()

        #expect(next.state == .finished)
        #expect(harness.service.replayedParents.sorted() == crashed.sorted(), "each crashed Assembly replayed")
        #expect(harness.service.uploaded.sorted() == Self.files.keys.sorted(), "every file uploaded once, none twice")
        for (name, text) in Self.files { #expect(harness.output(name) == text, "\(name)") }
    }

    @Test func aFailedRunIsLeftToResumeNotTakenOver() async throws {
        let harness = try SessionHarness()
        harness.service.fail("b.txt")
        let failed = try await harness.run()
        try #require(failed.state == .failed)
        try await harness.clock.sleep(for: .seconds(60))

        let next = try await harness.run()

        #expect(harness.observer.starts.all.last?.takeover == nil)
        #expect(try await harness.ledger { try await $0.run(failed.runID).record.state } == .failed)
        #expect(next.state == .finished, "b.txt is known bad: \(next.summary.filesByState)")
    }
}
