/// The ledger's schema: its migrations in the order they apply, one file each in this folder.
///
/// docs/ledger.md documents the result for users, and `Tests/SQLiteLedgerTests/Schema/schema.sql` holds it as a fresh
/// ledger's `sqlite_schema` does. A new version is a new file here, appended to `migrations`; an old one never changes.
enum LedgerSchema {
    /// Every version of the schema, oldest first.
    static let migrations: [any LedgerMigration.Type] = [
        Migration01RunsShardsFilesAttemptsResultsEvents.self,
        Migration02AttemptBytesSent.self,
        Migration03TusUploads.self,
        Migration04NoResultFilesAndRecordedResults.self,
        Migration05CanceledRuns.self,
        Migration06DoneFiles.self,
        Migration07ResultSources.self,
        Migration08KnownBadFiles.self,
        Migration09FilesByShardInOrder.self,
        Migration10DoneSetsAndReviews.self,
        Migration11BatchesAndPartitions.self,
        Migration12AttemptPhasesAndUsage.self,
        Migration13JobsAndTakeovers.self,
        Migration14OneDoneVersionAPath.self,
        Migration15ReplaysAndTemplateRuns.self,
        Migration16ShardFields.self,
    ]

    /// The migrator that knows every version of the schema this binary can read and write.
    static var migrator: SQLiteMigrator {
        var migrator = SQLiteMigrator()
        for migration in migrations {
            migrator.registerMigration(migration.id, rebuildsTables: migration.rebuildsTables) { connection in
                try connection.execute(migration.sql)
            }
        }
        return migrator
    }
}
