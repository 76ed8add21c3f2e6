import AssemblyLine
import Foundation
@testable import SQLiteLedger
import TestSupport
import Testing

/// A ledger file written by a version-1 AssemblyLine is brought to the latest version with its data kept.
@Suite struct SQLiteLedgerMigrationTests {
    static let run = "20261130T210501Z-3f9a2c"
    static let assemblyID = "4723718834074932b22a59b209220018"

    /// Writes a WAL ledger with only the first migration applied, holding one run half done, as version 1 left it.
    static func writeVersion1Ledger(at path: String) throws {
        let connection = try SQLiteConnection(path: path)
        try connection.enableWAL()
        var version1 = SQLiteMigrator()
        let first = try #require(LedgerSchema.migrator.migrations.first)
        version1.registerMigration(first.id, first.body)
        try version1.migrate(connection)
        try connection.execute("""
            INSERT INTO runs (id, manifest_path, manifest_name, recipe_fingerprint, state, created_at, updated_at,
                              shard_count, file_count, skipped_count, bytes)
            VALUES ('\(run)', '/etc/nightly.yaml', 'nightly', 'sha256:r', 'interrupted', '2026-11-30T21:05:01.000Z',
                    '2026-11-30T21:06:00.000Z', 1, 2, 0, 300);
            INSERT INTO shards (run_id, shard_index, state, file_count, bytes, attempt_count, updated_at)
            VALUES ('\(run)', 0, 'created', 2, 300, 1, '2026-11-30T21:05:30.000Z');
            INSERT INTO files (run_id, file_index, shard_index, path, relative_path, size, modified_ns, state) VALUES
                ('\(run)', 0, 0, '/in/a.mov', 'a.mov', 100, 1700000000000000000, 'pending'),
                ('\(run)', 1, 0, '/in/b.mov', 'b.mov', 200, 1700000000000000001, 'pending');
            INSERT INTO attempts (run_id, shard_index, attempt, assembly_id, outcome, started_at, assembly_url, tus_url,
                                  created_at)
            VALUES ('\(run)', 0, 1, '\(assemblyID)', 'open', '2026-11-30T21:05:10.000Z',
                    'http://127.0.0.1:9442/assemblies/\(assemblyID)', 'http://127.0.0.1:9442/resumable/files/',
                    '2026-11-30T21:05:30.000Z');
            INSERT INTO events (run_id, shard_index, at, kind, message)
            VALUES ('\(run)', 0, '2026-11-30T21:05:30.000Z', 'shard.state', 'signed → created');
            """)
    }

    @Test func aVersion1LedgerIsMigratedWithItsDataKept() async throws {
        let directory = try TemporaryDirectory()
        try Self.writeVersion1Ledger(at: directory.ledgerPath)
        let refused = await #expect(throws: SQLiteError.self) {
            try await SQLiteLedger.open(path: directory.ledgerPath, mode: .readOnly)
        }
        #expect(refused?.kind == .pendingMigrations(["v2-attempt-bytes-sent", "v3-tus-uploads"]))

        let ledger = try await SQLiteLedger.open(path: directory.ledgerPath)
        #expect(try await ledger.appliedMigrations() == SQLiteMigratorTests.versions)
        let run = try #require(RunID(Self.run))
        let summary = try await ledger.run(run)
        #expect(summary.record.state == .interrupted && summary.record.bytes == 300)
        #expect(summary.shardsByState[.created] == 1 && summary.filesByState[.pending] == 2)
        #expect(try await ledger.files(of: run).map(\.file.path) == ["/in/a.mov", "/in/b.mov"])
        let attempt = try #require(try await ledger.attempts(of: run, shard: 0).first)
        #expect(attempt.assemblyID.rawValue == Self.assemblyID && attempt.tusURL == "http://127.0.0.1:9442/resumable/files/")
        #expect(try await ledger.events(of: run, shard: 0).map(\.message) == ["signed → created"])
        #expect(try await ledger.uploads(of: run, shard: 0).isEmpty)
        #expect(try await ledger.statistics(of: run).bytesSent == 0)

        try await ledger.recordUpload(run, shard: 0, attempt: 1, file: 1, url: "http://127.0.0.1:9442/resumable/files/u1",
                                      length: 200, at: Date())
        try await ledger.recordUploadOffset(run, shard: 0, attempt: 1, file: 1, url: "http://127.0.0.1:9442/resumable/files/u1",
                                            offset: 120, at: Date())
        #expect(try await ledger.uploads(of: run, shard: 0).map(\.offset) == [120])
        #expect(try await ledger.integrityCheck() == ["ok"])
        await ledger.close()

        let again = try await SQLiteLedger.open(path: directory.ledgerPath, mode: .readOnly)
        #expect(try await again.uploads(of: run, shard: 0).map(\.fileIndex) == [1])
    }
}
