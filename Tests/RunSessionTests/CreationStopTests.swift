import AssemblyLine
import Foundation
import TestSupport
import Testing

/// What stops a night's creations (issue 33, items 3 and 12): the failure breaker, and a local fault on the output.
@Suite struct CreationStopTests {
    /// Twenty files in ten shards of two, four in flight.
    static let files = Dictionary(uniqueKeysWithValues: (0..<20).map { ("f\($0 < 10 ? "0" : "")\($0).txt", "file \($0)\n") })

    @Test func theFirstShardsFailingAlikeStopTheCreationsAndAResumeAfterTheMendFinishes() async throws {
        let harness = try SessionHarness(files: Self.files)
        harness.service.breakAssemblies("INVALID_STEP_PARAMETER")

        let broken = try await harness.run()

        #expect(broken.creationStop == .breaker("INVALID_STEP_PARAMETER", shards: 5), "\(String(describing: broken.creationStop))")
        #expect(broken.state == .failed && broken.failures == ["INVALID_STEP_PARAMETER"])
        let made = harness.service.created.count
        #expect(made >= 5 && made < 10, "the five to end, and those in flight then; not one for every shard: \(made)")
        #expect((broken.summary.shardsByState[.planned] ?? 0) == 10 - made, "the rest are left pending, with no attempt")

        harness.service.breakAssemblies(nil)
        let mended = try await harness.resume(broken.runID)
        #expect(mended.state == .finished && mended.summary.filesByState[.done] == 20)
        #expect(harness.service.replayedParents.count == made, "each failed shard replays its Assembly (a Template's): \(made)")
        #expect(harness.service.created.count == 10, "a creation for each shard left, none again for a failed one")
        #expect(harness.service.uploaded.sorted() == Self.files.keys.sorted(), "every file uploaded once, none twice")
        let statistics = try await harness.ledger { try await $0.statistics(of: broken.runID) }
        #expect(statistics.bytesSent == Self.files.values.reduce(0) { $0 + Int64($1.utf8.count) }, "a replay sends no bytes")
        let report = try await harness.ledger { try await RunReport.read(broken.runID, from: $0, in: harness.stateDirectory, files: .none) }
        #expect(report.replays.map(\.parentAssemblyID).compactMap { $0?.rawValue }.sorted() == Array(harness.service.created.prefix(made)).sorted(),
                "the report names each replay's parent")
    }

    @Test func aResumeOfAStepsRecipeMakesTheFailedShardsAgainWithTheirFiles() async throws {
        let harness = try SessionHarness(files: Self.files)
        try harness.writeManifest(recipe: #"steps: {copy: {robot: "/file/filter", use: ":original"}}"#)
        harness.service.breakAssemblies("INVALID_STEP_PARAMETER")
        let broken = try await harness.run()
        let made = harness.service.created.count

        harness.service.breakAssemblies(nil)
        let mended = try await harness.resume(broken.runID)

        #expect(mended.state == .finished && harness.service.replayedParents.isEmpty, "no replay but of a Template")
        #expect(harness.service.created.count == made + 10)
    }

    @Test func aRefusedReplayFallsBackToACreationWithTheFiles() async throws {
        let harness = try SessionHarness(files: Self.files, extra: "limits: {failure_breaker: 0}")
        harness.service.breakAssemblies("INVALID_STEP_PARAMETER")
        let broken = try await harness.run()
        #expect(harness.service.created.count == 10)

        harness.service.breakAssemblies(nil)
        harness.service.refuseReplays()
        let mended = try await harness.resume(broken.runID)

        #expect(mended.state == .finished && mended.summary.filesByState[.done] == 20)
        #expect(harness.service.created.count == 20, "each shard refused its replay and uploaded its files again")
        #expect(harness.service.replayedParents.isEmpty)
    }

    @Test func filesThatFailAloneOrRetryableFailuresNeverTripTheBreaker() async throws {
        let harness = try SessionHarness(files: Self.files)
        for (name, _) in Self.files { harness.service.fail(name) }

        let outcome = try await harness.run()

        #expect(outcome.creationStop == nil, "each file failed alone, known bad: no shard failed for the recipe")
        #expect(harness.service.created.count >= 20, "every file was tried: \(harness.service.created.count)")
    }

    @Test func theBreakerIsOffWithZero() async throws {
        let harness = try SessionHarness(files: Self.files, extra: "limits: {failure_breaker: 0}")
        harness.service.breakAssemblies("INVALID_STEP_PARAMETER")

        let outcome = try await harness.run()

        #expect(outcome.creationStop == nil && harness.service.created.count == 10, "every shard tried its Assembly")
    }

    @Test func anOutputShortOfRoomStopsTheCreationsAtOnceAndAResumeDownloadsWithoutNewAssemblies() async throws {
        let harness = try SessionHarness(files: Self.files, extra: "limits: {min_free_space: 1024TiB}")

        let full = try await harness.run()

        guard case let .localFault(reason)? = full.creationStop else {
            Issue.record("not stopped by a local fault: \(String(describing: full.creationStop))")
            return
        }
        #expect(reason.code == .outputSpaceLow && full.failures.contains(.outputSpaceLow))
        let made = harness.service.created.count
        #expect(made < 10, "no Assembly for the shards not started when the first download met the fault: \(made)")

        try harness.writeManifest(extra: "")
        let resumed = try await harness.resume(full.runID)
        #expect(resumed.state == .finished && resumed.summary.filesByState[.done] == 20)
        #expect(harness.service.created.count == 10, "the shards whose downloads met the fault kept their Assemblies: none made twice")
    }
}
