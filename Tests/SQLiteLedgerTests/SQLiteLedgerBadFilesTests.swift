import AssemblyLine
import Foundation
import SQLiteLedger
import TestSupport
import Testing

/// The index of known bad files: entered by a file's own failure, confirmed by the runs that leave it out,
/// emptied by a run that does it, forgotten by a prune.
@Suite struct SQLiteLedgerBadFilesTests {
    static let manifest = "/etc/assemblyline/nightly.yaml"
    static let day: Double = 86_400

    private func known(_ ledger: SQLiteLedger, recipe: String = "sha256:recipe-a") async throws -> [FileIdentity: FailureReason] {
        try await ledger.knownBadFiles(job: ManifestJob(legacyPath: Self.manifest), recipeFingerprint: recipe)
    }

    @Test func aFilesOwnFailureIsKnownToTheNextRunsUntilOneDoesItOrAPruneForgetsIt() async throws {
        // Given: a run that failed photo-0 for a reason of its own and photo-1 for its shard's
        let directory = try TemporaryDirectory()
        let ledger = try await SQLiteLedger.open(path: directory.ledgerPath)
        let plan = Fixture.plan(shards: 2, filesPerShard: 2)
        let bad = plan.shards[0].files[0]
        let first = try await ledger.createRun(Fixture.newRun(plan)).id
        try await ledger.failFiles(first, files: [0], reason: Fixture.resizeError, knownBad: true, at: Fixture.time(1))
        try await ledger.failFiles(first, files: [1], reason: Fixture.unavailable, knownBad: false, at: Fixture.time(2))

        // Then: only photo-0 is known bad, with its reason, for this manifest and recipe alone
        #expect(try await known(ledger) == [FileIdentity(bad): Fixture.resizeError])
        #expect(try await known(ledger, recipe: "sha256:recipe-b").isEmpty)

        // When: a run ten days later leaves it out
        let later = Fixture.time(10 * Self.day)
        let second = try await ledger.createRun(Fixture.newRun(Plan(shards: []), id: RunID.generate(at: later),
                                                               knownBad: [KnownBadFile(file: bad, reason: Fixture.resizeError)], at: later)).id

        // Then: it is recorded known_bad, in no shard, with its reason, and counted
        let recorded = try await ledger.files(of: second)
        #expect(recorded.map(\.state) == [.knownBad] && recorded.first?.shardIndex == nil)
        #expect(recorded.first?.failure == Fixture.resizeError)
        #expect(try await ledger.run(second).filesByState[.knownBad] == 1)
        // A prune before the later run keeps it (that run confirmed it); one after both runs forgets it
        _ = try await ledger.prune(createdBefore: Fixture.time(5 * Self.day), keepingLast: 0, gone: [], dryRun: false)
        #expect(try await known(ledger).keys.map(\.path) == [bad.path])
        _ = try await ledger.prune(createdBefore: Fixture.time(20 * Self.day), keepingLast: 0, gone: [], dryRun: false)
        #expect(try await known(ledger).isEmpty)
        #expect(try await ledger.integrityCheck() == ["ok"])
    }

    @Test func aRunThatDoesAKnownBadFileTakesItOut() async throws {
        let directory = try TemporaryDirectory()
        let ledger = try await SQLiteLedger.open(path: directory.ledgerPath)
        let plan = Fixture.plan(shards: 1, filesPerShard: 2)
        let first = try await ledger.createRun(Fixture.newRun(plan)).id
        try await ledger.failFiles(first, files: [0, 1], reason: Fixture.resizeError, knownBad: true, at: Fixture.time(1))
        #expect(try await known(ledger).count == 2)

        // When: a run with --retry-failed sends both and does them
        let retried = try await ledger.createRun(Fixture.newRun(plan, id: RunID.generate(at: Fixture.time(60)), at: Fixture.time(60))).id
        try await SQLiteLedgerRunTests.completeShard(ledger, retried, 0)

        // Then
        #expect(try await known(ledger).isEmpty)
    }
}
