import AssemblyLine
import Foundation
import SQLiteLedger
import TestSupport
import Testing

@Suite struct SQLiteLedgerRunTests {
    @Test func aRunAndItsWholePlanReadBack() async throws {
        let directory = try TemporaryDirectory()
        let ledger = try await SQLiteLedger.open(path: directory.ledgerPath)
        let plan = Fixture.plan(shards: 3, filesPerShard: 4)
        let new = Fixture.newRun(plan, skippedCount: 1)
        let created = try await ledger.createRun(new)
        #expect(created.state == .running)
        #expect(created.shardCount == 3 && created.fileCount == 12 && created.skippedCount == 1)
        #expect(created.bytes == plan.bytes)

        let summary = try await ledger.run(new.id)
        #expect(summary.record == created)
        #expect(summary.record.createdAt == Fixture.time())
        #expect(summary.record.finishedAt == nil)
        #expect(summary.shardsByState[.planned] == 3 && summary.shardsByState[.failed] == 0)
        #expect(summary.filesByState == [.pending: 12, .done: 0, .noResult: 0, .failed: 0, .skipped: 1, .knownBad: 0])
        #expect(summary.unfinishedShards == 3)

        let shards = try await ledger.shards(of: new.id)
        #expect(shards.map(\.index) == [0, 1, 2])
        #expect(shards.map(\.bytes) == plan.shards.map(\.bytes))
        #expect(shards.allSatisfy { $0.state == .planned && $0.fileCount == 4 && $0.attemptCount == 0 && $0.failure == nil })

        let files = try await ledger.files(of: new.id)
        #expect(files.map(\.index) == Array(0..<12), "a skipped file is counted, with no row of its own")
        #expect(files.prefix(12).map(\.file) == plan.shards.flatMap(\.files))
        #expect(files.prefix(12).map(\.shardIndex) == plan.shards.flatMap { shard in shard.files.map { _ in shard.index } })
        #expect(try await ledger.files(of: new.id, shard: 1, state: nil).map(\.index) == [4, 5, 6, 7])
        #expect(try await ledger.files(of: new.id, shard: nil, state: .skipped).isEmpty)

        let events = try await ledger.events(of: new.id, shard: nil)
        #expect(events.map(\.kind) == [.runCreated])
        #expect(events.first?.message == "3 shards, 12 files, \(plan.bytes) bytes, 1 skipped")
    }

    /// The planned files go in blocks of rows a statement: around a block's size, in shards of 7 a block cuts through,
    /// each file keeps its number, shard and identity, and the known bad files follow with theirs.
    @Test(arguments: [1, SQLiteLedger.fileRowsAStatement - 1, SQLiteLedger.fileRowsAStatement,
                      SQLiteLedger.fileRowsAStatement + 1, 2 * SQLiteLedger.fileRowsAStatement + 1])
    func aPlanLongerThanAStatementsBlockReadsBackInOrder(files count: Int) async throws {
        let directory = try TemporaryDirectory()
        let ledger = try await SQLiteLedger.open(path: directory.ledgerPath)
        let files = Fixture.plan(shards: 1, filesPerShard: count + 2).shards[0].files
        let planned = Array(files.prefix(count))
        let plan = Plan(shards: stride(from: 0, to: count, by: 7).enumerated().map { index, start in
            Shard(index: index, files: Array(planned[start..<min(start + 7, count)]))
        })
        let bad = files.suffix(2).map { KnownBadFile(file: $0, reason: Fixture.resizeError) }
        let run = try await ledger.createRun(Fixture.newRun(plan, knownBad: bad)).id

        let recorded = try await ledger.files(of: run)
        #expect(recorded.map(\.index) == Array(0..<(count + 2)))
        #expect(recorded.map(\.file) == files)
        #expect(recorded.map(\.shardIndex) == planned.indices.map { $0 / 7 } + [nil, nil])
        #expect(recorded.map(\.state) == Array(repeating: .pending, count: count) + [.knownBad, .knownBad])
        #expect(recorded.map(\.failure) == Array(repeating: nil, count: count) + [Fixture.resizeError, Fixture.resizeError])
        #expect(try await ledger.files(of: run, shard: plan.shards.count - 1, state: nil).map(\.file) == plan.shards.last?.files)
    }

    @Test func recentRunsAreNewestFirst() async throws {
        let directory = try TemporaryDirectory()
        let ledger = try await SQLiteLedger.open(path: directory.ledgerPath)
        #expect(try await ledger.latestRun() == nil)
        var ids: [RunID] = []
        for day in 0..<5 {
            let time = Fixture.time(Double(day) * 86_400)
            let id = RunID.generate(at: time)
            ids.append(id)
            try await ledger.createRun(Fixture.newRun(Fixture.plan(shards: 1, filesPerShard: 1), id: id, at: time))
        }
        #expect(try await ledger.recentRuns(limit: 3).map(\.id) == Array(ids.reversed().prefix(3)))
        #expect(try await ledger.recentRuns(limit: 100).count == 5)
        #expect(try await ledger.latestRun()?.id == ids.last)
    }

    @Test func runsStartedInOneSecondAreNewestFirstByTheirMillisecond() async throws {
        // Run IDs name the second only: in one second, the later run may have the smaller random suffix
        let directory = try TemporaryDirectory()
        let ledger = try await SQLiteLedger.open(path: directory.ledgerPath)
        let earlier = try RunID(parsing: "20261204T020000Z-ffffff"), later = try RunID(parsing: "20261204T020000Z-000000")
        for (id, offset) in [(earlier, 0.1), (later, 0.7)] {
            try await ledger.createRun(Fixture.newRun(Fixture.plan(shards: 1, filesPerShard: 1), id: id, at: Fixture.time(offset)))
        }
        #expect(try await ledger.latestRun()?.id == later)
        #expect(try await ledger.recentRuns(limit: 2).map(\.id) == [later, earlier])
    }

    @Test func aRunThatFailsHalfWayLeavesNothingBehind() async throws {
        let directory = try TemporaryDirectory()
        let ledger = try await SQLiteLedger.open(path: directory.ledgerPath)
        var plan = Fixture.plan(shards: 3, filesPerShard: 100)
        plan.shards[2].index = 1
        let error = await #expect(throws: SQLiteError.self) { try await ledger.createRun(Fixture.newRun(plan)) }
        #expect(error?.is(.constraintPrimaryKey) == true)
        #expect(try await ledger.recentRuns(limit: 10).isEmpty)
        let connection = try SQLiteConnection(path: directory.ledgerPath, mode: .readOnly)
        for table in ["runs", "shards", "files", "events"] {
            #expect(try connection.firstRow("SELECT count(*) FROM \(table)") { $0.integer(0) } == 0, "\(table)")
        }
    }

    @Test func aRunIDIsRecordedOnce() async throws {
        let directory = try TemporaryDirectory()
        let ledger = try await SQLiteLedger.open(path: directory.ledgerPath)
        let new = Fixture.newRun(Fixture.plan(shards: 1, filesPerShard: 2))
        try await ledger.createRun(new)
        let error = await #expect(throws: SQLiteError.self) { try await ledger.createRun(new) }
        #expect(error?.is(.constraint) == true)
        #expect(try await ledger.files(of: new.id).count == 2)
    }

    @Test func unknownRunsAreReportedByID() async throws {
        let directory = try TemporaryDirectory()
        let ledger = try await SQLiteLedger.open(path: directory.ledgerPath)
        let missing = try RunID(parsing: "20261130T210501Z-abcdef")
        await #expect(throws: LedgerError.runNotFound(missing)) { try await ledger.run(missing) }
        await #expect(throws: LedgerError.runNotFound(missing)) { try await ledger.shards(of: missing) }
        await #expect(throws: LedgerError.runNotFound(missing)) { try await ledger.files(of: missing) }
        await #expect(throws: LedgerError.runNotFound(missing)) {
            try await ledger.updateRunState(missing, to: .finished, at: Fixture.time())
        }
        await #expect(throws: LedgerError.runNotFound(missing)) { try await ledger.attempts(of: missing, shard: 0) }
        let existing = try await ledger.createRun(Fixture.newRun(Fixture.plan(shards: 1, filesPerShard: 1))).id
        await #expect(throws: LedgerError.shardNotFound(existing, shard: 7)) {
            try await ledger.attempts(of: existing, shard: 7)
        }
    }

    @Test func runStatesFollowTheirRules() async throws {
        let directory = try TemporaryDirectory()
        let ledger = try await SQLiteLedger.open(path: directory.ledgerPath)
        let id = try await ledger.createRun(Fixture.newRun(Fixture.plan(shards: 1, filesPerShard: 1))).id
        try await ledger.updateRunState(id, to: .interrupted, at: Fixture.time(60))
        var record = try await ledger.run(id).record
        #expect(record.state == .interrupted && record.finishedAt == Fixture.time(60) && record.updatedAt == Fixture.time(60))
        try await ledger.updateRunState(id, to: .running, at: Fixture.time(120))
        record = try await ledger.run(id).record
        #expect(record.state == .running && record.finishedAt == nil)
        try await ledger.updateRunState(id, to: .running, at: Fixture.time(130))
        try await ledger.updateRunState(id, to: .finished, at: Fixture.time(180))
        await #expect(throws: LedgerError.illegalRunTransition(id, from: .finished, to: .running)) {
            try await ledger.updateRunState(id, to: .running, at: Fixture.time(240))
        }
        #expect(try await ledger.run(id).record.state == .finished)
        let messages = try await ledger.events(of: id, shard: nil).filter { $0.kind == .runState }.map(\.message)
        #expect(messages == ["running → interrupted", "interrupted → running", "running → running", "running → finished"])
    }

    @Test func aRunCanceledWhileItGoesEndsCanceledWhateverItsProcessRecordsAfter() async throws {
        let directory = try TemporaryDirectory()
        let ledger = try await SQLiteLedger.open(path: directory.ledgerPath)
        let going = try await ledger.createRun(Fixture.newRun(Fixture.plan(shards: 1, filesPerShard: 1))).id
        let other = try await ledger.createRun(Fixture.newRun(Fixture.plan(shards: 1, filesPerShard: 1),
                                                              id: RunID.generate(at: Fixture.time(5)))).id

        #expect(try await ledger.endRun(going, as: .canceled, at: Fixture.time(60)) == .canceled)
        #expect(try await ledger.endRun(going, as: .interrupted, at: Fixture.time(61)) == .canceled)
        #expect(try await ledger.endRun(going, as: .canceled, at: Fixture.time(62)) == .canceled)
        #expect(try await ledger.endRun(other, as: .failed, at: Fixture.time(63)) == .failed)

        #expect(try await ledger.run(going).record.state == .canceled)
        #expect(try await ledger.run(other).record.state == .failed)
        let messages = try await ledger.events(of: going, shard: nil).filter { $0.kind == .runState }.map(\.message)
        #expect(messages == ["running → canceled"])
    }

    @Test func completedFilesAreFoundByManifestAndRecipe() async throws {
        let (directory, ledger, plan, first) = try await ledgerWithShardZeroDone()
        var expected: [FileIdentity: [RecordedOutput]] = [:]
        for file in try await ledger.files(of: first, shard: 0, state: nil) {
            expected[FileIdentity(file.file)] =
                [RecordedOutput(path: "/out/\(file.index).jpg", size: 10, md5: nil)]
        }
        #expect(expected.count == plan.shards[0].files.count)
        #expect(try await nightlyDone(ledger) == expected)
        #expect(try await ledger.completedFiles(job: ManifestJob(legacyPath: "/etc/assemblyline/nightly.yaml"),
                                                recipeFingerprint: "sha256:recipe-b").isEmpty)
        #expect(try await ledger.completedFiles(job: ManifestJob(legacyPath: "/elsewhere.yaml"), recipeFingerprint: "sha256:recipe-a").isEmpty)
        // Known apart from the run that did them: with their outputs to check, even once that run is gone.
        try SQLiteConnection(path: directory.ledgerPath).execute("DELETE FROM runs WHERE id = ?", [.text(first.rawValue)])
        #expect(try await nightlyDone(ledger) == expected)
    }

    @Test func theDoneIndexIsPagedInPathOrderWithEachFilesOutputs() async throws {
        // Given: both shards done, so four files with an output each, shard 1's with MD5s
        let (directory, ledger, _, first) = try await ledgerWithShardZeroDone()
        defer { withExtendedLifetime(directory) {} }
        try await Self.completeShard(ledger, first, 1, md5: "0cc175b9c0f1b6a831c399e269772661")
        let job = ManifestJob(legacyPath: "/etc/assemblyline/nightly.yaml")

        // When: it is read three files a page
        var pages: [[DoneIndexRow]] = []
        repeat {
            pages.append(try await ledger.completedFiles(jobKey: job.key, recipeFingerprint: "sha256:recipe-a",
                                                         after: pages.last?.last?.identity, limit: 3, md5s: true))
        } while pages.last?.count == 3

        // Then: two pages, in path order, holding what the whole index holds
        let rows = pages.flatMap { $0 }
        #expect(pages.map(\.count) == [3, 1])
        #expect(zip(rows, rows.dropFirst()).allSatisfy { FileIdentity.order($0.identity, $1.identity) < 0 })
        let whole = try await nightlyEntries(ledger)
        #expect(Dictionary(uniqueKeysWithValues: rows.map { ($0.identity, $0.file) }) == whole && whole.count == 4)
        #expect(try await ledger.completedFiles(jobKey: job.key, recipeFingerprint: "sha256:recipe-b", after: nil, limit: 3, md5s: true).isEmpty)
        // and without the MD5s, the same rows with none
        let plain = try await ledger.completedFiles(jobKey: job.key, recipeFingerprint: "sha256:recipe-a", after: nil, limit: 4, md5s: false)
        #expect(rows.contains { $0.file.outputs.contains { $0.md5 != nil } }, "the outputs have MD5s")
        #expect(plain.map(\.identity) == rows.map(\.identity) && plain.allSatisfy { $0.file.outputs.allSatisfy { $0.md5 == nil } })
        #expect(plain.map { $0.file.outputs.map(\.path) } == rows.map { $0.file.outputs.map(\.path) })
    }

    @Test func pruneForgetsTheDoneFilesNoRunSkippedSinceItsCutoffAndKeepsTheOthersWithTheirOutputs() async throws {
        // Given: a run that did two shards' files on day 0, and a run on day 10 that skipped only shard 0's
        let (directory, ledger, plan, first) = try await ledgerWithShardZeroDone()
        defer { withExtendedLifetime(directory) {} }
        try await Self.completeShard(ledger, first, 1)
        try await ledger.updateRunState(first, to: .finished, at: Fixture.time(300))
        let entries = try await nightlyEntries(ledger)
        try await review(ledger, day: 10, missing: plan.shards[1].files, entries: entries)

        // When: the runs before day 5 are pruned (a dry run first counts what would go, and changes nothing)
        let dry = try await ledger.prune(createdBefore: Fixture.time(5 * 86_400), keepingLast: 0, gone: [], dryRun: true)
        let stillKnown = try await nightlyDone(ledger).count
        #expect(dry.runs.map(\.id) == [first] && dry.doneFiles == plan.shards[1].files.count && stillKnown == 4)
        let pruned = try await ledger.prune(createdBefore: Fixture.time(5 * 86_400), keepingLast: 0, gone: [], dryRun: false).runs

        // Then: the first run is gone; shard 0's files stay known with their outputs, shard 1's are forgotten
        #expect(pruned.map(\.id) == [first])
        let known = try await nightlyDone(ledger)
        #expect(Set(known.keys) == Set(plan.shards[0].files.map(FileIdentity.init)))
        #expect(known.values.allSatisfy { $0.count == 1 && $0[0].size == 10 })
    }

    @Test func pruneKeepsTheNewestRunsOfEachJobAndTheDoneFilesTheyConfirmed() async throws {
        // Given: a run that did four files on day 0, and nothing since
        let (directory, ledger, plan, first) = try await ledgerWithShardZeroDone()
        defer { withExtendedLifetime(directory) {} }
        try await Self.completeShard(ledger, first, 1)

        // When: everything before day 30 is pruned, keeping the newest run of each job
        let pruning = try await ledger.prune(createdBefore: Fixture.time(30 * 86_400), keepingLast: 1, gone: [], dryRun: false)

        // Then: the run stays, and so do its four files: the next night skips them
        #expect(pruning.runs.isEmpty && pruning.doneFiles == 0)
        #expect(Set(try await nightlyDone(ledger).keys) == Set(plan.shards.flatMap(\.files).map(FileIdentity.init)))
    }

    @Test func aNightThatSkipsEveryFileWritesNoRowOfTheDoneIndex() async throws {
        // Given: four files done on day 0
        let (directory, ledger, plan, first) = try await ledgerWithShardZeroDone()
        try await Self.completeShard(ledger, first, 1)
        let connection = try SQLiteConnection(path: directory.ledgerPath, mode: .readOnly)
        let rows = { try connection.rows("SELECT id, confirmed_at, coalesce(missed_at, '') FROM done_files ORDER BY id") { statement in
            (0..<3).map { statement.text($0) ?? "" }
        } }
        let before = try rows()

        // When: a night on day 10 skips all four
        try await review(ledger, day: 10, missing: [], entries: try await nightlyEntries(ledger))

        // Then: no row of the files changed, and they count as confirmed on day 10
        #expect(try rows() == before && before.count == 4)
        _ = try await ledger.prune(createdBefore: Fixture.time(5 * 86_400), keepingLast: 0, gone: [], dryRun: false)
        #expect(Set(try await nightlyDone(ledger).keys) == Set(plan.shards.flatMap(\.files).map(FileIdentity.init)))
    }

    @Test func aFileMissedOneNightAndSkippedTheNextCountsAsConfirmedAgain() async throws {
        // Given: four files done on day 0; on day 10 shard 1's files are missing (gone, or their outputs), on day 20
        // the first of them is back
        let (directory, ledger, plan, first) = try await ledgerWithShardZeroDone()
        defer { withExtendedLifetime(directory) {} }
        try await Self.completeShard(ledger, first, 1)
        let (back, gone) = (plan.shards[1].files[0], plan.shards[1].files[1])
        try await review(ledger, day: 10, missing: [back, gone], entries: try await nightlyEntries(ledger))
        let missed = try await nightlyEntries(ledger)
        #expect(missed.filter(\.value.missed).keys.map(\.path).sorted() == [back.path, gone.path])
        try await review(ledger, day: 20, missing: [gone], entries: missed)

        // When: the runs before day 15 are pruned
        _ = try await ledger.prune(createdBefore: Fixture.time(15 * 86_400), keepingLast: 0, gone: [], dryRun: false)

        // Then: the file back on day 20 is kept, the one missed since day 10 is forgotten
        #expect(Set(try await nightlyDone(ledger).keys) == Set((plan.shards[0].files + [back]).map(FileIdentity.init)))
        #expect(try await nightlyEntries(ledger).values.allSatisfy { !$0.missed })
    }

    @Test func aForcedRunConfirmsNothingItDidNotDo() async throws {
        // Given: four files done on day 0, and a --force run on day 10 (it reads no done index) that did none of them
        let (directory, ledger, plan, first) = try await ledgerWithShardZeroDone()
        defer { withExtendedLifetime(directory) {} }
        try await Self.completeShard(ledger, first, 1)
        try await ledger.createRun(Fixture.newRun(plan, id: RunID.generate(at: Fixture.time(10 * 86_400)), at: Fixture.time(10 * 86_400)))

        // When: the runs before day 5 are pruned
        _ = try await ledger.prune(createdBefore: Fixture.time(5 * 86_400), keepingLast: 0, gone: [], dryRun: false)

        // Then: the four files are forgotten, as no run did or skipped them since day 0
        #expect(try await nightlyDone(ledger).isEmpty)
    }

    /// Records a run on `day` that skips every file of `entries` but `missing`, as ``IncrementalPlan`` reviews the done index.
    private func review(_ ledger: SQLiteLedger, day: Double, missing: [PlannedFile], entries: [FileIdentity: CompletedFile]) async throws {
        let gone = Set(missing.map(FileIdentity.init))
        let review = DoneIndexReview(missed: entries.filter { gone.contains($0.key) && !$0.value.missed }.map(\.value.entry).sorted(),
                                     regained: entries.filter { !gone.contains($0.key) && $0.value.missed }.map(\.value.entry).sorted())
        let time = Fixture.time(day * 86_400)
        let run = Fixture.newRun(Plan(shards: []), id: RunID.generate(at: time), skippedCount: entries.count - gone.count, review: review, at: time)
        try await ledger.createRun(run)
        try await ledger.updateRunState(run.id, to: .finished, at: time + 1)
    }

    /// A fresh ledger with a run of two shards of two files whose shard 0 is done.
    private func ledgerWithShardZeroDone() async throws -> (TemporaryDirectory, SQLiteLedger, Plan, RunID) {
        let directory = try TemporaryDirectory()
        let ledger = try await SQLiteLedger.open(path: directory.ledgerPath)
        let plan = Fixture.plan(shards: 2, filesPerShard: 2)
        let first = try await ledger.createRun(Fixture.newRun(plan)).id
        try await Self.completeShard(ledger, first, 0)
        return (directory, ledger, plan, first)
    }

    /// The done files of the fixture's manifest and recipe, with their outputs.
    private func nightlyDone(_ ledger: SQLiteLedger) async throws -> [FileIdentity: [RecordedOutput]] {
        try await nightlyEntries(ledger).mapValues(\.outputs)
    }

    /// The done index of the fixture's manifest and recipe.
    private func nightlyEntries(_ ledger: SQLiteLedger) async throws -> [FileIdentity: CompletedFile] {
        try await ledger.completedFiles(job: ManifestJob(legacyPath: "/etc/assemblyline/nightly.yaml"), recipeFingerprint: "sha256:recipe-a")
    }

    /// Drives shard `shard` through the whole happy path, with one result per file.
    static func completeShard(_ ledger: SQLiteLedger, _ run: RunID, _ shard: Int, md5: String? = nil) async throws {
        try await ledger.recordAttempt(run, shard: shard, assemblyID: .generate(), at: Fixture.time(1))
        try await ledger.transition(run, shard: shard, .signed, at: Fixture.time(2))
        try await ledger.transition(run, shard: shard, .created(assemblyURL: "http://127.0.0.1:9442/assemblies/a",
                                                                 tusURL: nil), at: Fixture.time(3))
        let files = try await ledger.files(of: run, shard: shard, state: nil)
        let results = files.map { file in
            NewResult(source: .file(file.index), step: "resized", remoteID: "r\(file.index)", name: "x.jpg",
                      url: "http://127.0.0.1:9442/results/\(file.index)", size: 10, md5: md5, mime: "image/jpeg",
                      width: 100, height: 75, delivery: .download(to: "/out/\(file.index).jpg"))
        }
        try await ledger.transition(run, shard: shard, .completed(results: results), at: Fixture.time(4))
        for result in try await ledger.results(of: run, shard: shard) {
            try await ledger.recordDownloads(run, results: [result.id], at: Fixture.time(5))
        }
        try await ledger.transition(run, shard: shard, .downloaded(done: files.map(\.index), noResult: []), at: Fixture.time(6))
    }
}
