/// Schema version 13 (issue 33): a run, the done index and the known bad files keyed by the job a manifest is
/// (its name, resolved `output.dir` and layout: ``ManifestJob``), not by where its file lies, so that a moved or
/// copied manifest skips what was done; what the run's inputs were (`inputs_key`), so that two jobs that share
/// a name are told apart; and a run taken over by a later one is `superseded`, naming it.
///
/// Earlier rows are keyed `path:<manifest path>`, the key a manifest's job had before: the first run of a
/// manifest that finds rows of its path under that key takes them into its job (``SQLiteLedger/claim(_:)``).
enum Migration13JobsAndTakeovers: LedgerMigration {
    static let id = "v13-jobs-and-takeovers"
    static let rebuildsTables = true
    static let sql = runs.sql + doneSets.sql + badFiles.sql

    private static let runs = TableRebuild(
        table: "runs",
        columns: """
            id TEXT NOT NULL PRIMARY KEY,
            manifest_path TEXT NOT NULL,
            manifest_name TEXT NOT NULL,
            recipe_fingerprint TEXT NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('running', 'finished', 'failed', 'interrupted', 'canceled', 'superseded')),
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            finished_at TEXT,
            shard_count INTEGER NOT NULL CHECK (shard_count >= 0),
            file_count INTEGER NOT NULL CHECK (file_count >= 0),
            skipped_count INTEGER NOT NULL CHECK (skipped_count >= 0),
            bytes INTEGER NOT NULL CHECK (bytes >= 0),
            batch_id TEXT,
            partition_index INTEGER NOT NULL DEFAULT 0 CHECK (partition_index >= 0),
            partition_count INTEGER NOT NULL DEFAULT 1 CHECK (partition_count >= 1),
            job_key TEXT NOT NULL,
            inputs_key TEXT NOT NULL DEFAULT '',
            superseded_by TEXT,
            CHECK ((state = 'superseded') = (superseded_by IS NOT NULL))
            """,
        copy: """
            SELECT id, manifest_path, manifest_name, recipe_fingerprint, state, created_at, updated_at, finished_at, shard_count,
                file_count, skipped_count, bytes, batch_id, partition_index, partition_count, 'path:' || manifest_path, '', NULL FROM runs
            """,
        indexes: [
            "CREATE INDEX runs_by_manifest ON runs (manifest_path, recipe_fingerprint)",
            "CREATE INDEX runs_by_batch ON runs (batch_id) WHERE batch_id IS NOT NULL",
            "CREATE INDEX runs_by_job ON runs (job_key, created_at)",
            "CREATE INDEX runs_by_name ON runs (manifest_name, created_at)",
        ]
    )

    private static let doneSets = TableRebuild(
        table: "done_sets",
        columns: """
            id INTEGER PRIMARY KEY,
            job_key TEXT NOT NULL,
            recipe_fingerprint TEXT NOT NULL,
            manifest_path TEXT NOT NULL,
            reviewed_at TEXT,
            UNIQUE (job_key, recipe_fingerprint)
            """,
        copy: """
            SELECT id, 'path:' || manifest_path, recipe_fingerprint, manifest_path, reviewed_at FROM done_sets ORDER BY id
            """,
        indexes: []
    )

    private static let badFiles = TableRebuild(
        table: "bad_files",
        columns: """
            id INTEGER PRIMARY KEY,
            job_key TEXT NOT NULL,
            recipe_fingerprint TEXT NOT NULL,
            path TEXT NOT NULL,
            size INTEGER NOT NULL,
            modified_ns INTEGER NOT NULL,
            run_id TEXT NOT NULL,
            error_code TEXT NOT NULL,
            error_message TEXT NOT NULL,
            confirmed_at TEXT NOT NULL,
            UNIQUE (job_key, recipe_fingerprint, path, size, modified_ns)
            """,
        copy: """
            SELECT id, 'path:' || manifest_path, recipe_fingerprint, path, size, modified_ns, run_id, error_code, error_message,
                confirmed_at FROM bad_files ORDER BY id
            """,
        indexes: ["CREATE INDEX bad_files_by_confirmation ON bad_files (confirmed_at)"]
    )
}
