import AssemblyLine
import Foundation
import SQLiteLedger
import TestSupport
import Testing

private struct Boom: Error, Equatable {}

@Suite struct SQLiteTransactionTests {
    private func makeConnection(_ directory: TemporaryDirectory) throws -> SQLiteConnection {
        let connection = try SQLiteConnection(path: directory.file("tx.sqlite"))
        try connection.enableWAL()
        try connection.execute("CREATE TABLE parent (id INTEGER PRIMARY KEY); CREATE TABLE t (x INTEGER)")
        return connection
    }

    private func count(_ connection: SQLiteConnection, _ table: String = "t") throws -> Int64? {
        try connection.firstRow("SELECT count(*) FROM \(table)") { $0.integer(0) } ?? nil
    }

    /// Whether a transaction is open on the connection: SQLite refuses to begin one inside another.
    private func isInTransaction(_ connection: SQLiteConnection) -> Bool {
        do {
            try connection.execute("BEGIN")
            try connection.execute("ROLLBACK")
            return false
        } catch {
            return true
        }
    }

    @Test func aCommittedTransactionKeepsItsRowsAndReturnsTheBodysValue() throws {
        let directory = try TemporaryDirectory()
        let connection = try makeConnection(directory)
        let value = try connection.inTransaction(.immediate) {
            try connection.execute("INSERT INTO t VALUES (1), (2)")
            return "done"
        }
        #expect(value == "done")
        #expect(try count(connection) == 2)
        #expect(!isInTransaction(connection))
    }

    @Test(arguments: [TransactionKind.deferred, .immediate, .exclusive])
    func aFailedTransactionLeavesNothingBehind(kind: TransactionKind) throws {
        let directory = try TemporaryDirectory()
        let connection = try makeConnection(directory)
        #expect(throws: Boom()) {
            try connection.inTransaction(kind) {
                try connection.execute("INSERT INTO t VALUES (1), (2), (3)")
                #expect(isInTransaction(connection))
                throw Boom()
            }
        }
        #expect(try count(connection) == 0)
        #expect(!isInTransaction(connection))
    }

    @Test func theFirstErrorWinsEvenWhenTheRollbackFails() throws {
        let directory = try TemporaryDirectory()
        let connection = try makeConnection(directory)
        #expect(throws: Boom()) {
            try connection.inTransaction(.immediate) {
                try connection.execute("INSERT INTO t VALUES (1)")
                // End the transaction behind the helper's back, so that its ROLLBACK fails.
                try connection.execute("ROLLBACK")
                throw Boom()
            }
        }
        #expect(throws: SQLiteError.self) { try connection.execute("ROLLBACK") }
        #expect(try count(connection) == 0)
    }

    @Test func aFailedCommitRollsBackAndThrowsTheCommitError() throws {
        let directory = try TemporaryDirectory()
        let connection = try makeConnection(directory)
        try connection.execute("CREATE TABLE child (parent_id INTEGER REFERENCES parent (id))")
        let error = try #require(throws: SQLiteError.self) {
            try connection.inTransaction(.immediate) {
                try connection.execute("PRAGMA defer_foreign_keys = ON")
                try connection.execute("INSERT INTO t VALUES (1)")
                try connection.execute("INSERT INTO child VALUES (42)")
            }
        }
        #expect(error.extendedCode == .constraintForeignKey)
        #expect(error.sql == "COMMIT TRANSACTION")
        #expect(try count(connection) == 0)
        #expect(try count(connection, "child") == 0)
        #expect(!isInTransaction(connection))
    }

    @Test func readersReadWhileAWriteTransactionIsOpen() async throws {
        let directory = try TemporaryDirectory()
        let writer = try makeConnection(directory)
        try writer.execute("INSERT INTO t VALUES (1)")
        let reader = try SQLiteConnection(path: directory.file("tx.sqlite"), mode: .readOnly,
                                          busyTimeout: .milliseconds(100))
        try writer.inTransaction(.immediate) {
            try writer.execute("INSERT INTO t VALUES (2), (3)")
            // The reader sees the last committed state, at once, without waiting for the writer.
            #expect(try count(reader) == 1)
        }
        #expect(try count(reader) == 3)
    }

    @Test func aWriterCommitsWhileAReadTransactionIsOpen() throws {
        let directory = try TemporaryDirectory()
        let writer = try makeConnection(directory)
        let reader = try SQLiteConnection(path: directory.file("tx.sqlite"), mode: .readOnly)
        try writer.execute("INSERT INTO t VALUES (1)")
        try reader.inTransaction(.deferred) {
            #expect(try count(reader) == 1)
            // In rollback-journal mode this commit would wait for the reader and fail with SQLITE_BUSY.
            try writer.inTransaction(.immediate) { try writer.execute("INSERT INTO t VALUES (2)") }
            // The reader keeps its snapshot until its transaction ends.
            #expect(try count(reader) == 1)
        }
        #expect(try count(reader) == 2)
    }

    @Test func aReadOnlyLedgerReadsWhileAnotherConnectionWrites() async throws {
        let directory = try TemporaryDirectory()
        let ledger = try await SQLiteLedger.open(path: directory.ledgerPath)
        let run = try await ledger.createRun(Fixture.newRun(Fixture.plan(shards: 1, filesPerShard: 1)))
        let reader = try await SQLiteLedger.open(path: directory.ledgerPath, mode: .readOnly)
        let writer = try SQLiteConnection(path: directory.ledgerPath, busyTimeout: .milliseconds(100))
        try writer.execute("BEGIN IMMEDIATE")
        try writer.execute("UPDATE runs SET manifest_name = 'renamed'")
        #expect(try await reader.recentRuns(limit: 10).map(\.manifestName) == ["nightly"])
        try writer.execute("COMMIT")
        #expect(try await reader.recentRuns(limit: 10).map(\.manifestName) == ["renamed"])
        let error = await #expect(throws: SQLiteError.self) {
            try await reader.recordEvent(run.id, shard: nil, .streamEnded(url: "https://api.test/ws", reason: "from a reader"), at: Fixture.time())
        }
        #expect(error?.code == .readOnly)
    }
}
