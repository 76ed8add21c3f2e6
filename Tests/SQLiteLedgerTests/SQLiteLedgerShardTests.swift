import AssemblyLine
import Foundation
import SQLiteLedger
import TestSupport
import Testing

@Suite struct SQLiteLedgerShardTests {
    private typealias Setup = LedgerWithRun

    /// A shard whose Assembly failed while executing records that it did; its replay names the failed Assembly as its parent,
    /// takes the ID the service gave it, and sends no bytes (ledger version 15).
    @Test func aReplayNamesItsParentAndTakesTheServicesID() async throws {
        let setup = try await Setup()
        let (ledger, run) = (setup.ledger, setup.run)
        let (parent, intent, replay) = (AssemblyID.generate(), AssemblyID.generate(), AssemblyID.generate())
        let broken = FailureReason(code: "INVALID_STEP_PARAMETER", message: "no", isRetryable: false)
        try await ledger.recordAttempt(run, shard: 0, assemblyID: parent, at: Fixture.time(1))
        try await ledger.transition(run, shard: 0, .signed, at: Fixture.time(2))
        try await ledger.transition(run, shard: 0, .created(assemblyURL: "http://h/assemblies/\(parent)", tusURL: nil, bytesSent: 300),
                                    at: Fixture.time(3))
        try await ledger.transition(run, shard: 0, .uploaded, at: Fixture.time(3))
        try await ledger.transition(run, shard: 0, .failed(broken, executing: true), at: Fixture.time(4))
        let failed = try #require(try await ledger.attempts(of: run, shard: 0).last)
        #expect(failed.failedExecuting && failed.failedAssembly == FailedAssembly(id: parent, createdAt: Fixture.time(3)))

        try await ledger.transition(run, shard: 0, .restarted, at: Fixture.time(5))
        let recorded = try await ledger.recordAttempt(run, shard: 0, assemblyID: intent, replaying: parent, at: Fixture.time(5))
        #expect(recorded.parentAssemblyID == parent)
        try await ledger.transition(run, shard: 0, .signed, at: Fixture.time(6))
        try await ledger.transition(run, shard: 0, .created(assemblyURL: "http://h/assemblies/\(replay)", tusURL: nil, bytesSent: 0,
                                                             replayID: replay), at: Fixture.time(7))

        let attempts = try await ledger.attempts(of: run, shard: 0)
        #expect(attempts.map(\.assemblyID) == [parent, replay] && attempts.map(\.parentAssemblyID) == [nil, parent])
        #expect(try await ledger.replays(of: run).map(\.assemblyID) == [replay])
        #expect(try await ledger.statistics(of: run).bytesSent == 300, "the replay sent nothing")
    }

    @Test func theHappyPathRecordsEveryStep() async throws {
        let setup = try await Setup()
        let (ledger, run) = (setup.ledger, setup.run)
        let id = AssemblyID.generate()
        let attempt = try await ledger.recordAttempt(run, shard: 0, assemblyID: id, at: Fixture.time(10))
        #expect(attempt.number == 1 && attempt.outcome == .open && attempt.startedAt == Fixture.time(10))
        try await ledger.transition(run, shard: 0, .signed, at: Fixture.time(11))
        try await ledger.transition(run, shard: 0, .created(assemblyURL: "http://127.0.0.1:9442/assemblies/\(id)",
                                                             tusURL: "http://127.0.0.1:9442/resumable/files/"),
                                    at: Fixture.time(12))
        try await ledger.transition(run, shard: 0, .uploaded, at: Fixture.time(13))
        try await ledger.transition(run, shard: 0, .executing, at: Fixture.time(14))
        let results = try await setup.results()
        try await ledger.transition(run, shard: 0, .completed(results: results), at: Fixture.time(15))
        let recorded = try await ledger.results(of: run, shard: 0)
        #expect(recorded.map(\.result) == results)
        #expect(recorded.allSatisfy { $0.attempt == 1 && !$0.isDownloaded })
        for result in recorded {
            try await ledger.recordDownloads(run, results: [result.id], at: Fixture.time(16))
        }
        try await ledger.transition(run, shard: 0, .downloaded(done: [0, 1, 2], noResult: []), at: Fixture.time(17))

        let shard = try await ledger.shards(of: run)[0]
        #expect(shard.state == .downloaded && shard.attemptCount == 1 && shard.updatedAt == Fixture.time(17))
        let attempts = try await ledger.attempts(of: run, shard: 0)
        #expect(attempts == [AttemptRecord(shardIndex: 0, number: 1, assemblyID: id, outcome: .completed,
                                           startedAt: Fixture.time(10),
                                           assemblyURL: "http://127.0.0.1:9442/assemblies/\(id)",
                                           tusURL: "http://127.0.0.1:9442/resumable/files/",
                                           createdAt: Fixture.time(12), completedAt: Fixture.time(15), failure: nil)])
        #expect(try await ledger.results(of: run, shard: 0).allSatisfy { $0.downloadedAt == Fixture.time(16) })
        let summary = try await ledger.run(run)
        #expect(summary.filesByState[.done] == 3 && summary.filesByState[.pending] == 3)
        #expect(summary.shardsByState[.downloaded] == 1 && summary.unfinishedShards == 1)
        let history = try await ledger.events(of: run, shard: 0).map(\.message)
        #expect(history == ["attempt 1, Assembly \(id)", "planned → signed", "signed → created", "created → uploaded",
                            "uploaded → executing", "executing → completed", "completed → downloaded"])
    }

    @Test(arguments: ShardState.allCases)
    func illegalTransitionsAreRefusedAndChangeNothing(from: ShardState) async throws {
        let setup = try await Setup()
        try await setup.drive(to: from)
        #expect(try await setup.state() == from)
        let eventsBefore = try await setup.ledger.events(of: setup.run, shard: nil).count
        let candidates: [ShardTransition] = [
            .signed, .created(assemblyURL: "http://127.0.0.1/a", tusURL: nil), .uploaded, .executing,
            .completed(results: []), .downloaded(done: [], noResult: []), .failed(Fixture.resizeError), .restarted,
        ]
        for transition in candidates where !from.canTransition(to: transition.target) {
            await #expect(throws: LedgerError.illegalShardTransition(setup.run, shard: 0, from: from,
                                                                     to: transition.target)) {
                try await setup.ledger.transition(setup.run, shard: 0, transition, at: Fixture.time(50))
            }
        }
        #expect(try await setup.state() == from)
        #expect(try await setup.ledger.events(of: setup.run, shard: nil).count == eventsBefore)
    }

    @Test func onlyAFailedShardIsReopenedAndOnlyByReopening() async throws {
        let setup = try await Setup()
        try await setup.drive(to: .executing)
        await #expect(throws: LedgerError.illegalShardTransition(setup.run, shard: 0, from: .executing, to: .completed)) {
            try await setup.ledger.transition(setup.run, shard: 0, .reopened(at: .completed), at: Fixture.time(50))
        }
        try await setup.ledger.transition(setup.run, shard: 0, .failed(Fixture.unavailable), at: Fixture.time(51))
        await #expect(throws: LedgerError.illegalShardTransition(setup.run, shard: 0, from: .failed, to: .executing)) {
            try await setup.ledger.transition(setup.run, shard: 0, .executing, at: Fixture.time(52))
        }
        await #expect(throws: LedgerError.illegalShardTransition(setup.run, shard: 0, from: .failed, to: .completed)) {
            try await setup.ledger.transition(setup.run, shard: 0, .reopened(at: .completed), at: Fixture.time(53))
        }
        #expect(try await setup.state() == .failed)
    }

    @Test func aShardThatFailedWhileDownloadingIsReopenedAtItsCompletedAssembly() async throws {
        let setup = try await Setup()
        let (ledger, run) = (setup.ledger, setup.run)
        try await setup.drive(to: .completed)
        try await ledger.transition(run, shard: 0, .failed(Fixture.unavailable), at: Fixture.time(20))
        #expect(try await ledger.files(of: run, shard: 0, state: .failed).count == 3)

        try await ledger.transition(run, shard: 0, .reopened(at: .completed), at: Fixture.time(21))
        #expect(try await setup.state() == .completed)
        #expect(try await ledger.shards(of: run)[0].failure == nil)
        #expect(try await ledger.files(of: run, shard: 0, state: .pending).count == 3)
        #expect(try await ledger.attempts(of: run, shard: 0).map(\.outcome) == [.completed])
    }

    @Test func aCreatedAssemblyThatFailedRetryablyIsReopenedForPollingAndFilesFailedAloneStayFailed() async throws {
        let setup = try await Setup()
        let (ledger, run) = (setup.ledger, setup.run)
        try await setup.drive(to: .executing)
        try await ledger.failFiles(run, files: [1], reason: Fixture.resizeError, knownBad: false, at: Fixture.time(19))
        try await ledger.transition(run, shard: 0, .failed(Fixture.unavailable), at: Fixture.time(20))

        try await ledger.transition(run, shard: 0, .reopened(at: .executing), at: Fixture.time(21))
        #expect(try await setup.state() == .executing)
        let attempt = try #require(try await ledger.attempts(of: run, shard: 0).last)
        #expect(attempt.outcome == .open && attempt.failure == nil)
        #expect(try await ledger.files(of: run, shard: 0, state: .pending).map(\.index) == [0, 2])
        #expect(try await ledger.files(of: run, shard: 0, state: .failed).map(\.failure) == [Fixture.resizeError])
    }

    @Test func anAssemblyThatFailedForGoodIsNotReopened() async throws {
        let setup = try await Setup()
        try await setup.drive(to: .executing)
        try await setup.ledger.transition(setup.run, shard: 0, .failed(Fixture.resizeError), at: Fixture.time(20))
        await #expect(throws: LedgerError.illegalShardTransition(setup.run, shard: 0, from: .failed, to: .executing)) {
            try await setup.ledger.transition(setup.run, shard: 0, .reopened(at: .executing), at: Fixture.time(21))
        }
        try await setup.ledger.transition(setup.run, shard: 0, .restarted, at: Fixture.time(22))
        #expect(try await setup.state() == .planned)
    }

    @Test func signingNeedsTheAttemptsIntentFirst() async throws {
        let setup = try await Setup()
        await #expect(throws: LedgerError.noOpenAttempt(setup.run, shard: 0, transition: .signed)) {
            try await setup.ledger.transition(setup.run, shard: 0, .signed, at: Fixture.time())
        }
        #expect(try await setup.state() == .planned)
    }

    @Test func attemptsStartFromPlannedAndSupersedeEachOther() async throws {
        let setup = try await Setup()
        let (ledger, run) = (setup.ledger, setup.run)
        let first = AssemblyID.generate()
        try await ledger.recordAttempt(run, shard: 0, assemblyID: first, at: Fixture.time(1))
        try await ledger.transition(run, shard: 0, .signed, at: Fixture.time(2))
        await #expect(throws: LedgerError.attemptNotAllowed(run, shard: 0, state: .signed)) {
            try await ledger.recordAttempt(run, shard: 0, assemblyID: .generate(), at: Fixture.time(3))
        }
        try await ledger.transition(run, shard: 0, .restarted, at: Fixture.time(4))
        let second = try await ledger.recordAttempt(run, shard: 0, assemblyID: .generate(), at: Fixture.time(5))
        #expect(second.number == 2)
        #expect(try await ledger.attempts(of: run, shard: 0).map(\.outcome) == [.superseded, .open])
        #expect(try await ledger.shards(of: run)[0].attemptCount == 2)

        try await ledger.transition(run, shard: 1, .failed(Fixture.resizeError), at: Fixture.time(6))
        try await ledger.transition(run, shard: 1, .restarted, at: Fixture.time(7))
        let reused = await #expect(throws: SQLiteError.self) {
            try await ledger.recordAttempt(run, shard: 1, assemblyID: first, at: Fixture.time(8))
        }
        #expect(reused?.is(.constraintUnique) == true)
        #expect(try await ledger.attempts(of: run, shard: 1).isEmpty)
    }

    @Test func aFailedShardFailsItsPendingFilesAndARestartBringsThemBack() async throws {
        let setup = try await Setup()
        let (ledger, run) = (setup.ledger, setup.run)
        try await setup.drive(to: .executing)
        try await ledger.failFiles(run, files: [1], reason: Fixture.resizeError, knownBad: false, at: Fixture.time(20))
        let unavailable = FailureReason(code: "HTTP_503", message: "service unavailable", isRetryable: true)
        try await ledger.transition(run, shard: 0, .failed(unavailable), at: Fixture.time(21))

        #expect(try await ledger.shards(of: run)[0].failure == unavailable)
        #expect(try await ledger.attempts(of: run, shard: 0).map(\.outcome) == [.failed])
        #expect(try await ledger.attempts(of: run, shard: 0).first?.failure == unavailable)
        let failed = try await ledger.files(of: run, shard: nil, state: .failed)
        #expect(failed.map(\.index) == [0, 1, 2])
        #expect(failed.map(\.failure) == [unavailable, Fixture.resizeError, unavailable])
        #expect(try await ledger.run(run).filesByState[.failed] == 3)
        #expect(try await ledger.events(of: run, shard: 0).last?.message
            == "executing → failed: HTTP_503: service unavailable")

        try await ledger.transition(run, shard: 0, .restarted, at: Fixture.time(22))
        #expect(try await ledger.shards(of: run)[0].failure == nil)
        #expect(try await ledger.files(of: run, shard: 0, state: .pending).map(\.failure) == [nil, nil, nil])
    }

    @Test func statisticsCountAssembliesRetriesBytesAndShardDurations() async throws {
        let setup = try await Setup()
        let (ledger, run) = (setup.ledger, setup.run)
        let empty = try await ledger.statistics(of: run)
        #expect(empty == RunStatistics(assembliesCreated: 0, retries: 0, bytesSent: 0, bytesReceived: 0, shardDurations: [:]))

        try await ledger.recordAttempt(run, shard: 0, assemblyID: .generate(), at: Fixture.time(0))
        try await ledger.transition(run, shard: 0, .signed, at: Fixture.time(1))
        try await ledger.transition(run, shard: 0, .created(assemblyURL: "http://127.0.0.1/a", tusURL: nil, bytesSent: 5_000),
                                    at: Fixture.time(2))
        try await ledger.transition(run, shard: 0, .restarted, at: Fixture.time(3))
        try await ledger.recordAttempt(run, shard: 0, assemblyID: .generate(), at: Fixture.time(4))
        try await ledger.transition(run, shard: 0, .signed, at: Fixture.time(5))
        try await ledger.transition(run, shard: 0, .created(assemblyURL: "http://127.0.0.1/b", tusURL: nil, bytesSent: 3_000),
                                    at: Fixture.time(6))
        try await ledger.transition(run, shard: 0, .uploaded, at: Fixture.time(7))
        try await ledger.transition(run, shard: 0, .completed(results: try await setup.results()), at: Fixture.time(8))
        for result in try await ledger.results(of: run, shard: 0) {
            try await ledger.recordDownloads(run, results: [result.id], at: Fixture.time(12.5))
        }
        try await ledger.transition(run, shard: 0, .downloaded(done: [0, 1, 2], noResult: []), at: Fixture.time(13))
        try await ledger.recordAttempt(run, shard: 1, assemblyID: .generate(), at: Fixture.time(20))
        try await ledger.transition(run, shard: 1, .signed, at: Fixture.time(21))
        try await ledger.transition(run, shard: 1, .created(assemblyURL: "http://127.0.0.1/c", tusURL: "http://127.0.0.1/t/"),
                                    at: Fixture.time(22))
        try await ledger.recordUpload(run, shard: 1, attempt: 1, file: 3, url: "http://127.0.0.1/t/u", length: 1_000, at: Fixture.time(23))
        try await ledger.recordUploadOffset(run, shard: 1, attempt: 1, file: 3, url: "http://127.0.0.1/t/u", offset: 600, at: Fixture.time(24))

        let statistics = try await ledger.statistics(of: run)
        #expect(statistics.assembliesCreated == 3)
        #expect(statistics.retries == 1)
        #expect(statistics.bytesSent == 8_600)
        #expect(statistics.bytesReceived == 3 * 1234)
        #expect(statistics.shardDurations == [0: .milliseconds(12_500)])
        await #expect(throws: LedgerError.runNotFound(RunID("20000101T000000Z-000000")!)) {
            try await ledger.statistics(of: RunID("20000101T000000Z-000000")!)
        }
    }

    /// Schema v12: each attempt's phase times (signed, uploaded, completed, downloaded, failed) and the usage its
    /// Assembly said, unknown kept apart from zero; the run's usage sums those that said.
    @Test func attemptTimesKeepEachPhaseAndUsageUnknownApartFromZero() async throws {
        let setup = try await Setup()
        let (ledger, run) = (setup.ledger, setup.run)
        try await ledger.recordAttempt(run, shard: 0, assemblyID: .generate(), at: Fixture.time(0))
        try await ledger.transition(run, shard: 0, .signed, at: Fixture.time(1))
        try await ledger.transition(run, shard: 0, .created(assemblyURL: "http://127.0.0.1/a", tusURL: nil), at: Fixture.time(2))
        try await ledger.transition(run, shard: 0, .failed(Fixture.resizeError), at: Fixture.time(3))
        try await ledger.transition(run, shard: 0, .restarted, at: Fixture.time(4))
        try await ledger.recordAttempt(run, shard: 0, assemblyID: .generate(), at: Fixture.time(5))
        try await ledger.transition(run, shard: 0, .signed, at: Fixture.time(6))
        try await ledger.transition(run, shard: 0, .created(assemblyURL: "http://127.0.0.1/b", tusURL: nil), at: Fixture.time(7))
        try await ledger.transition(run, shard: 0, .uploaded, at: Fixture.time(8))
        try await ledger.transition(run, shard: 0, .executing, at: Fixture.time(9))
        let usage = AssemblyUsage(bytes: 4_096, queueSeconds: 0.5, executionSeconds: 2.25)
        try await ledger.transition(run, shard: 0, .completed(results: try await setup.results(), usage: usage), at: Fixture.time(10))
        for result in try await ledger.results(of: run, shard: 0) {
            try await ledger.recordDownloads(run, results: [result.id], at: Fixture.time(11))
        }
        try await ledger.transition(run, shard: 0, .downloaded(done: [0, 1, 2], noResult: []), at: Fixture.time(12))
        try await ledger.recordAttempt(run, shard: 1, assemblyID: .generate(), at: Fixture.time(20))
        try await ledger.transition(run, shard: 1, .signed, at: Fixture.time(21))
        try await ledger.transition(run, shard: 1, .created(assemblyURL: "http://127.0.0.1/c", tusURL: nil), at: Fixture.time(22))
        try await ledger.transition(run, shard: 1, .uploaded, at: Fixture.time(23))
        try await ledger.transition(run, shard: 1, .completed(results: []), at: Fixture.time(24))

        let times = try await ledger.attemptTimes(of: run)
        #expect(times.map { [$0.shardIndex, $0.number] } == [[0, 1], [0, 2], [1, 1]])
        #expect(times[0].outcome == .failed && times[0].failedAt == Fixture.time(3) && times[0].failure == Fixture.resizeError)
        #expect(times[0].signedAt == Fixture.time(1) && times[0].uploadedAt == nil && times[0].lastKnown == Fixture.time(3))
        #expect([times[1].startedAt, times[1].signedAt, times[1].uploadedAt, times[1].completedAt, times[1].downloadedAt]
            == [Fixture.time(5), Fixture.time(6), Fixture.time(8), Fixture.time(10), Fixture.time(12)])
        #expect(times[1].usage == usage && times[1].failedAt == nil)
        #expect(times[2].usage == .unknown && times[2].downloadedAt == nil && times[2].lastKnown == Fixture.time(24))

        let statistics = try await ledger.statistics(of: run)
        #expect(statistics.usageBytes == 4_096 && statistics.assembliesWithoutUsage == 1)
        #expect(statistics.queueSeconds == 0.5 && statistics.executionSeconds == 2.25)
    }

    @Test func singleFilesFailWithoutTheirShardAndStayFailedWhenItRestartsForTheOthers() async throws {
        let setup = try await Setup()
        try await setup.ledger.failFiles(setup.run, files: [0, 4], reason: Fixture.resizeError, knownBad: false, at: Fixture.time())
        #expect(try await setup.ledger.files(of: setup.run, shard: nil, state: .failed).map(\.index) == [0, 4])
        #expect(try await setup.state() == .planned)
        try await setup.drive(to: .executing)
        try await setup.ledger.transition(setup.run, shard: 0, .restarted, at: Fixture.time(30))
        #expect(try await setup.ledger.files(of: setup.run, shard: nil, state: .failed).map(\.index) == [0, 4])
        await #expect(throws: LedgerError.fileNotFound(setup.run, file: 99)) {
            try await setup.ledger.failFiles(setup.run, files: [2, 99], reason: Fixture.resizeError, knownBad: false, at: Fixture.time())
        }
        #expect(try await setup.ledger.files(of: setup.run, shard: nil, state: .failed).map(\.index) == [0, 4])
    }

    @Test func downloadedNeedsEveryResultOfTheCompletedAttempt() async throws {
        let setup = try await Setup()
        let (ledger, run) = (setup.ledger, setup.run)
        try await setup.drive(to: .completed)
        let results = try await ledger.results(of: run, shard: 0)
        try await ledger.recordDownloads(run, results: [results[0].id], at: Fixture.time(30))
        try await ledger.recordDownloads(run, results: [results[0].id], at: Fixture.time(31))
        await #expect(throws: LedgerError.resultsPending(run, shard: 0, count: 2)) {
            try await ledger.transition(run, shard: 0, .downloaded(done: [0, 1, 2], noResult: []), at: Fixture.time(32))
        }
        #expect(try await ledger.results(of: run, shard: 0)[0].downloadedAt == Fixture.time(30))
        await #expect(throws: LedgerError.resultNotFound(run, result: 999)) {
            try await ledger.recordDownloads(run, results: [results[1].id, 999], at: Fixture.time(33))
        }
        #expect(try await ledger.results(of: run, shard: 0)[1].downloadedAt == nil, "one transaction: the unknown result undoes the batch")
        try await ledger.recordDownloads(run, results: results.dropFirst().map(\.id), at: Fixture.time(34))
        try await ledger.transition(run, shard: 0, .downloaded(done: [0, 1, 2], noResult: []), at: Fixture.time(35))
        #expect(try await setup.state() == .downloaded)
    }

    @Test func resultsMustComeFromFilesOfTheirShard() async throws {
        let setup = try await Setup()
        let (ledger, run) = (setup.ledger, setup.run)
        try await setup.drive(to: .executing)
        var results = try await setup.results()
        results[2].source = .file(4)
        await #expect(throws: LedgerError.fileNotInShard(run, file: 4, shard: 0)) {
            try await ledger.transition(run, shard: 0, .completed(results: results), at: Fixture.time(40))
        }
        results[2].source = .file(600)
        await #expect(throws: LedgerError.fileNotFound(run, file: 600)) {
            try await ledger.transition(run, shard: 0, .completed(results: results), at: Fixture.time(40))
        }
        #expect(try await ledger.results(of: run, shard: 0).isEmpty)
        #expect(try await setup.state() == .executing)
        results[2].source = .unmatched
        try await ledger.transition(run, shard: 0, .completed(results: results), at: Fixture.time(41))
        #expect(try await ledger.results(of: run, shard: 0).map(\.result.fileIndex) == [0, 1, nil])
    }

    @Test func aResultCountsOnlyForTheFilesItNamesAndOneThatNamesNoneForNoFile() async throws {
        let setup = try await Setup()
        let (ledger, run) = (setup.ledger, setup.run)
        let stored = try await setup.completeWithAResultOfTwoFilesAndOneOfNone()
        #expect(stored.map(\.result.source) == [.several([0, 1]), .unmatched])
        try await ledger.transition(run, shard: 0, .downloaded(done: [0, 1], noResult: [2]), at: Fixture.time(42))
        let files = try await ledger.files(of: run, shard: 0, state: nil)
        #expect(files.map(\.state) == [.done, .done, .noResult], "the result naming nothing makes file 2 nothing")
    }

    @Test func aVerdictTheResultsContradictIsRefusedAndChangesNothing() async throws {
        let setup = try await Setup()
        let (ledger, run) = (setup.ledger, setup.run)
        _ = try await setup.completeWithAResultOfTwoFilesAndOneOfNone()
        let refused = LedgerError.illegalShardTransition(run, shard: 0, from: .completed, to: .downloaded)
        let contradicted: [ShardTransition] = [
            .downloaded(done: [0, 1, 2], noResult: []), .downloaded(done: [0], noResult: [1, 2]), .downloaded(done: [0, 1], noResult: []),
            .downloaded(done: [0, 1, 1], noResult: [2]), .downloaded(done: [0, 1, 4], noResult: [2]),
        ]
        for verdict in contradicted {
            await #expect(throws: refused, "\(verdict)") { try await ledger.transition(run, shard: 0, verdict, at: Fixture.time(42)) }
        }
        #expect(try await setup.state() == .completed)
        #expect(try await ledger.files(of: run, shard: 0, state: nil).map(\.state) == [.pending, .pending, .pending])
        try await ledger.transition(run, shard: 0, .downloaded(done: [0, 1], noResult: [2]), at: Fixture.time(43))
        #expect(try await setup.state() == .downloaded)
    }

    @Test func expiredResultsAreRerunWithANewAttempt() async throws {
        let setup = try await Setup()
        let (ledger, run) = (setup.ledger, setup.run)
        try await setup.drive(to: .completed)
        try await ledger.transition(run, shard: 0, .restarted, at: Fixture.time(90_000))
        try await setup.drive(to: .downloaded)
        let attempts = try await ledger.attempts(of: run, shard: 0)
        #expect(attempts.map(\.outcome) == [.completed, .completed])
        let results = try await ledger.results(of: run, shard: 0)
        #expect(results.map(\.attempt) == [1, 1, 1, 2, 2, 2])
        #expect(results.map(\.isDownloaded) == [false, false, false, true, true, true])
        #expect(try await ledger.run(run).filesByState[.done] == 3)
    }

    @Test func eventsOfTheRunAndOfOneShard() async throws {
        let setup = try await Setup()
        let (ledger, run) = (setup.ledger, setup.run)
        let unavailable = FailureReason(code: .http(503), message: "down", isRetryable: true)
        try await ledger.recordEvent(run, shard: 1, .retrying(.retry(unavailable, number: 2, of: 3, wait: .seconds(2))), at: Fixture.time(5))
        try await ledger.recordEvent(run, shard: nil, .streamEnded(url: "https://api.test/ws", reason: "HTTP 404"), at: Fixture.time(6))
        await #expect(throws: LedgerError.shardNotFound(run, shard: 9)) {
            try await ledger.recordEvent(run, shard: 9, .retrying(.rateLimited(.rateLimitReached, wait: .seconds(7))), at: Fixture.time(7))
        }
        #expect(try await ledger.events(of: run, shard: 1).map(\.kind) == [.shardRetrying])
        let all = try await ledger.events(of: run, shard: nil)
        #expect(all.map(\.kind) == [.runCreated, .shardRetrying, .streamEnded])
        #expect(all.map(\.message).suffix(2) == ["HTTP_503: down (try 2 of 3 in 2s)", "the change stream https://api.test/ws ended (HTTP 404); polling instead"])
        #expect(all.map(\.shardIndex) == [nil, 1, nil])
        #expect(all[2].at == Fixture.time(6))
    }

    @Test func concurrentShardsAreWrittenOneTransactionAtATime() async throws {
        let directory = try TemporaryDirectory()
        let ledger = try await SQLiteLedger.open(path: directory.ledgerPath)
        let run = try await ledger.createRun(Fixture.newRun(Fixture.plan(shards: 40, filesPerShard: 2))).id
        try await withThrowingTaskGroup(of: Void.self) { group in
            for shard in 0..<40 {
                group.addTask {
                    try await ledger.recordAttempt(run, shard: shard, assemblyID: .generate(), at: Fixture.time(1))
                    try await ledger.transition(run, shard: shard, .signed, at: Fixture.time(2))
                    try await ledger.transition(run, shard: shard, .failed(Fixture.resizeError), at: Fixture.time(3))
                }
            }
            try await group.waitForAll()
        }
        let summary = try await ledger.run(run)
        #expect(summary.shardsByState[.failed] == 40)
        #expect(summary.filesByState[.failed] == 80)
        #expect(try await ledger.integrityCheck() == ["ok"])
    }
}

/// Steps through a shard's states, for the shard tests.
extension LedgerWithRun {
    func state(_ shard: Int = 0) async throws -> ShardState {
        try await ledger.shards(of: run)[shard].state
    }

    /// One result per file of the shard.
    func results(_ shard: Int = 0) async throws -> [NewResult] {
        try await ledger.files(of: run, shard: shard, state: nil).map { file in
            NewResult(source: .file(file.index), step: "resized", remoteID: "r\(file.index)", name: "p.jpg",
                      url: "http://127.0.0.1:9442/results/\(file.index)", size: 1234, md5: "0cc175b9c0f1b6a8",
                      mime: "image/jpeg", width: 100, height: 75, delivery: .download(to: "/out/\(file.index).jpg"))
        }
    }

    /// Drives shard 0 to `completed` with two results: one of files 0 and 1 together, downloaded, and one that names no input.
    func completeWithAResultOfTwoFilesAndOneOfNone() async throws -> [ResultRecord] {
        try await drive(to: .executing)
        var results = try await results()
        results[0].source = .several([0, 1])
        results[1].source = .unmatched
        results[1].delivery = .recorded
        results.removeLast()
        try await ledger.transition(run, shard: 0, .completed(results: results), at: Fixture.time(40))
        let stored = try await ledger.results(of: run, shard: 0)
        try await ledger.recordDownloads(run, results: [stored[0].id], at: Fixture.time(41))
        return stored
    }

    /// Drives shard `shard` from `planned` along the happy path (or to `failed`) until it reaches `target`.
    func drive(_ shard: Int = 0, to target: ShardState) async throws {
        if target == .failed {
            try await ledger.transition(run, shard: shard, .failed(Fixture.resizeError), at: Fixture.time(1))
            return
        }
        let steps: [ShardTransition] = [
            .signed, .created(assemblyURL: "http://127.0.0.1:9442/assemblies/x", tusURL: nil), .uploaded, .executing,
            .completed(results: try await results(shard)),
            .downloaded(done: try await ledger.files(of: run, shard: shard, state: .pending).map(\.index), noResult: []),
        ]
        var current = ShardState.planned
        for step in steps where current != target {
            if step == .signed {
                try await ledger.recordAttempt(run, shard: shard, assemblyID: .generate(), at: Fixture.time(1))
            }
            if case .downloaded = step {
                let results = try await ledger.results(of: run, shard: shard)
                let latest = results.map(\.attempt).max()
                for result in results where result.attempt == latest {
                    try await ledger.recordDownloads(run, results: [result.id], at: Fixture.time(9))
                }
            }
            try await ledger.transition(run, shard: shard, step, at: Fixture.time(2))
            current = step.target
        }
    }
}
