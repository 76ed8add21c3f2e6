package import AssemblyLine
import Foundation

/// The done index (`done_files`, `done_outputs`): each file a manifest's runs did under a recipe, with its outputs.
///
/// It is what an incremental run reads, one row a file, however many runs came before; it is kept
/// apart from the runs so that `prune` can drop old runs while later runs still skip their files
/// (and check those files' outputs). A file is entered when its shard is downloaded, with the
/// downloaded results of the shard's completed attempt (a file done again replaces them); each run
/// that skips it confirms it; `prune` forgets the files no run confirmed since its cutoff.
extension SQLiteLedger {
    /// Every file the manifest's runs did under the recipe, with the outputs the run that did it last recorded.
    package func completedFiles(manifestPath: String, recipeFingerprint: String) throws -> [FileIdentity: [RecordedOutput]] {
        let rows = try rows("""
            SELECT d.path, d.size, d.modified_ns, o.output_path, o.size, o.md5
            FROM done_files d LEFT JOIN done_outputs o ON o.done_id = d.id
            WHERE d.manifest_path = ? AND d.recipe_fingerprint = ?
            ORDER BY d.id, o.rowid
            """, [.text(manifestPath), .text(recipeFingerprint)], table: "done_files") { row in
            (identity: FileIdentity(path: try row.text(), size: try row.integer(), modifiedNanoseconds: try row.integer()),
             output: row.optionalText().map { RecordedOutput(path: $0, size: row.optionalInteger(), md5: row.optionalText()) })
        }
        var outputs: [FileIdentity: [RecordedOutput]] = [:]
        for row in rows {
            outputs[row.identity, default: []].append(contentsOf: row.output.map { [$0] } ?? [])
        }
        return outputs
    }

    /// Enters the files of a downloaded shard that are done, with the outputs of its completed attempt: their own
    /// results' and those of results of several inputs that name them (a zip), so that a night checks both.
    func recordDoneFiles(ofShard key: [SQLiteValue], in database: SQLiteConnection) throws {
        let doneFiles = """
            FROM files f CROSS JOIN runs ON runs.id = f.run_id
            CROSS JOIN done_files d ON d.manifest_path = runs.manifest_path AND d.recipe_fingerprint = runs.recipe_fingerprint
                AND d.path = f.path AND d.size = f.size AND d.modified_ns = f.modified_ns
            """
        let shardFilesDone = "WHERE f.run_id = ?1 AND f.shard_index = ?2 AND f.state = ?3"
        let done = key + [.state(FileState.done)]
        try database.execute("DELETE FROM done_outputs WHERE done_id IN (SELECT d.id \(doneFiles) \(shardFilesDone))", done)
        try database.execute("""
            INSERT INTO done_files (manifest_path, recipe_fingerprint, path, size, modified_ns, run_id, confirmed_at)
            SELECT runs.manifest_path, runs.recipe_fingerprint, f.path, f.size, f.modified_ns, f.run_id, runs.created_at
            FROM files f CROSS JOIN runs ON runs.id = f.run_id
            \(shardFilesDone)
            ON CONFLICT (manifest_path, recipe_fingerprint, path, size, modified_ns)
                DO UPDATE SET run_id = excluded.run_id, confirmed_at = max(confirmed_at, excluded.confirmed_at)
            """, done)
        let completed = "r.state = ?4 AND r.attempt = (SELECT max(attempt) FROM attempts WHERE run_id = ?1 AND shard_index = ?2 AND outcome = ?5)"
        let outputs = done + [.state(ResultState.downloaded), .state(AttemptOutcome.completed)]
        try database.execute("""
            INSERT INTO done_outputs (done_id, output_path, size, md5)
            SELECT d.id, r.output_path, r.size, r.md5
            \(doneFiles)
            CROSS JOIN results r ON r.run_id = f.run_id AND r.file_index = f.file_index AND \(completed)
            \(shardFilesDone)
            ORDER BY d.id, r.id
            """, outputs)
        try database.execute("""
            INSERT INTO done_outputs (done_id, output_path, size, md5)
            SELECT d.id, r.output_path, r.size, r.md5
            \(doneFiles)
            CROSS JOIN result_inputs i ON i.run_id = f.run_id AND i.file_index = f.file_index
            CROSS JOIN results r ON r.id = i.result_id AND \(completed)
            \(shardFilesDone)
            ORDER BY d.id, r.id
            """, outputs)
    }

    /// A statement that confirms one skipped file of a run in the done index: bind the run's time, manifest,
    /// recipe, then the file's path, size and modification time (1 to 6).
    func doneFileConfirmation(in database: SQLiteConnection) throws -> Statement {
        try database.cachedStatement("""
            UPDATE done_files SET confirmed_at = max(confirmed_at, ?1)
            WHERE manifest_path = ?2 AND recipe_fingerprint = ?3 AND path = ?4 AND size = ?5 AND modified_ns = ?6
            """)
    }

    /// Forgets the files no run did or skipped since `cutoff`.
    func forgetDoneFiles(unconfirmedSince cutoff: Date, in database: SQLiteConnection) throws {
        try database.execute("DELETE FROM done_files WHERE confirmed_at < ?", [.text(Self.text(cutoff))])
    }
}
