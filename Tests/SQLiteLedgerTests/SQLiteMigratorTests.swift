import AssemblyLine
import Foundation
import SQLiteLedger
import TestSupport
import Testing

private struct Boom: Error, Equatable {}

@Suite struct SQLiteMigratorTests {
    static let tables = ["attempts", "bad_files", "done_files", "done_outputs", "done_sets", "events", "files", "migrations", "result_inputs", "results", "runs",
                         "shards", "uploads"]

    private func tables(_ connection: SQLiteConnection) throws -> [String] {
        try connection.rows("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name") { $0.text(0) ?? "" }
    }

    static let versions = ["v1-runs-shards-files-attempts-results-events", "v2-attempt-bytes-sent", "v3-tus-uploads",
                           "v4-no-result-files-and-recorded-results", "v5-canceled-runs", "v6-done-files",
                           "v7-result-sources", "v8-known-bad-files",
                           "v9-files-by-shard-in-order", "v10-done-sets-and-reviews", "v11-batches-and-partitions",
                           "v12-attempt-phases-and-usage", "v13-jobs-and-takeovers", "v14-one-done-version-a-path",
                           "v15-replays-and-template-runs", "v16-shard-fields"]

    @Test func anEmptyFileIsMigratedToTheLatestVersion() async throws {
        let directory = try TemporaryDirectory()
        let ledger = try await SQLiteLedger.open(path: directory.ledgerPath)
        #expect(try await ledger.appliedMigrations() == Self.versions)
        let connection = try SQLiteConnection(path: directory.ledgerPath, mode: .readOnly)
        #expect(try tables(connection) == Self.tables)
        let indices = try connection.rows("SELECT name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL") {
            $0.text(0) ?? ""
        }
        #expect(Set(indices) == ["runs_by_manifest", "shards_by_state", "files_by_shard", "files_by_state",
                                 "attempts_one_open", "results_by_shard", "results_by_file", "events_by_run",
                                 "uploads_by_file", "done_outputs_by_file", "result_inputs_by_file",
                                 "bad_files_by_confirmation", "runs_by_batch", "runs_by_job", "runs_by_name"])
    }

    @Test func reopeningChangesNothing() async throws {
        let directory = try TemporaryDirectory()
        let first = try await SQLiteLedger.open(path: directory.ledgerPath)
        let run = try await first.createRun(Fixture.newRun(Fixture.plan(shards: 2, filesPerShard: 3)))
        await first.close()
        let connection = try SQLiteConnection(path: directory.ledgerPath, mode: .readOnly)
        let before = try connection.rows("SELECT id, applied_at FROM migrations") { [$0.text(0), $0.text(1)] }
        for _ in 0..<3 {
            let again = try await SQLiteLedger.open(path: directory.ledgerPath)
            #expect(try await again.run(run.id).record == run)
            await again.close()
        }
        #expect(try connection.rows("SELECT id, applied_at FROM migrations") { [$0.text(0), $0.text(1)] } == before)
        #expect(before.count == Self.versions.count)
    }

    @Test func aLedgerFromTheFutureIsRefusedUntouched() async throws {
        let directory = try TemporaryDirectory()
        _ = try await SQLiteLedger.open(path: directory.ledgerPath)
        let connection = try SQLiteConnection(path: directory.ledgerPath)
        try connection.execute("INSERT INTO migrations (id, applied_at) VALUES ('v99-from-the-future', '2027-01-01T00:00:00.000Z')")
        for mode in [SQLiteConnection.Mode.readWrite, .readOnly] {
            let error = await #expect(throws: SQLiteError.self) {
                try await SQLiteLedger.open(path: directory.ledgerPath, mode: mode)
            }
            #expect(error?.kind == .unknownMigrations(["v99-from-the-future"]))
            #expect(error?.description == directory.ledgerPath
                + ": the database was migrated beyond what this AssemblyLine knows "
                + "(unknown migrations: v99-from-the-future); use a newer AssemblyLine")
        }
        #expect(try connection.rows("SELECT id FROM migrations ORDER BY rowid") { $0.text(0) ?? "" }
            == Self.versions + ["v99-from-the-future"])
    }

    @Test func aReadOnlyOpenRefusesAnUnmigratedFile() async throws {
        let directory = try TemporaryDirectory()
        let connection = try SQLiteConnection(path: directory.ledgerPath)
        try connection.enableWAL()
        try connection.execute("PRAGMA application_id = \(SQLiteLedger.applicationID); CREATE TABLE unrelated (x)")
        let error = await #expect(throws: SQLiteError.self) {
            try await SQLiteLedger.open(path: directory.ledgerPath, mode: .readOnly)
        }
        #expect(error?.kind == .pendingMigrations(Self.versions))
        #expect(try tables(connection) == ["unrelated"])
    }

    @Test func eachMigrationIsAppliedWholeOrNotAtAll() throws {
        let directory = try TemporaryDirectory()
        let connection = try SQLiteConnection(path: directory.file("m.sqlite"))
        var migrator = SQLiteMigrator()
        migrator.registerMigration("one") { try $0.execute("CREATE TABLE one (x)") }
        migrator.registerMigration("two") { connection in
            try connection.execute("CREATE TABLE two (x)")
            throw Boom()
        }
        migrator.registerMigration("three") { try $0.execute("CREATE TABLE three (x)") }
        #expect(throws: Boom()) { try migrator.migrate(connection) }
        #expect(try migrator.appliedMigrations(in: connection) == ["one"])
        #expect(try tables(connection) == ["migrations", "one"])
        #expect(throws: SQLiteError.self) { try migrator.verify(connection) }
    }

    @Test func migrationsApplyInOrderAndOnlyOnce() throws {
        let directory = try TemporaryDirectory()
        let connection = try SQLiteConnection(path: directory.file("m.sqlite"))
        var first = SQLiteMigrator()
        first.registerMigration("a") { try $0.execute("CREATE TABLE a (x)") }
        try first.migrate(connection)
        var second = first
        second.registerMigration("b") { try $0.execute("CREATE TABLE b (x); INSERT INTO a VALUES (1)") }
        try second.migrate(connection)
        try second.migrate(connection)
        try second.verify(connection)
        #expect(try second.appliedMigrations(in: connection) == ["a", "b"])
        #expect(try connection.firstRow("SELECT count(*) FROM a") { $0.integer(0) } == 1)
        let stale = try #require(throws: SQLiteError.self) { try first.migrate(connection) }
        #expect(stale.kind == .unknownMigrations(["b"]))
    }
}
