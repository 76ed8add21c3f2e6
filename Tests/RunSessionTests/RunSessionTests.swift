import AssemblyLine
import Foundation
import HTTPMessages
import SQLiteLedger
import TestSupport
import Testing

/// The run as a use case, in-process: forecast, start, drive and finish of a real session on a real
/// ledger, against a scripted service on a manual clock.
@Suite struct RunSessionTests {
    @Test func aRunDoesEveryFileAndTheNightAfterSkipsThemWithoutARequest() async throws {
        let harness = try SessionHarness()

        let first = try await harness.run()

        #expect(first.state == .finished && first.failures.isEmpty)
        #expect(first.summary.filesByState[.done] == 3 && first.summary.record.state == .finished)
        #expect(harness.output("a.txt") == "first\n" && harness.output("c.txt") == "third, longest file\n")
        #expect(harness.service.created.count == 2, "three files in shards of two")
        let start = try #require(harness.observer.starts.all.first)
        #expect(start.runID == first.runID && start.shards.count == 2)
        #expect(harness.observer.outcomes.all.map(\.runID) == [first.runID])
        #expect(harness.observer.events.all.filter { $0.kind == .downloaded }.count == 2)

        let forecast = try await harness.session().forecast(force: false, checksums: true)
        #expect(forecast.incremental.skippedCount == 3 && forecast.incremental.plan.shards.isEmpty)
        let requests = harness.service.transport.requests.count
        let second = try await harness.run()
        #expect(second.state == .finished && second.runID != first.runID)
        #expect(second.summary.filesByState[.skipped] == 3 && second.summary.filesByState[.done] == 0)
        #expect(harness.service.transport.requests.count == requests, "a night with nothing to do sends nothing")
        let rows = try await harness.ledger { ledger in
            (try await ledger.files(of: second.runID).count, try await ledger.shards(of: second.runID).count)
        }
        #expect(rows == (0, 0), "and records its run and counts, no row a file: \(rows)")
        guard case let .new(recorded)? = harness.observer.starts.all.last?.origin else {
            Issue.record("the second run did not start as a new run")
            return
        }
        #expect(recorded.incremental.skippedCount == 3)
        #expect(try await harness.run(force: true).summary.filesByState[.done] == 3, "--force runs every file")
    }

    @Test func aForecastReadsNoLedgerIntoBeingAndSaysWhatRunsAgain() async throws {
        let harness = try SessionHarness()
        let before = try await harness.session().forecast(force: false, checksums: false)
        #expect(before.incremental.plan.fileCount == 3 && before.incremental.skippedCount == 0)
        #expect(!FileManager.default.fileExists(atPath: harness.stateDirectory), "plan and --dry-run write nothing")

        _ = try await harness.run()
        try FileManager.default.removeItem(atPath: "\(harness.outputDirectory)/b.txt")
        let after = try await harness.session().forecast(force: false, checksums: false)
        #expect(after.incremental.skipped(from: after.planned.plan).map(\.relativePath) == ["a.txt", "c.txt"])
        #expect(after.incremental.redone.map(\.file.relativePath) == ["b.txt"])
        #expect(after.incremental.redone.first?.findings.map(\.problem) == [.missing])
    }

    @Test func anInputThatCannotBeMadeFailsAloneAndTheOthersAreDone() async throws {
        let harness = try SessionHarness()
        harness.service.fail("b.txt")

        let outcome = try await harness.run()

        #expect(outcome.state == .failed && outcome.failures == ["IMAGE_RESIZE_ERROR"])
        #expect(outcome.summary.filesByState[.done] == 2 && outcome.summary.filesByState[.failed] == 1)
        let files = try await harness.ledger { try await $0.files(of: outcome.runID) }
        let failed = try #require(files.first { $0.state == .failed })
        #expect(failed.file.relativePath == "b.txt" && failed.failure?.message == "cannot read the image")
        #expect(harness.output("a.txt") != nil && harness.output("b.txt") == nil)
        let alone = harness.observer.events.all.filter { $0.kind == .fileFailed }
        #expect(alone.map(\.file) == ["b.txt"] && alone.first?.failure?.code == "IMAGE_RESIZE_ERROR")
        #expect(harness.service.created.count == 3, "the shard of a.txt and b.txt goes on without b.txt in a new Assembly")
    }

    @Test func aFileTheServiceCannotMakeIsKnownBadTheNextNightsAndSentAgainOnlyWithRetryFailed() async throws {
        let harness = try SessionHarness()
        harness.service.fail("b.txt")
        let first = try await harness.run()
        #expect(first.failures == ["IMAGE_RESIZE_ERROR"] && harness.service.created.count == 3)

        let forecast = try await harness.session().forecast(force: false, checksums: false)
        let second = try await harness.run()

        #expect(forecast.incremental.knownBad.map(\.file.relativePath) == ["b.txt"] && forecast.incremental.plan.shards.isEmpty)
        #expect(forecast.incremental.knownBad.first?.reason.message == "cannot read the image")
        #expect(second.state == .finished && second.failures.isEmpty, "nothing failed this night: \(second.failures)")
        #expect(second.summary.filesByState[.knownBad] == 1 && second.summary.filesByState[.skipped] == 2)
        #expect(harness.service.created.count == 3, "no Assembly for the known bad file, nor a restart of its shard")
        let recorded = try await harness.ledger { try await $0.files(of: second.runID, shard: nil, state: .knownBad) }
        #expect(recorded.map(\.file.relativePath) == ["b.txt"] && recorded.first?.failure?.code == "IMAGE_RESIZE_ERROR")

        let retried = try await harness.run(retryFailed: true)

        #expect(retried.failures == ["IMAGE_RESIZE_ERROR"] && harness.service.created.count == 4, "--retry-failed sends it again")
        #expect(retried.summary.filesByState[.skipped] == 2 && retried.summary.filesByState[.knownBad] == 0)
    }

    @Test func twoShardsResultsOfSeveralInputsNamedAlikeNeverOverwriteEachOther() async throws {
        let harness = try SessionHarness(files: ["a.txt": "first\n", "b.txt": "second\n", "c.txt": "third\n", "d.txt": "fourth\n"])
        harness.service.bundle()

        let outcome = try await harness.run()

        #expect(outcome.failures == ["OUTPUT_COLLISION"], "\(outcome.failures)")
        let files = try await harness.ledger { try await $0.files(of: outcome.runID) }
        let failed = files.filter { $0.state == .failed }
        let done = files.filter { $0.state == .done }
        #expect(failed.count == 2 && done.count == 2 && Set(failed.map(\.shardIndex)).count == 1, "one shard's pair lost the name")
        #expect(failed.first?.failure?.message.contains("took in this run; nothing was overwritten (put {shard} in output.layout") == true)
        let holder = try #require(done.first?.shardIndex)
        #expect(harness.output("archive.txt") == (holder == 0 ? "first\n" : "third\n"), "the archive is the shard's that holds it")
    }

    @Test func aResultOfSeveralInputsIsAnOutputOfEachThatTheNextNightChecks() async throws {
        let harness = try SessionHarness(files: ["a.txt": "first\n", "b.txt": "second\n"])
        harness.service.bundle()
        let first = try await harness.run()
        #expect(first.state == .finished && harness.output("archive.txt") == "first\n")

        try FileManager.default.removeItem(atPath: "\(harness.outputDirectory)/archive.txt")
        let next = try await harness.session().forecast(force: false, checksums: false)

        #expect(next.incremental.skippedCount == 0 && next.incremental.redone.map(\.file.relativePath) == ["a.txt", "b.txt"],
                "both made the archive, which is gone: \(next.incremental.skipped(from: next.planned.plan).map(\.relativePath))")
        #expect(next.incremental.redone.allSatisfy { $0.findings.map(\.output.path) == ["\(harness.outputDirectory)/archive.txt"] })
    }

    @Test func anEmptyInputFailsBeforeItIsSentThenIsKnownBadUntilItChanges() async throws {
        let harness = try SessionHarness(files: ["a.txt": "first\n", "empty.txt": ""])

        let outcome = try await harness.run()

        #expect(outcome.failures == ["INPUT_EMPTY"] && outcome.summary.filesByState[.done] == 1)
        let files = try await harness.ledger { try await $0.files(of: outcome.runID) }
        #expect(files.first { $0.state == .failed }?.file.relativePath == "empty.txt")
        #expect(harness.service.created.count == 1, "one Assembly, for a.txt alone: the empty file was never sent")
        #expect(harness.output("a.txt") == "first\n")
        let second = try await harness.run()
        #expect(second.state == .finished && second.failures.isEmpty, "it stays empty: known bad, not a failure of the night")
        #expect(second.summary.filesByState[.knownBad] == 1 && harness.service.created.count == 1)
        try harness.directory.write("in/empty.txt", "no longer empty\n")
        let third = try await harness.run()
        #expect(third.state == .finished && third.summary.filesByState[.done] == 1 && harness.output("empty.txt") == "no longer empty\n",
                "changed, it is sent")
    }

    @Test func anInputWhoseOutputNameIsTooLongFailsAloneBeforeItIsSent() async throws {
        let long = String(repeating: "n", count: 240) + ".txt"
        let harness = try SessionHarness(files: ["a.txt": "first\n", long: "a long name\n", "z.txt": "third\n"],
                                         layout: "{relpath}-thumbnail-of-the-night.{ext}")

        let planned = try await harness.manifest().planInputs(remote: harness.remoteInputs)
        let outcome = try await harness.run()

        #expect(planned.plan.fileCount == 3 && planned.warnings.map(\.path) == [harness.directory.file("in/\(long)")],
                "the plan shows it: \(planned.warnings)")
        #expect(outcome.state == .failed && outcome.failures == ["OUTPUT_NAME_TOO_LONG"])
        #expect(outcome.summary.filesByState[.done] == 2 && outcome.summary.filesByState[.failed] == 1)
        let failed = try await harness.ledger { try await $0.files(of: outcome.runID, shard: nil, state: .failed) }
        #expect(failed.map(\.file.relativePath) == [long])
        #expect(failed.first?.failure?.message.contains("cannot be created: a name in it is over the 255 bytes a file name may have") == true)
        #expect(harness.service.created.count == 2, "one Assembly a shard, the first for a.txt alone: \(harness.service.created.count)")
        #expect(harness.output("a-thumbnail-of-the-night.txt") == "first\n" && harness.output("z-thumbnail-of-the-night.txt") == "third\n")
        let second = try await harness.run()
        #expect(second.state == .finished && second.summary.filesByState[.knownBad] == 1 && harness.service.created.count == 2,
                "the next night leaves it out, known bad, and does not fail")
    }

    @Test func anInputWithALongNameIsDoneLikeAnyOther() async throws {
        // 252 bytes: its download's temp file cannot be `<name>.part` (255 at most), and takes a hashed name.
        let long = String(repeating: "n", count: 248) + ".txt"
        let harness = try SessionHarness(files: ["a.txt": "first\n", long: "a long name\n"])

        let outcome = try await harness.run()

        #expect(outcome.state == .finished && outcome.summary.filesByState[.done] == 2)
        #expect(harness.output(long) == "a long name\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: harness.outputDirectory).sorted() == ["a.txt", long])
    }

    @Test func rateLimitsWaitAndNeverFailAShard() async throws {
        // One shard at a time, so that each wait is one shard's and the count is the same every time.
        let harness = try SessionHarness(extra: "concurrency: {assemblies: 1}")
        harness.service.executeFirst()
        harness.service.limitCreations(3)
        harness.service.limitStatuses(4)

        let outcome = try await harness.run()

        #expect(outcome.state == .finished && outcome.summary.filesByState[.done] == 3)
        let seconds = harness.clock.waits.map { ($0 / .milliseconds(1) / 1_000).rounded() }
        #expect(seconds.filter { $0 == 7 }.count == 3, "each refused creation waits the hint: \(seconds)")
        #expect(seconds.filter { $0 == 3 }.count == 4, "each refused status request waits its hint and asks again: \(seconds)")
        let statistics = try await harness.ledger { try await $0.statistics(of: outcome.runID) }
        #expect(statistics.assembliesCreated == 2 && statistics.retries == 3, "creations waited (a retry each); status requests asked again")
    }

    @Test func aStopAskedBeforeTheShardsStartInterruptsTheRunAndResumesFinishIt() async throws {
        let harness = try SessionHarness(extra: "")
        let stop = RunStop()
        stop.request(.signal(15))

        let stopped = try await harness.run(stop: stop)

        #expect(stopped.state == .interrupted && stopped.summary.record.state == .interrupted)
        #expect(harness.observer.stops.all == [.signal(15)])
        #expect(harness.service.created.isEmpty, "nothing was sent")
        #expect(try await harness.resumption(of: stopped.runID) == .resume(stopped.summary.record))
        await #expect(throws: RunSessionError.noSuchShards(stopped.runID, [99], has: 0...1)) {
            _ = try await harness.resumption(of: stopped.runID, shards: [99])
        }

        let one = try await harness.resume(stopped.runID, shards: [1])
        #expect(one.state == .finished && one.summary.record.state == .interrupted, "shard 0 is still to do")
        #expect(one.summary.shardsByState[.downloaded] == 1)
        let all = try await harness.resume(stopped.runID)
        #expect(all.state == .finished && all.summary.record.state == .finished && all.summary.filesByState[.done] == 3)
        #expect(try await harness.resumption(of: nil) == .finished(stopped.runID))
    }

    @Test func aStopMidTransferLeavesItsFilesUnfinishedNeverFailedAndAResumeFinishesThem() async throws {
        let harness = try SessionHarness()
        let stop = RunStop()
        harness.service.stopAtFirstDownload(stop)

        let stopped = try await harness.run(stop: stop)

        #expect(stopped.state == .interrupted && stopped.failures.isEmpty, "a stop is not a failure: \(stopped.failures)")
        #expect(stopped.summary.filesByState[.failed] == 0 && stopped.summary.shardsByState[.failed] == 0)
        #expect(!harness.observer.events.all.contains { $0.kind == .failed || $0.kind == .fileFailed }, "no shard or file said failed")
        let created = harness.service.created.count
        let resumed = try await harness.resume(stopped.runID)
        #expect(resumed.state == .finished && resumed.summary.filesByState[.done] == 3)
        #expect(harness.service.created.count == created, "the Assemblies made before the stop are followed, none made again")
    }

    @Test func aHeldLockRefusesASecondRunNamingItsHolderAndIsFreeAfter() async throws {
        let harness = try SessionHarness()
        do {
            let held = try RunLock(stateDirectory: harness.stateDirectory, manifest: try harness.manifest())
            let holder = try #require(RunID("20990101T000000Z-abcdef"))
            held.record(runID: holder)

            let refused = await #expect(throws: RunSessionError.self) { _ = try await harness.run() }
            guard case let .locked(path, by)? = refused else {
                Issue.record("expected the lock to be held, found \(String(describing: refused))")
                return
            }
            #expect(path == held.path && by == "run \(holder), PID \(getpid())")
            #expect(harness.service.transport.requests.isEmpty)
        }
        #expect(try await harness.run().state == .finished, "the lock is free once its holder lets it go")
    }

    @Test func whatCannotStartIsRefusedBeforeAnythingIsRecorded() async throws {
        let nothing = try SessionHarness(files: [:])
        await #expect(throws: PlanError.self) { _ = try await nothing.run() }
        #expect(!FileManager.default.fileExists(atPath: nothing.stateDirectory), "no match leaves no state directory")

        let blocked = try SessionHarness()
        try blocked.directory.write("state/output", "a file where the output directory goes")
        await #expect(throws: RunSessionError.self) { _ = try await blocked.run() }
        #expect(!FileManager.default.fileExists(atPath: SQLiteLedger.path(inStateDirectory: blocked.stateDirectory)))

        let unreachable = try SessionHarness()
        unreachable.service.refuseConnections()
        let error = await #expect(throws: RunSessionError.self) { _ = try await unreachable.run(embedded: false) }
        guard case let .unreachable(what, url, _)? = error else {
            Issue.record("expected the endpoint to be unreachable, found \(String(describing: error))")
            return
        }
        #expect(what == "the endpoint" && url == SessionHarness.endpoint)
        #expect(try await unreachable.ledger { try await $0.recentRuns(limit: 5) }.isEmpty)
        #expect(unreachable.service.created.isEmpty)
    }

    @Test func aNightThatReadsAheadStillTellsAPlanErrorBeforeAHeldLock() async throws {
        // Given: a ledger from a first night (so the next reads the done index while it walks), inputs gone, the lock held
        let harness = try SessionHarness()
        _ = try await harness.run()
        for name in ["a.txt", "b.txt", "c.txt"] { try FileManager.default.removeItem(atPath: harness.directory.file("in/\(name)")) }
        do {
            let held = try RunLock(stateDirectory: harness.stateDirectory, manifest: try harness.manifest())

            // When / Then: the plan's refusal, as a first run would give it, not the lock's
            await #expect(throws: PlanError.self) { _ = try await harness.run() }
            withExtendedLifetime(held) {}
        }

        // And: with the inputs back and the lock free, the read-ahead night skips all three
        for (name, text) in ["a.txt": "first\n", "b.txt": "second file\n", "c.txt": "third, longest file\n"] {
            try harness.directory.write("in/\(name)", text)
        }
        #expect(try await harness.run().summary.filesByState[.done] == 3, "rewritten inputs are new files to the done index")
    }

    @Test func aResumeRefusesARunWhoseRecipeChanged() async throws {
        let harness = try SessionHarness()
        let stop = RunStop()
        stop.request(.signal(2))
        let stopped = try await harness.run(stop: stop)
        try harness.writeManifest(recipe: "template: {id: another}")
        await #expect(throws: RunSessionError.recipeChanged(manifest: stopped.summary.record.manifestPath, runID: stopped.runID)) {
            _ = try await harness.resume(stopped.runID)
        }
    }

    @Test func aCancelCancelsTheRunsOpenAssembliesAndEndsItForGood() async throws {
        let harness = try SessionHarness()
        let manifest = try harness.manifest()
        let run = try #require(RunID("20990101T000000Z-0c0c0c"))
        let open = try #require(AssemblyID("0123456789abcdef0123456789abcdef"))
        try await SQLiteLedger.with(stateDirectory: harness.stateDirectory) { ledger in
            let plan = try await manifest.planInputs(remote: harness.remoteInputs).plan
            try await ledger.createRun(NewRun(id: run, manifestPath: manifest.file, manifestName: manifest.name,
                                              recipeFingerprint: manifest.recipe.fingerprint, plan: plan, createdAt: harness.clock.now))
            try await ledger.recordAttempt(run, shard: 0, assemblyID: open, at: harness.clock.now)
            try await ledger.transition(run, shard: 0, .signed, at: harness.clock.now)
            try await ledger.transition(run, shard: 0, .created(assemblyURL: "\(SessionHarness.endpoint)/assemblies/\(open)", tusURL: nil),
                                        at: harness.clock.now)
        }

        let (cancelled, refused) = try await harness.session().cancel(run)

        #expect(cancelled == 1 && refused.isEmpty)
        #expect(harness.service.canceled == [open.rawValue], "only the Assembly that was created and has not ended")
        await #expect(throws: RunSessionError.canceled(run)) { try await harness.resumption(of: run) }
    }
}
