/// Schema version 5: a run an operator stopped with `cancel` is `canceled` (the runs table rebuilt for its CHECK).
enum Migration05CanceledRuns: LedgerMigration {
    static let id = "v5-canceled-runs"
    static let rebuildsTables = true
    static let sql = TableRebuild(
        table: "runs",
        columns: """
            id TEXT NOT NULL PRIMARY KEY,
            manifest_path TEXT NOT NULL,
            manifest_name TEXT NOT NULL,
            recipe_fingerprint TEXT NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('running', 'finished', 'failed', 'interrupted', 'canceled')),
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            finished_at TEXT,
            shard_count INTEGER NOT NULL CHECK (shard_count >= 0),
            file_count INTEGER NOT NULL CHECK (file_count >= 0),
            skipped_count INTEGER NOT NULL CHECK (skipped_count >= 0),
            bytes INTEGER NOT NULL CHECK (bytes >= 0)
            """,
        copy: """
            SELECT id, manifest_path, manifest_name, recipe_fingerprint, state, created_at, updated_at,
                finished_at, shard_count, file_count, skipped_count, bytes FROM runs
            """,
        indexes: ["CREATE INDEX runs_by_manifest ON runs (manifest_path, recipe_fingerprint)"]
    ).sql
}
