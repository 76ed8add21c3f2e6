import AssemblyLine
import Foundation
@testable import SQLiteLedger
import TestSupport
import Testing

/// The ledger's schema held to references that do not run the migrations: the checked-in `Schema/schema.sql`, a
/// ledger version 1 wrote (`Schema/ledger-v1.sql`), and docs/ledger.md. A fresh ledger runs every migration too, so
/// a fresh ledger and a migrated one alone would agree on any mistake both make.
@Suite struct LedgerSchemaTests {
    private static let schemaFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Schema")
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The first lines of schema.sql.
    private static let schemaHeader = """
        -- The schema of a fresh ledger as sqlite_schema holds it: each table, then its indexes and triggers, by name.
        -- LedgerSchemaTests compares it with a ledger SQLiteLedger.open creates. After a new migration, write it anew
        -- with `ASSEMBLYLINE_WRITE_SCHEMA=1 swift test --filter LedgerSchemaTests` and review the difference.


        """

    /// A database's schema as schema.sql holds it: the stored text of every table, index, trigger and view.
    private static func schemaText(_ connection: SQLiteConnection) throws -> String {
        let statements = try connection.rows("""
            SELECT sql FROM sqlite_schema WHERE sql IS NOT NULL ORDER BY tbl_name, type <> 'table', type, name
            """) { ($0.text(0) ?? "") + ";\n" }
        return schemaHeader + statements.joined(separator: "\n")
    }

    /// A connection to a ledger `SQLiteLedger.open` created in `directory`.
    private static func freshLedger(in directory: TemporaryDirectory) async throws -> SQLiteConnection {
        let path = directory.file("fresh.sqlite")
        try await SQLiteLedger.open(path: path).close()
        return try SQLiteConnection(path: path, mode: .readOnly)
    }

    /// A fresh ledger's schema is schema.sql's, to the byte: a table, column, constraint, index or trigger that a
    /// migration adds, drops or changes changes the text. `ASSEMBLYLINE_WRITE_SCHEMA` set writes the file instead.
    @Test func aFreshLedgerHasTheSchemaOfSchemaSQL() async throws {
        let directory = try TemporaryDirectory()
        let fresh = try Self.schemaText(await Self.freshLedger(in: directory))
        let file = Self.schemaFolder.appendingPathComponent("schema.sql")
        if ProcessInfo.processInfo.environment["ASSEMBLYLINE_WRITE_SCHEMA"] != nil {
            try Data(fresh.utf8).write(to: file)
        }
        #expect(fresh == (try String(contentsOf: file, encoding: .utf8)))
    }

    /// A stored version-1 ledger, opened by the current code, has the fresh ledger's schema and keeps its rows.
    ///
    /// The schemas are compared by ``SchemaStructure`` (tables, columns, keys, CHECKs, indexes, triggers), not by
    /// text: the text of a table that went through ALTER TABLE may differ from that of one created whole.
    @Test func aStoredVersion1LedgerIsMigratedToTheFreshSchemaWithItsRowsKept() async throws {
        // Given: the stored version-1 ledger: what version 1 creates (the migration stays as it was), and only its ID
        let directory = try TemporaryDirectory()
        do {
            let stored = try SQLiteConnection(path: directory.ledgerPath)
            try stored.execute(String(contentsOf: Self.schemaFolder.appendingPathComponent("ledger-v1.sql"), encoding: .utf8))
            let version1 = try SQLiteLedgerMigrationTests.migrated(directory.file("v1.sqlite"), through: 1)
            #expect(try Self.schemaText(stored) == Self.schemaText(version1))
            #expect(try LedgerSchema.migrator.appliedMigrations(in: stored) == [SQLiteMigratorTests.versions[0]])
        }

        // When
        let ledger = try await SQLiteLedger.open(path: directory.ledgerPath)

        // Then: the fresh ledger's schema, and every row, in the columns of the later versions too
        let migrated = try SQLiteConnection(path: directory.ledgerPath, mode: .readOnly)
        #expect(try SchemaStructure(migrated).facts == SchemaStructure(await Self.freshLedger(in: directory)).facts)
        #expect(try await ledger.appliedMigrations() == SQLiteMigratorTests.versions)
        #expect(try await ledger.integrityCheck() == ["ok"])

        let run = try #require(RunID(SQLiteLedgerMigrationTests.run))
        let summary = try await ledger.run(run)
        #expect(summary.record == RunRecord(
            id: run, manifestPath: "/etc/nightly.yaml", manifestName: "nightly", recipeFingerprint: "sha256:r",
            state: .interrupted, createdAt: Fixture.time(), updatedAt: Fixture.time(59), finishedAt: Fixture.time(59),
            shardCount: 2, fileCount: 3, skippedCount: 1, bytes: 600, batch: nil, partition: .whole))
        #expect(summary.shardsByState.filter { $0.value > 0 } == [.downloaded: 1, .created: 1])

        let files = try await ledger.files(of: run)
        #expect(files.map(\.file.relativePath) == ["a.mov", "b.mov", "c.mov", "d.mov"])
        #expect(files.map(\.state) == [.done, .done, .pending, .skipped] && files.map(\.shardIndex) == [0, 0, 1, nil])
        #expect(files.map(\.file.modifiedNanoseconds) == [1_700_000_000_000_000_000, 1_700_000_000_000_000_001,
                                                           1_700_000_000_000_000_002, 1_700_000_000_000_000_003])

        let completed = try #require(try await ledger.attempts(of: run, shard: 0).first)
        #expect(completed.assemblyID.rawValue == SQLiteLedgerMigrationTests.assemblyID && completed.outcome == .completed)
        #expect(completed.completedAt == Fixture.time(49) && completed.tusURL == "http://127.0.0.1:9442/resumable/files/")
        let retried = try await ledger.attempts(of: run, shard: 1)
        #expect(retried.map(\.outcome) == [.failed, .open])
        #expect(retried.map(\.failure) == [FailureReason(code: "HTTP_503", message: "service unavailable", isRetryable: true), nil])
        let times = try await ledger.attemptTimes(of: run)
        #expect(times.count == 3 && times.allSatisfy { $0.usage == .unknown && $0.signedAt == nil })
        #expect(try await ledger.statistics(of: run).bytesSent == 0)

        let results = try await ledger.results(of: run, shard: 0)
        #expect(results.map(\.result.remoteID) == ["r0", "r1", "r2"])
        #expect(results.map(\.result.source) == [.file(0), .file(1), .several([0, 1])])
        #expect(results.map(\.result.outputPath) == ["/out/a.jpg", "/out/b.jpg", "/out/all.zip"])
        #expect(results.map(\.result.md5) == ["m0", nil, "m2"] && results.map(\.result.size) == [10, 20, 30])
        #expect(results.map(\.fetches) == [1, 1, 1] && results.allSatisfy { $0.isDownloaded && $0.result.isTemporary })

        #expect(try await ledger.events(of: run, shard: nil).map(\.message) == [
            "2 shards, 3 files, 1 skipped", "signed → failed: HTTP_503: service unavailable", "completed → downloaded",
            "running → interrupted",
        ])
        let done = try await ledger.completedFiles(job: ManifestJob(legacyPath: "/etc/nightly.yaml"), recipeFingerprint: "sha256:r")
        #expect(done.mapValues(\.outputs) == [
            FileIdentity(path: "/in/a.mov", size: 100, modifiedNanoseconds: 1_700_000_000_000_000_000):
                [RecordedOutput(path: "/out/a.jpg", size: 10, md5: "m0")],
            FileIdentity(path: "/in/b.mov", size: 200, modifiedNanoseconds: 1_700_000_000_000_000_001):
                [RecordedOutput(path: "/out/b.jpg", size: 20, md5: nil)],
        ])
    }

    /// docs/ledger.md, the ledger's interface, lists each table, column and index of a fresh ledger, and no other.
    @Test func docsLedgerMDListsTheFreshLedgersTablesColumnsAndIndexes() async throws {
        let directory = try TemporaryDirectory()
        let doc = try String(contentsOf: Self.root.appendingPathComponent("docs/ledger.md"), encoding: .utf8)
        let documented = SchemaOutline(documentedIn: doc)
        let fresh = try SchemaOutline(await Self.freshLedger(in: directory))
        #expect(documented.tables == fresh.tables)
        #expect(documented.columns == fresh.columns)
        #expect(documented.indexes == fresh.indexes)
    }
}
