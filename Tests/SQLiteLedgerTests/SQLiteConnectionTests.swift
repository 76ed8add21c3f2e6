import Foundation
import SQLiteLedger
import TestSupport
import Testing

@Suite struct SQLiteConnectionTests {
    @Test func ledgerFilesAreInWALModeWithForeignKeysOn() async throws {
        let directory = try TemporaryDirectory()
        _ = try await SQLiteLedger.open(stateDirectory: directory.path)
        #expect(directory.ledgerPath.hasSuffix("/ledger.sqlite"))
        let connection = try SQLiteConnection(path: directory.ledgerPath, mode: .readOnly)
        #expect(try connection.journalMode() == "wal")
        #expect(try connection.pragmaValue("foreign_keys") == "1")
        #expect(try connection.integrityCheck() == ["ok"])
    }

    @Test func aDatabaseThatCannotUseWALIsRefused() async throws {
        let connection = try SQLiteConnection(path: ":memory:")
        let error = try #require(throws: SQLiteError.self) { try connection.enableWAL() }
        #expect(error.kind == .walUnavailable)
        #expect(error.description == ":memory:: journal_mode is 'memory', expected 'wal' (WAL needs a local file system)")
        await #expect(throws: SQLiteError.self) { try await SQLiteLedger.open(path: ":memory:") }
    }

    @Test func aReadOnlyLedgerRefusesAFileNotInWALMode() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("plain.sqlite")
        try SQLiteConnection(path: path).execute("PRAGMA application_id = \(SQLiteLedger.applicationID); CREATE TABLE t (x)")
        let error = await #expect(throws: SQLiteError.self) {
            try await SQLiteLedger.open(path: path, mode: .readOnly)
        }
        #expect(error?.kind == .walUnavailable)
    }

    @Test func foreignKeysAreEnforced() async throws {
        let directory = try TemporaryDirectory()
        _ = try await SQLiteLedger.open(path: directory.ledgerPath)
        let connection = try SQLiteConnection(path: directory.ledgerPath)
        let error = try #require(throws: SQLiteError.self) {
            try connection.execute("""
                INSERT INTO shards (run_id, shard_index, state, file_count, bytes, updated_at)
                VALUES (?, 0, 'planned', 0, 0, '2026-11-30T21:05:01.000Z')
                """, ["20261130T210501Z-000000"])
        }
        #expect(error.is(.constraint))
        #expect(error.is(.constraintForeignKey))
        #expect(error.extendedCode == .constraintForeignKey)
        #expect(!error.is(.constraintUnique))
        #expect(try connection.firstRow("SELECT count(*) FROM shards") { $0.integer(0) } == 0)
    }

    @Test func errorsNameTheStatementButNeverItsArguments() throws {
        let directory = try TemporaryDirectory()
        let connection = try SQLiteConnection(path: directory.file("errors.sqlite"))
        try connection.execute("CREATE TABLE secrets (value TEXT NOT NULL UNIQUE)")
        try connection.execute("INSERT INTO secrets (value) VALUES (?)", ["token-abc123"])
        let error = try #require(throws: SQLiteError.self) {
            try connection.execute("INSERT INTO secrets (value) VALUES (?)", ["token-abc123"])
        }
        #expect(error.kind == .sqlite)
        #expect(error.code == .constraint)
        #expect(error.extendedCode == .constraintUnique)
        #expect(error.sql == "INSERT INTO secrets (value) VALUES (?)")
        #expect(error.description == directory.file("errors.sqlite")
            + ": SQLite error 19/2067: UNIQUE constraint failed: secrets.value, while executing `INSERT INTO secrets (value) VALUES (?)`")
        #expect(!error.description.contains("token-abc123"))
    }

    @Test func syntaxErrorsAndSeveralStatementsAreRefusedAtPrepare() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        let syntax = try #require(throws: SQLiteError.self) { try connection.prepare("SELEKT 1") }
        #expect(syntax.code == .error)
        #expect(syntax.message.contains("syntax error"))
        let several = try #require(throws: SQLiteError.self) { try connection.prepare("SELECT 1; SELECT 2") }
        #expect(several.code == .misuse)
        #expect(try connection.prepare("SELECT 1;  ").firstRow { $0.integer(0) } == 1)
    }

    @Test func cachedStatementsAreReusedAndStartClean() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        try connection.execute("CREATE TABLE t (a INTEGER, b TEXT)")
        let first = try connection.cachedStatement("INSERT INTO t (a, b) VALUES (?, ?)")
        try first.bind([7, "seven"])
        try first.step()
        let second = try connection.cachedStatement("INSERT INTO t (a, b) VALUES (?, ?)")
        #expect(first === second)
        try second.step()
        let rows = try connection.rows("SELECT a, b FROM t ORDER BY rowid") { [$0.integer(0), $0.text(1).map { _ in 1 }] }
        #expect(rows == [[7, 1], [nil, nil]])
    }

    @Test func valuesRoundTrip() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        let statement = try connection.prepare("SELECT ?, ?, ?, ?, ?")
        try statement.bind([.integer(Int64.min), .real(0.5), .text("naïve ✓"), .null, .bool(true)])
        #expect(try statement.step())
        #expect(statement.integer(0) == Int64.min)
        #expect(statement.real(1) == 0.5)
        #expect(statement.text(2) == "naïve ✓")
        #expect(statement.isNull(3) && statement.text(3) == nil && statement.integer(3) == nil)
        #expect(statement.integer(4) == 1)
        #expect(try statement.step() == false)
    }

    @Test func openingAMissingFileReadOnlyFailsWithThePath() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("missing.sqlite")
        let error = try #require(throws: SQLiteError.self) { try SQLiteConnection(path: path, mode: .readOnly) }
        #expect(error.code == .cantOpen)
        #expect(error.description.hasPrefix(path + ": SQLite error 14"))
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
