package import AssemblyLine
import Foundation

/// The index of known bad files (`bad_files`): each file a job's runs failed under a recipe for a reason of its own.
///
/// Kept apart from the runs, as the done index is (docs/ledger.md): a file enters it when the service
/// says it cannot process it and a retry will not help (``KnownBadFile``); each run that leaves it out
/// confirms it; a run that does it (`--retry-failed`, once the service can) takes it out; `prune`
/// forgets the files no run confirmed since its cutoff.
extension SQLiteLedger {
    package func knownBadFiles(job: ManifestJob, recipeFingerprint: String) throws -> [FileIdentity: FailureReason] {
        var found: [FileIdentity: FailureReason] = [:]
        for key in job.keys {
            let rows = try rows("""
                SELECT path, size, modified_ns, error_code, error_message FROM bad_files
                WHERE job_key = ? AND recipe_fingerprint = ?
                """, [.text(key), .text(recipeFingerprint)], table: "bad_files") { row in
                (FileIdentity(path: try row.text(), size: try row.integer(), modifiedNanoseconds: try row.integer()),
                 FailureReason(code: FailureCode(rawValue: try row.text()), message: try row.text(), isRetryable: false))
            }
            found.merge(rows, uniquingKeysWith: { first, _ in first })
        }
        return found
    }

    /// A statement that enters one failed file of a run in the index, or updates its entry: bind the run,
    /// the file's index and the state `failed` (1 to 3).
    func badFileEntry(in database: SQLiteConnection) throws -> Statement {
        try database.cachedStatement("""
            INSERT INTO bad_files (job_key, recipe_fingerprint, path, size, modified_ns, run_id, error_code, error_message, confirmed_at)
            SELECT runs.job_key, runs.recipe_fingerprint, f.path, f.size, f.modified_ns, f.run_id, f.error_code,
                   f.error_message, runs.created_at
            FROM files f CROSS JOIN runs ON runs.id = f.run_id
            WHERE f.run_id = ?1 AND f.file_index = ?2 AND f.state = ?3
            ON CONFLICT (job_key, recipe_fingerprint, path, size, modified_ns)
                DO UPDATE SET run_id = excluded.run_id, error_code = excluded.error_code, error_message = excluded.error_message,
                              confirmed_at = max(confirmed_at, excluded.confirmed_at)
            """)
    }

    /// A statement that confirms one known bad file of a run: bind the run's time, job, recipe, then the
    /// file's path, size and modification time (1 to 6).
    func badFileConfirmation(in database: SQLiteConnection) throws -> Statement {
        try database.cachedStatement("""
            UPDATE bad_files SET confirmed_at = max(confirmed_at, ?1)
            WHERE job_key = ?2 AND recipe_fingerprint = ?3 AND path = ?4 AND size = ?5 AND modified_ns = ?6
            """)
    }

    /// Takes the files of a downloaded shard that are done out of the index.
    func forgetBadFiles(doneInShard key: [SQLiteValue], in database: SQLiteConnection) throws {
        try database.execute("""
            DELETE FROM bad_files WHERE id IN (
                SELECT b.id FROM files f CROSS JOIN runs ON runs.id = f.run_id
                CROSS JOIN bad_files b ON b.job_key = runs.job_key AND b.recipe_fingerprint = runs.recipe_fingerprint
                    AND b.path = f.path AND b.size = f.size AND b.modified_ns = f.modified_ns
                WHERE f.run_id = ?1 AND f.shard_index = ?2 AND f.state = ?3)
            """, key + [.state(FileState.done)])
    }

    /// The known bad files of the job keyed `job` no run failed or left out since `cutoff`; with `forget`, deleted. Returns how many.
    func badFiles(ofJob job: String, unconfirmedSince cutoff: String, forget: Bool, in database: SQLiteConnection) throws -> Int {
        let arguments: [SQLiteValue] = [.text(job), .text(cutoff)]
        guard forget else {
            return Int(try database.firstRow("SELECT count(*) FROM bad_files WHERE job_key = ?1 AND confirmed_at < ?2", arguments) {
                $0.integer(0) ?? 0
            } ?? 0)
        }
        try database.execute("DELETE FROM bad_files WHERE job_key = ?1 AND confirmed_at < ?2", arguments)
        return database.changes
    }
}
