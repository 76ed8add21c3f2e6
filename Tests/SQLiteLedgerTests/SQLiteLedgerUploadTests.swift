import AssemblyLine
import Foundation
import SQLiteLedger
import Testing

@Suite struct SQLiteLedgerUploadTests {
    static let first = "http://127.0.0.1:9442/resumable/files/a1"
    static let second = "http://127.0.0.1:9442/resumable/files/b2"

    /// A ledger with one run of two shards of three files, shard 0 with one open attempt.
    private static func setUp() async throws -> LedgerWithRun {
        let setup = try await LedgerWithRun()
        try await setup.ledger.recordAttempt(setup.run, shard: 0, assemblyID: .generate(), at: Fixture.time(1))
        return setup
    }

    @Test func offsetsMoveForwardAndAreReadBack() async throws {
        let setup = try await Self.setUp()
        let (ledger, run) = (setup.ledger, setup.run)
        try await ledger.recordUpload(run, shard: 0, attempt: 1, file: 1, url: Self.first, length: 1_000, at: Fixture.time(2))
        try await ledger.recordUploadOffset(run, shard: 0, attempt: 1, file: 1, url: Self.first, offset: 400, at: Fixture.time(3))
        try await ledger.recordUploadOffset(run, shard: 0, attempt: 1, file: 1, url: Self.first, offset: 400, at: Fixture.time(4))
        try await ledger.recordUploadOffset(run, shard: 0, attempt: 1, file: 1, url: Self.first, offset: 1_000, at: Fixture.time(5))
        try await ledger.recordUpload(run, shard: 0, attempt: 1, file: 0, url: Self.second, length: 0, at: Fixture.time(6))
        let uploads = try await ledger.uploads(of: run, shard: 0)
        #expect(uploads == [
            UploadRecord(shardIndex: 0, attempt: 1, fileIndex: 0, url: Self.second, offset: 0, length: 0,
                         createdAt: Fixture.time(6), updatedAt: Fixture.time(6)),
            UploadRecord(shardIndex: 0, attempt: 1, fileIndex: 1, url: Self.first, offset: 1_000, length: 1_000,
                         createdAt: Fixture.time(2), updatedAt: Fixture.time(5)),
        ])
        #expect(uploads.allSatisfy { $0.isComplete })
        #expect(try await ledger.uploads(of: run, shard: 1).isEmpty)
        let events = try await ledger.events(of: run, shard: 0).filter { $0.kind == .uploadCreated }.map(\.message)
        #expect(events == ["file 1: tus upload of 1000 bytes for attempt 1", "file 0: tus upload of 0 bytes for attempt 1"])
    }

    @Test func aNewURLReplacesTheUploadAndTheSameOneChangesNothing() async throws {
        let setup = try await Self.setUp()
        let (ledger, run) = (setup.ledger, setup.run)
        try await ledger.recordUpload(run, shard: 0, attempt: 1, file: 2, url: Self.first, length: 500, at: Fixture.time(2))
        try await ledger.recordUploadOffset(run, shard: 0, attempt: 1, file: 2, url: Self.first, offset: 300, at: Fixture.time(3))
        try await ledger.recordUpload(run, shard: 0, attempt: 1, file: 2, url: Self.first, length: 500, at: Fixture.time(4))
        #expect(try await ledger.uploads(of: run, shard: 0).map(\.offset) == [300])

        try await ledger.recordUpload(run, shard: 0, attempt: 1, file: 2, url: Self.second, length: 500, at: Fixture.time(5))
        let replaced = try #require(try await ledger.uploads(of: run, shard: 0).first)
        #expect(replaced.url == Self.second && replaced.offset == 0 && replaced.createdAt == Fixture.time(5))
        await #expect(throws: LedgerError.uploadNotFound(run, shard: 0, attempt: 1, file: 2)) {
            try await ledger.recordUploadOffset(run, shard: 0, attempt: 1, file: 2, url: Self.first, offset: 400, at: Fixture.time(6))
        }
        let events = try await ledger.events(of: run, shard: 0).filter { $0.kind == .uploadCreated }.map(\.message)
        #expect(events.last == "file 2: tus upload of 500 bytes for attempt 1, replacing the earlier one")
        #expect(events.count == 2)
    }

    @Test func offsetsNeverGoBackwardsNorPastTheLength() async throws {
        let setup = try await Self.setUp()
        let (ledger, run) = (setup.ledger, setup.run)
        try await ledger.recordUpload(run, shard: 0, attempt: 1, file: 0, url: Self.first, length: 100, at: Fixture.time(2))
        try await ledger.recordUploadOffset(run, shard: 0, attempt: 1, file: 0, url: Self.first, offset: 60, at: Fixture.time(3))
        let backwards = await #expect(throws: LedgerError.uploadOffsetBackwards(run, file: 0, recorded: 60, offset: 59)) {
            try await ledger.recordUploadOffset(run, shard: 0, attempt: 1, file: 0, url: Self.first, offset: 59, at: Fixture.time(4))
        }
        #expect(backwards?.description == "run \(run), file 0: tus offset 59 is behind the recorded 60 (offsets only grow)")
        await #expect(throws: LedgerError.uploadOffsetBeyondLength(run, file: 0, offset: 101, length: 100)) {
            try await ledger.recordUploadOffset(run, shard: 0, attempt: 1, file: 0, url: Self.first, offset: 101, at: Fixture.time(4))
        }
        await #expect(throws: LedgerError.uploadNotFound(run, shard: 0, attempt: 1, file: 1)) {
            try await ledger.recordUploadOffset(run, shard: 0, attempt: 1, file: 1, url: Self.first, offset: 1, at: Fixture.time(4))
        }
        let kept = try #require(try await ledger.uploads(of: run, shard: 0).first)
        #expect(kept.offset == 60 && kept.updatedAt == Fixture.time(3))
    }

    @Test func uploadsBelongToAnAttemptAndAFileOfTheShard() async throws {
        let setup = try await Self.setUp()
        let (ledger, run) = (setup.ledger, setup.run)
        await #expect(throws: LedgerError.attemptNotFound(run, shard: 0, attempt: 2)) {
            try await ledger.recordUpload(run, shard: 0, attempt: 2, file: 0, url: Self.first, length: 1, at: Fixture.time(2))
        }
        await #expect(throws: LedgerError.fileNotInShard(run, file: 3, shard: 0)) {
            try await ledger.recordUpload(run, shard: 0, attempt: 1, file: 3, url: Self.first, length: 1, at: Fixture.time(2))
        }
        await #expect(throws: LedgerError.fileNotFound(run, file: 42)) {
            try await ledger.recordUpload(run, shard: 0, attempt: 1, file: 42, url: Self.first, length: 1, at: Fixture.time(2))
        }
        await #expect(throws: LedgerError.invalidUploadLength(run, file: 0, length: -1)) {
            try await ledger.recordUpload(run, shard: 0, attempt: 1, file: 0, url: Self.first, length: -1, at: Fixture.time(2))
        }
        await #expect(throws: LedgerError.shardNotFound(run, shard: 7)) { try await ledger.uploads(of: run, shard: 7) }
        let missing = RunID.generate(at: Fixture.time(99))
        await #expect(throws: LedgerError.runNotFound(missing)) {
            try await ledger.recordUploadOffset(missing, shard: 0, attempt: 1, file: 0, url: Self.first, offset: 1, at: Fixture.time(2))
        }
        #expect(try await ledger.uploads(of: run, shard: 0).isEmpty)
    }

    @Test func eachAttemptKeepsItsOwnUploadsAcrossReopening() async throws {
        let setup = try await Self.setUp()
        let (ledger, run) = (setup.ledger, setup.run)
        try await ledger.recordUpload(run, shard: 0, attempt: 1, file: 0, url: Self.first, length: 100, at: Fixture.time(2))
        try await ledger.recordUploadOffset(run, shard: 0, attempt: 1, file: 0, url: Self.first, offset: 50, at: Fixture.time(3))
        try await ledger.transition(run, shard: 0, .failed(Fixture.resizeError), at: Fixture.time(4))
        try await ledger.transition(run, shard: 0, .restarted, at: Fixture.time(5))
        try await ledger.recordAttempt(run, shard: 0, assemblyID: .generate(), at: Fixture.time(6))
        try await ledger.recordUpload(run, shard: 0, attempt: 2, file: 0, url: Self.second, length: 100, at: Fixture.time(7))
        await ledger.close()

        let reopened = try await SQLiteLedger.open(path: setup.directory.ledgerPath, mode: .readOnly)
        let uploads = try await reopened.uploads(of: run, shard: 0)
        #expect(uploads.map(\.attempt) == [1, 2])
        #expect(uploads.map(\.url) == [Self.first, Self.second])
        #expect(uploads.map(\.offset) == [50, 0])
    }

    @Test func deletingARunDeletesItsUploads() async throws {
        let setup = try await Self.setUp()
        try await setup.ledger.recordUpload(setup.run, shard: 0, attempt: 1, file: 0, url: Self.first, length: 100, at: Fixture.time(2))
        await setup.ledger.close()
        let connection = try SQLiteConnection(path: setup.directory.ledgerPath)
        try connection.execute("DELETE FROM runs WHERE id = ?", [.text(setup.run.rawValue)])
        #expect(try connection.firstRow("SELECT count(*) FROM uploads") { $0.integer(0) } == 0)
        #expect(try connection.integrityCheck() == ["ok"])
    }
}
