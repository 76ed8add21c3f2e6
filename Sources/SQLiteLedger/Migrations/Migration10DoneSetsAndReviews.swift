/// Schema version 10: the done index's files under a set (manifest and recipe, kept once, not in every
/// row and its unique index), and confirmation by exception. A night wrote a row for each file it
/// skipped (200,000 updates of text keys and of the confirmation index: 1.9 s of a no-op night); now
/// the set records when it was last reviewed and each file when a review first missed it
/// (``DoneIndexReview``): a file not missed was confirmed by the set's latest review. Carried over
/// with no review and nothing missed, each file's confirmation is its `confirmed_at`, as before.
///
/// `done_files_by_confirmation` goes with the old table and is not created again.
enum Migration10DoneSetsAndReviews: LedgerMigration {
    static let id = "v10-done-sets-and-reviews"
    static let rebuildsTables = true
    static let sql = """
        CREATE TABLE done_sets (
            id INTEGER PRIMARY KEY,
            manifest_path TEXT NOT NULL,
            recipe_fingerprint TEXT NOT NULL,
            reviewed_at TEXT,
            UNIQUE (manifest_path, recipe_fingerprint)
        );
        INSERT INTO done_sets (manifest_path, recipe_fingerprint)
        SELECT DISTINCT manifest_path, recipe_fingerprint FROM done_files ORDER BY manifest_path, recipe_fingerprint;

        """ + doneFiles.sql

    private static let doneFiles = TableRebuild(
        table: "done_files",
        columns: """
            id INTEGER PRIMARY KEY,
            set_id INTEGER NOT NULL REFERENCES done_sets (id) ON DELETE CASCADE,
            path TEXT NOT NULL,
            size INTEGER NOT NULL,
            modified_ns INTEGER NOT NULL,
            run_id TEXT NOT NULL,
            confirmed_at TEXT NOT NULL,
            missed_at TEXT,
            UNIQUE (set_id, path, size, modified_ns)
            """,
        copy: """
            (id, set_id, path, size, modified_ns, run_id, confirmed_at)
            SELECT d.id, s.id, d.path, d.size, d.modified_ns, d.run_id, d.confirmed_at
            FROM done_files d CROSS JOIN done_sets s ON s.manifest_path = d.manifest_path AND s.recipe_fingerprint = d.recipe_fingerprint
            ORDER BY d.id
            """,
        indexes: []
    )
}
