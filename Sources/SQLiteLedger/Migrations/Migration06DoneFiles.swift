/// Schema version 6: the files each manifest's runs did under a recipe, with their outputs, apart from the
/// runs, so that a run's incremental plan reads one row a file instead of every earlier run's rows, and a
/// pruned run's files stay known (with outputs to check) while later runs still skip them.
///
/// Filled from the runs already recorded: each file's latest `done` row and that run's downloaded
/// results; `confirmed_at` is the latest run that did or skipped it. A file that only skipped rows
/// name (the run that did it was pruned) is not carried over: it runs once more.
enum Migration06DoneFiles: LedgerMigration {
    static let id = "v6-done-files"
    static let sql = """
        CREATE TABLE done_files (
            id INTEGER PRIMARY KEY,
            manifest_path TEXT NOT NULL,
            recipe_fingerprint TEXT NOT NULL,
            path TEXT NOT NULL,
            size INTEGER NOT NULL,
            modified_ns INTEGER NOT NULL,
            run_id TEXT NOT NULL,
            confirmed_at TEXT NOT NULL,
            UNIQUE (manifest_path, recipe_fingerprint, path, size, modified_ns)
        );
        CREATE INDEX done_files_by_confirmation ON done_files (confirmed_at);
        CREATE TABLE done_outputs (
            done_id INTEGER NOT NULL REFERENCES done_files (id) ON DELETE CASCADE,
            output_path TEXT NOT NULL,
            size INTEGER,
            md5 TEXT
        );
        CREATE INDEX done_outputs_by_file ON done_outputs (done_id);

        INSERT INTO done_files (manifest_path, recipe_fingerprint, path, size, modified_ns, run_id, confirmed_at)
        SELECT runs.manifest_path, runs.recipe_fingerprint, f.path, f.size, f.modified_ns, f.run_id, runs.created_at
        FROM runs CROSS JOIN files f ON f.run_id = runs.id AND f.state = 'done'
        WHERE true
        ORDER BY runs.created_at, runs.id
        ON CONFLICT (manifest_path, recipe_fingerprint, path, size, modified_ns)
            DO UPDATE SET run_id = excluded.run_id, confirmed_at = excluded.confirmed_at;

        INSERT INTO done_files (manifest_path, recipe_fingerprint, path, size, modified_ns, run_id, confirmed_at)
        SELECT runs.manifest_path, runs.recipe_fingerprint, f.path, f.size, f.modified_ns, f.run_id, runs.created_at
        FROM runs CROSS JOIN files f ON f.run_id = runs.id AND f.state = 'skipped'
        WHERE EXISTS (SELECT 1 FROM done_files d
                      WHERE d.manifest_path = runs.manifest_path AND d.recipe_fingerprint = runs.recipe_fingerprint
                        AND d.path = f.path AND d.size = f.size AND d.modified_ns = f.modified_ns)
        ON CONFLICT (manifest_path, recipe_fingerprint, path, size, modified_ns)
            DO UPDATE SET confirmed_at = max(confirmed_at, excluded.confirmed_at);

        INSERT INTO done_outputs (done_id, output_path, size, md5)
        SELECT d.id, r.output_path, r.size, r.md5
        FROM runs CROSS JOIN files f ON f.run_id = runs.id AND f.state = 'done'
        CROSS JOIN done_files d ON d.manifest_path = runs.manifest_path AND d.recipe_fingerprint = runs.recipe_fingerprint
            AND d.path = f.path AND d.size = f.size AND d.modified_ns = f.modified_ns AND d.run_id = f.run_id
        CROSS JOIN results r ON r.run_id = f.run_id AND r.file_index = f.file_index AND r.state = 'downloaded'
            AND r.attempt = (SELECT max(attempt) FROM attempts a
                             WHERE a.run_id = f.run_id AND a.shard_index = f.shard_index AND a.outcome = 'completed')
        ORDER BY d.id, r.id;
        """
}
