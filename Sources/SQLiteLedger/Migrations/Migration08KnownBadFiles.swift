/// Schema version 8: files a run failed for a reason of their own (`known_bad` in later runs, in no
/// shard, like `skipped`), and their index apart from the runs (`bad_files`), as the done index is:
/// a file the service said it cannot process, unchanged since, is not sent again by the next run.
///
/// The files table is rebuilt for its CHECKs. Earlier failures are not carried over: which of them
/// were a file's own was not recorded, so each runs once more and is entered then.
enum Migration08KnownBadFiles: LedgerMigration {
    static let id = "v8-known-bad-files"
    static let rebuildsTables = true
    static let sql = files.sql + """

        CREATE TABLE bad_files (
            id INTEGER PRIMARY KEY,
            manifest_path TEXT NOT NULL,
            recipe_fingerprint TEXT NOT NULL,
            path TEXT NOT NULL,
            size INTEGER NOT NULL,
            modified_ns INTEGER NOT NULL,
            run_id TEXT NOT NULL,
            error_code TEXT NOT NULL,
            error_message TEXT NOT NULL,
            confirmed_at TEXT NOT NULL,
            UNIQUE (manifest_path, recipe_fingerprint, path, size, modified_ns)
        );
        CREATE INDEX bad_files_by_confirmation ON bad_files (confirmed_at);
        """

    private static let files = TableRebuild(
        table: "files",
        columns: """
            run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
            file_index INTEGER NOT NULL CHECK (file_index >= 0),
            shard_index INTEGER,
            path TEXT NOT NULL,
            relative_path TEXT NOT NULL,
            size INTEGER NOT NULL CHECK (size >= 0),
            modified_ns INTEGER NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('pending', 'done', 'no_result', 'failed', 'skipped', 'known_bad')),
            error_code TEXT,
            error_message TEXT,
            retryable INTEGER CHECK (retryable IN (0, 1)),
            PRIMARY KEY (run_id, file_index),
            FOREIGN KEY (run_id, shard_index) REFERENCES shards (run_id, shard_index) ON DELETE CASCADE,
            CHECK ((shard_index IS NULL) = (state IN ('skipped', 'known_bad')))
            """,
        copy: """
            SELECT run_id, file_index, shard_index, path, relative_path, size, modified_ns, state,
                error_code, error_message, retryable FROM files
            """,
        indexes: [
            "CREATE INDEX files_by_shard ON files (run_id, shard_index)",
            "CREATE INDEX files_by_state ON files (run_id, state)",
        ]
    )
}
