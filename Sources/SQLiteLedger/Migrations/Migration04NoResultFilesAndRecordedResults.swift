/// Schema version 4: a file the Assembly made no result for (`no_result`); results as
/// production writes them (no `id`, `size` or URL guaranteed), recorded rather than downloaded
/// when an export Robot stored them (`exported`) or `output.steps` leaves them out
/// (`recorded`), whether their URL is temporary, and how often each was fetched.
///
/// SQLite changes a CHECK only by rebuilding the table: each is created anew, filled, dropped
/// and renamed, with foreign keys off (the migrator's `rebuildsTables`).
enum Migration04NoResultFilesAndRecordedResults: LedgerMigration {
    static let id = "v4-no-result-files-and-recorded-results"
    static let rebuildsTables = true
    static let sql = files.sql + results.sql

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
            state TEXT NOT NULL CHECK (state IN ('pending', 'done', 'no_result', 'failed', 'skipped')),
            error_code TEXT,
            error_message TEXT,
            retryable INTEGER CHECK (retryable IN (0, 1)),
            PRIMARY KEY (run_id, file_index),
            FOREIGN KEY (run_id, shard_index) REFERENCES shards (run_id, shard_index) ON DELETE CASCADE,
            CHECK ((shard_index IS NULL) = (state = 'skipped'))
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

    private static let results = TableRebuild(
        table: "results",
        columns: """
            id INTEGER PRIMARY KEY,
            run_id TEXT NOT NULL,
            shard_index INTEGER NOT NULL,
            attempt INTEGER NOT NULL,
            file_index INTEGER,
            step TEXT NOT NULL,
            remote_id TEXT,
            name TEXT NOT NULL,
            url TEXT,
            size INTEGER CHECK (size >= 0),
            md5 TEXT,
            mime TEXT,
            width INTEGER,
            height INTEGER,
            temporary INTEGER NOT NULL DEFAULT 1 CHECK (temporary IN (0, 1)),
            output_path TEXT,
            state TEXT NOT NULL CHECK (state IN ('pending', 'downloaded', 'exported', 'recorded')),
            downloaded_at TEXT,
            fetches INTEGER NOT NULL DEFAULT 0 CHECK (fetches >= 0),
            FOREIGN KEY (run_id, shard_index, attempt) REFERENCES attempts (run_id, shard_index, attempt)
                ON DELETE CASCADE,
            FOREIGN KEY (run_id, file_index) REFERENCES files (run_id, file_index) ON DELETE CASCADE,
            CHECK ((state = 'downloaded') = (downloaded_at IS NOT NULL)),
            CHECK ((state IN ('pending', 'downloaded')) = (output_path IS NOT NULL AND url IS NOT NULL))
            """,
        copy: """
            (id, run_id, shard_index, attempt, file_index, step, remote_id, name, url, size, md5,
                mime, width, height, temporary, output_path, state, downloaded_at, fetches)
            SELECT id, run_id, shard_index, attempt, file_index, step, remote_id, name, url, size, md5, mime, width,
                height, 1, output_path, state, downloaded_at, CASE state WHEN 'downloaded' THEN 1 ELSE 0 END
            FROM results
            """,
        indexes: [
            "CREATE INDEX results_by_shard ON results (run_id, shard_index, attempt)",
            "CREATE INDEX results_by_file ON results (run_id, file_index)",
        ]
    )
}
