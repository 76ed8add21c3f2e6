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
        let connection = try migrated(path, through: 1)
        try connection.execute(runOfTwoFiles(shardState: "created") + """
            INSERT INTO attempts (run_id, shard_index, attempt, assembly_id, outcome, started_at, assembly_url, tus_url,
                                  created_at)
            VALUES ('\(run)', 0, 1, '\(assemblyID)', 'open', '2026-11-30T21:05:10.000Z',
                    'http://127.0.0.1:9442/assemblies/\(assemblyID)', 'http://127.0.0.1:9442/resumable/files/',
                    '2026-11-30T21:05:30.000Z');
            INSERT INTO events (run_id, shard_index, at, kind, message)
            VALUES ('\(run)', 0, '2026-11-30T21:05:30.000Z', 'shard.state', 'signed → created');
            """)
    }

    /// The SQL of an interrupted run with one shard in `shardState` and two pending files, in every version's columns.
    static func runOfTwoFiles(shardState: String) -> String {
        """
            INSERT INTO runs (id, manifest_path, manifest_name, recipe_fingerprint, state, created_at, updated_at,
                              shard_count, file_count, skipped_count, bytes)
            VALUES ('\(run)', '/etc/nightly.yaml', 'nightly', 'sha256:r', 'interrupted', '2026-11-30T21:05:01.000Z',
                    '2026-11-30T21:06:00.000Z', 1, 2, 0, 300);
            INSERT INTO shards (run_id, shard_index, state, file_count, bytes, attempt_count, updated_at)
            VALUES ('\(run)', 0, '\(shardState)', 2, 300, 1, '2026-11-30T21:05:30.000Z');
            INSERT INTO files (run_id, file_index, shard_index, path, relative_path, size, modified_ns, state) VALUES
                ('\(run)', 0, 0, '/in/a.mov', 'a.mov', 100, 1700000000000000000, 'pending'),
                ('\(run)', 1, 0, '/in/b.mov', 'b.mov', 200, 1700000000000000001, 'pending');

            """
    }

    /// A WAL ledger at `path` with the first `count` migrations applied.
    static func migrated(_ path: String, through count: Int) throws -> SQLiteConnection {
        let connection = try SQLiteConnection(path: path)
        try connection.enableWAL()
        var older = SQLiteMigrator()
        for migration in LedgerSchema.migrator.migrations.prefix(count) {
            older.registerMigration(migration.id, rebuildsTables: migration.rebuildsTables, migration.body)
        }
        try older.migrate(connection)
        return connection
    }

    @Test func aVersion3LedgerIsRebuiltWithItsRowsAndReferencesKept() async throws {
        let directory = try TemporaryDirectory()
        try Self.migrated(directory.ledgerPath, through: 3).execute(Self.runOfTwoFiles(shardState: "completed") + """
            INSERT INTO attempts (run_id, shard_index, attempt, assembly_id, outcome, started_at, created_at, completed_at)
            VALUES ('\(Self.run)', 0, 1, '\(Self.assemblyID)', 'completed', '2026-11-30T21:05:10.000Z',
                    '2026-11-30T21:05:30.000Z', '2026-11-30T21:05:50.000Z');
            INSERT INTO uploads (run_id, shard_index, attempt, file_index, upload_url, upload_offset, upload_length,
                                 created_at, updated_at)
            VALUES ('\(Self.run)', 0, 1, 1, 'http://127.0.0.1:9442/resumable/files/u1', 200, 200,
                    '2026-11-30T21:05:31.000Z', '2026-11-30T21:05:32.000Z');
            INSERT INTO results (run_id, shard_index, attempt, file_index, step, remote_id, name, url, size, md5,
                                 output_path, state, downloaded_at) VALUES
                ('\(Self.run)', 0, 1, 0, 'thumb', 'r0', 'a.jpg', 'https://tmp/r0', 10, NULL, '/out/a.jpg', 'downloaded',
                 '2026-11-30T21:05:55.000Z'),
                ('\(Self.run)', 0, 1, 1, 'thumb', 'r1', 'b.jpg', 'https://tmp/r1', 20, NULL, '/out/b.jpg', 'pending', NULL);
            """)

        let ledger = try await SQLiteLedger.open(path: directory.ledgerPath)
        #expect(try await ledger.appliedMigrations() == SQLiteMigratorTests.versions)
        let run = try #require(RunID(Self.run))
        #expect(try await ledger.files(of: run).map(\.file.relativePath) == ["a.mov", "b.mov"])
        let results = try await ledger.results(of: run, shard: 0)
        #expect(results.map(\.result.remoteID) == ["r0", "r1"] && results.map(\.isDownloaded) == [true, false])
        #expect(results.map(\.fetches) == [1, 0] && results.allSatisfy(\.result.isTemporary))
        #expect(results.map(\.result.outputPath) == ["/out/a.jpg", "/out/b.jpg"])
        #expect(try await ledger.uploads(of: run, shard: 0).map(\.offset) == [200])
        #expect(try await ledger.integrityCheck() == ["ok"])

        // The rebuilt tables' references hold: a result of a file that is not there is refused.
        let orphan = #expect(throws: SQLiteError.self) {
            try SQLiteConnection(path: directory.ledgerPath).execute("""
                INSERT INTO results (run_id, shard_index, attempt, file_index, step, name, state)
                VALUES ('\(Self.run)', 0, 1, 9, 'thumb', 'x.jpg', 'recorded')
                """)
        }
        #expect(orphan?.extendedCode == .constraintForeignKey)
        await #expect(throws: LedgerError.resultsPending(run, shard: 0, count: 1)) {
            try await ledger.transition(run, shard: 0, .downloaded(done: [0, 1], noResult: []), at: Date())
        }
        try await ledger.recordDownloads(run, results: [results[1].id], at: Date())
        try await ledger.transition(run, shard: 0, .downloaded(done: [0, 1], noResult: []), at: Date())
        #expect(try await ledger.files(of: run).map(\.state) == [.done, .done])
    }

    @Test func aVersion1LedgerIsMigratedWithItsDataKept() async throws {
        let directory = try TemporaryDirectory()
        try Self.writeVersion1Ledger(at: directory.ledgerPath)
        let refused = await #expect(throws: SQLiteError.self) {
            try await SQLiteLedger.open(path: directory.ledgerPath, mode: .readOnly)
        }
        #expect(refused?.kind == .pendingMigrations(Array(SQLiteMigratorTests.versions.dropFirst())))

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

    @Test func aVersion5LedgersDoneFilesAreCarriedIntoTheDoneIndexWithTheirOutputs() async throws {
        // Given: a run that did a.mov and b.mov; a day later one that skipped a.mov and a c.mov whose run is gone
        let directory = try TemporaryDirectory()
        let later = "20261201T210501Z-3f9a2d"
        try Self.migrated(directory.ledgerPath, through: 5).execute("""
            INSERT INTO runs (id, manifest_path, manifest_name, recipe_fingerprint, state, created_at, updated_at,
                              shard_count, file_count, skipped_count, bytes) VALUES
                ('\(Self.run)', '/etc/nightly.yaml', 'nightly', 'sha256:r', 'finished', '2026-11-30T21:05:01.000Z',
                 '2026-11-30T21:06:00.000Z', 1, 2, 0, 300),
                ('\(later)', '/etc/nightly.yaml', 'nightly', 'sha256:r', 'finished', '2026-12-01T21:05:01.000Z',
                 '2026-12-01T21:05:02.000Z', 0, 0, 2, 0);
            INSERT INTO shards (run_id, shard_index, state, file_count, bytes, attempt_count, updated_at)
            VALUES ('\(Self.run)', 0, 'downloaded', 2, 300, 1, '2026-11-30T21:05:59.000Z');
            INSERT INTO files (run_id, file_index, shard_index, path, relative_path, size, modified_ns, state) VALUES
                ('\(Self.run)', 0, 0, '/in/a.mov', 'a.mov', 100, 1700000000000000000, 'done'),
                ('\(Self.run)', 1, 0, '/in/b.mov', 'b.mov', 200, 1700000000000000001, 'done'),
                ('\(later)', 0, NULL, '/in/a.mov', 'a.mov', 100, 1700000000000000000, 'skipped'),
                ('\(later)', 1, NULL, '/in/c.mov', 'c.mov', 300, 1700000000000000002, 'skipped');
            INSERT INTO attempts (run_id, shard_index, attempt, assembly_id, outcome, started_at, created_at, completed_at)
            VALUES ('\(Self.run)', 0, 1, '\(Self.assemblyID)', 'completed', '2026-11-30T21:05:10.000Z',
                    '2026-11-30T21:05:30.000Z', '2026-11-30T21:05:50.000Z');
            INSERT INTO results (run_id, shard_index, attempt, file_index, step, remote_id, name, url, size, md5,
                                 output_path, state, downloaded_at) VALUES
                ('\(Self.run)', 0, 1, 0, 'thumb', 'r0', 'a.jpg', 'https://tmp/r0', 10, 'm0', '/out/a.jpg', 'downloaded',
                 '2026-11-30T21:05:55.000Z'),
                ('\(Self.run)', 0, 1, 1, 'thumb', 'r1', 'b.jpg', 'https://tmp/r1', 20, NULL, '/out/b.jpg', 'downloaded',
                 '2026-11-30T21:05:56.000Z');
            """)

        // When
        let ledger = try await SQLiteLedger.open(path: directory.ledgerPath)

        // Then: a.mov and b.mov with their outputs; c.mov, known only as skipped, runs once more
        #expect(try await ledger.appliedMigrations() == SQLiteMigratorTests.versions)
        let known = try await ledger.completedFiles(job: ManifestJob(legacyPath: "/etc/nightly.yaml"), recipeFingerprint: "sha256:r").mapValues(\.outputs)
        #expect(known == [
            FileIdentity(path: "/in/a.mov", size: 100, modifiedNanoseconds: 1_700_000_000_000_000_000):
                [RecordedOutput(path: "/out/a.jpg", size: 10, md5: "m0")],
            FileIdentity(path: "/in/b.mov", size: 200, modifiedNanoseconds: 1_700_000_000_000_000_001):
                [RecordedOutput(path: "/out/b.jpg", size: 20, md5: nil)],
        ])
        // an attempt from before v12: its phases and usage unknown, counted as not said
        let run = try #require(RunID(Self.run))
        let times = try await ledger.attemptTimes(of: run)
        #expect(times.map(\.usage) == [.unknown] && times.map(\.signedAt) == [nil] && times.map(\.downloadedAt) == [nil])
        #expect(try await ledger.statistics(of: run).assembliesWithoutUsage == 1)
        // a.mov was confirmed by the later run: pruning before it forgets only b.mov
        _ = try await ledger.prune(createdBefore: try #require(UTCDateTime(year: 2026, month: 12, day: 1, hour: 0, minute: 0, second: 0)).date, keepingLast: 0, gone: [], dryRun: false)
        let kept = try await ledger.completedFiles(job: ManifestJob(legacyPath: "/etc/nightly.yaml"), recipeFingerprint: "sha256:r")
        #expect(kept.keys.map(\.path) == ["/in/a.mov"])
        #expect(try await ledger.integrityCheck() == ["ok"])
    }

    @Test func aVersion13DoneSetKeepsOneVersionOfEachPathTheOneDoneLast() async throws {
        // Given: a.mov done, then edited and done again (the old version missed since), and b.mov done once
        let directory = try TemporaryDirectory()
        try Self.migrated(directory.ledgerPath, through: 13).execute("""
            INSERT INTO done_sets (id, job_key, recipe_fingerprint, manifest_path, reviewed_at)
            VALUES (1, 'path:/etc/nightly.yaml', 'sha256:r', '/etc/nightly.yaml', '2026-12-02T21:05:01.000Z');
            INSERT INTO done_files (id, set_id, path, size, modified_ns, run_id, confirmed_at, missed_at) VALUES
                (1, 1, '/in/a.mov', 100, 1, '\(Self.run)', '2026-11-30T21:05:01.000Z', '2026-12-01T21:05:01.000Z'),
                (2, 1, '/in/b.mov', 200, 1, '\(Self.run)', '2026-11-30T21:05:01.000Z', NULL),
                (3, 1, '/in/a.mov', 104, 2, '\(Self.run)', '2026-12-01T21:05:01.000Z', NULL);
            INSERT INTO done_outputs (done_id, output_path, size, md5) VALUES
                (1, '/out/a.jpg', 10, NULL), (2, '/out/b.jpg', 20, NULL), (3, '/out/a.jpg', 14, NULL);
            """)

        // When
        let ledger = try await SQLiteLedger.open(path: directory.ledgerPath)

        // Then: the edited a.mov's outputs alone, as the next night relies on them
        let known = try await ledger.completedFiles(job: ManifestJob(legacyPath: "/etc/nightly.yaml"), recipeFingerprint: "sha256:r").mapValues(\.outputs)
        #expect(known == [
            FileIdentity(path: "/in/a.mov", size: 104, modifiedNanoseconds: 2): [RecordedOutput(path: "/out/a.jpg", size: 14, md5: nil)],
            FileIdentity(path: "/in/b.mov", size: 200, modifiedNanoseconds: 1): [RecordedOutput(path: "/out/b.jpg", size: 20, md5: nil)],
        ])
        await ledger.close()
        let rows = try SQLiteConnection(path: directory.ledgerPath, mode: .readOnly).rows("SELECT count(*) FROM done_outputs") { $0.integer(0) ?? 0 }
        #expect(rows == [2], "the old version's outputs went with it")
    }
}
