package import AssemblyLine
import Foundation

/// The done index (`done_sets`, `done_files`, `done_outputs`): each file a job's runs did under a recipe, with its outputs.
///
/// It is what an incremental run reads, one row a file, however many runs came before; it is kept
/// apart from the runs so that `prune` can drop old runs while later runs still skip their files
/// (and check those files' outputs). A file is entered when its shard is downloaded, with the
/// downloaded results of the shard's completed attempt (a file done again replaces them). Each run
/// that reads the index reviews it (``DoneIndexReview``): the set's `reviewed_at` moves to the run's
/// creation, and only the files whose standing changed are written: `missed_at` set on those the run
/// did not skip, cleared on those it skipped again. `prune` forgets the files no run did or skipped since its cutoff.
extension SQLiteLedger {
    /// A page of the set of `jobKey` under the recipe in the order of its unique key (path bytes, size, modification time),
    /// after `cursor`: the files first, by that index, then each one's outputs, by theirs (with their MD5s only when `md5s`).
    ///
    /// The page is bounded by its last file's key, found first on the index alone, so that its files and outputs come in
    /// the order of the indexes as they are read: a page cut by `LIMIT` and joined had SQLite sort its rows again (a
    /// temporary B-tree of each page's paths, a third of the read). Both statements read one snapshot.
    package func completedFiles(jobKey: String, recipeFingerprint: String, after cursor: FileIdentity?, limit: Int,
                                md5s: Bool) throws -> [DoneIndexRow] {
        let database = try database()
        let found = try database.firstRow("SELECT id FROM done_sets WHERE job_key = ? AND recipe_fingerprint = ?",
                                          [.text(jobKey), .text(recipeFingerprint)]) { $0.integer(0) }
        guard let set = found.flatMap({ $0 }), limit > 0 else { return [] }
        let after = cursor ?? FileIdentity(path: "", size: .min, modifiedNanoseconds: .min)
        let from: [SQLiteValue] = [.integer(set), .text(after.path), .integer(after.size), .integer(after.modifiedNanoseconds)]
        return try database.inTransaction(.deferred) {
            guard let last = try lastOfPage(from: from, limit: limit, in: database) else { return [] }
            return try completedFiles(from: from, through: last, md5s: md5s, limit: limit)
        }
    }

    /// The key of a page's last file: the `limit`th of the set after the key in `from` (set, path, size, modification time),
    /// or the set's last when fewer follow; nil when none does.
    private func lastOfPage(from: [SQLiteValue], limit: Int, in database: SQLiteConnection) throws -> FileIdentity? {
        let following = "SELECT path, size, modified_ns FROM done_files WHERE set_id = ?1 AND (path, size, modified_ns) > (?2, ?3, ?4)"
        let key = { (row: Statement) in
            FileIdentity(path: row.text(0) ?? "", size: row.integer(1) ?? 0, modifiedNanoseconds: row.integer(2) ?? 0)
        }
        if let last = try database.firstRow("\(following) ORDER BY path, size, modified_ns LIMIT 1 OFFSET ?5",
                                            from + [.integer(Int64(limit - 1))], key) {
            return last
        }
        return try database.firstRow("\(following) ORDER BY path DESC, size DESC, modified_ns DESC LIMIT 1", from, key)
    }

    /// The files of the set after the key in `from` through `last`, each with its outputs.
    private func completedFiles(from: [SQLiteValue], through last: FileIdentity, md5s: Bool, limit: Int) throws -> [DoneIndexRow] {
        var rows: [DoneIndexRow] = []
        rows.reserveCapacity(limit)
        try forEachRow("""
            SELECT d.id, d.path, d.size, d.modified_ns, d.missed_at IS NOT NULL, o.output_path, o.size, CASE WHEN ?8 THEN o.md5 END
            FROM done_files d LEFT JOIN done_outputs o ON o.done_id = d.id
            WHERE d.set_id = ?1 AND (d.path, d.size, d.modified_ns) > (?2, ?3, ?4) AND (d.path, d.size, d.modified_ns) <= (?5, ?6, ?7)
            ORDER BY d.path, d.size, d.modified_ns, o.rowid
            """, from + [.text(last.path), .integer(last.size), .integer(last.modifiedNanoseconds), .integer(md5s ? 1 : 0)],
            table: "done_files") { row in
            let entry = try row.integer()
            if rows.last?.file.entry != entry {
                rows.append(DoneIndexRow(
                    identity: FileIdentity(path: try row.text(), size: try row.integer(), modifiedNanoseconds: try row.integer()),
                    file: CompletedFile(entry: entry, missed: try row.integer() != 0, outputs: [])))
            } else {
                row.skip(4)
            }
            if let path = row.optionalText() {
                rows[rows.count - 1].file.outputs.append(RecordedOutput(path: path, size: row.optionalInteger(), md5: row.optionalText()))
            }
        }
        return rows
    }

    /// The set of the run's job and recipe, entered when missing (naming the run's manifest as the one that last wrote
    /// it); with the time of its latest review.
    func doneSet(of run: NewRun, in database: SQLiteConnection) throws -> (id: Int64, reviewedAt: String?) {
        let key: [SQLiteValue] = [.text(run.job.key), .text(run.recipeFingerprint)]
        try database.execute("""
            INSERT INTO done_sets (job_key, recipe_fingerprint, manifest_path) VALUES (?1, ?2, ?3)
            ON CONFLICT DO UPDATE SET manifest_path = excluded.manifest_path
            """, key + [.text(run.manifestPath)])
        let found = try database.firstRow("SELECT id, reviewed_at FROM done_sets WHERE job_key = ? AND recipe_fingerprint = ?", key) {
            (id: $0.integer(0) ?? 0, reviewedAt: $0.text(1))
        }
        guard let found else { throw LedgerError.runNotFound(run.id) }
        return found
    }

    /// Writes a run's review of the done index: the entries it missed keep the review before as their
    /// last confirmation and are marked missed at the run's creation; those it regained are not missed
    /// any more; the set is reviewed at the run's creation.
    func recordReview(_ review: DoneIndexReview, of run: NewRun, in database: SQLiteConnection) throws {
        let set = try doneSet(of: run, in: database)
        let created = SQLiteValue.text(Self.text(run.createdAt))
        let miss = try database.cachedStatement("""
            UPDATE done_files SET confirmed_at = max(confirmed_at, coalesce(?1, confirmed_at)), missed_at = ?2
            WHERE id = ?3 AND set_id = ?4 AND missed_at IS NULL
            """)
        try miss.bind([set.reviewedAt.map(SQLiteValue.text) ?? .null, created, .null, .integer(set.id)])
        for entry in review.missed {
            try miss.bind(.integer(entry), at: 3)
            try miss.step()
            miss.reset()
        }
        let regain = try database.cachedStatement("UPDATE done_files SET missed_at = NULL WHERE id = ?1 AND set_id = ?2")
        try regain.bind([.null, .integer(set.id)])
        for entry in review.regained {
            try regain.bind(.integer(entry), at: 1)
            try regain.step()
            regain.reset()
        }
        try database.execute("UPDATE done_sets SET reviewed_at = max(coalesce(reviewed_at, ?1), ?1) WHERE id = ?2", [created, .integer(set.id)])
    }

    /// Enters the files of a downloaded shard that are done, with the outputs of its completed attempt: their own
    /// results' and those of results of several inputs that name them (a zip), so that a night checks both; the
    /// earlier versions of each file (another size or modification time at its path) leave the set.
    func recordDoneFiles(ofShard key: [SQLiteValue], in database: SQLiteConnection) throws {
        let doneFiles = """
            FROM files f CROSS JOIN runs ON runs.id = f.run_id
            CROSS JOIN done_sets s ON s.job_key = runs.job_key AND s.recipe_fingerprint = runs.recipe_fingerprint
            CROSS JOIN done_files d ON d.set_id = s.id AND d.path = f.path AND d.size = f.size AND d.modified_ns = f.modified_ns
            """
        let shardFilesDone = "WHERE f.run_id = ?1 AND f.shard_index = ?2 AND f.state = ?3"
        let done = key + [.state(FileState.done)]
        try database.execute("DELETE FROM done_outputs WHERE done_id IN (SELECT d.id \(doneFiles) \(shardFilesDone))", done)
        try database.execute("""
            INSERT INTO done_files (set_id, path, size, modified_ns, run_id, confirmed_at)
            SELECT s.id, f.path, f.size, f.modified_ns, f.run_id, runs.created_at
            FROM files f CROSS JOIN runs ON runs.id = f.run_id
            CROSS JOIN done_sets s ON s.job_key = runs.job_key AND s.recipe_fingerprint = runs.recipe_fingerprint
            \(shardFilesDone)
            ON CONFLICT (set_id, path, size, modified_ns)
                DO UPDATE SET run_id = excluded.run_id, confirmed_at = max(confirmed_at, excluded.confirmed_at), missed_at = NULL
            """, done)
        // The file's earlier versions go: their outputs are the ones just made again (one version a path, version 14).
        try database.execute("""
            DELETE FROM done_files WHERE id IN (
                SELECT o.id \(doneFiles) CROSS JOIN done_files o ON o.set_id = d.set_id AND o.path = d.path AND o.id != d.id
                \(shardFilesDone))
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

    @discardableResult
    package func forgetDoneFiles(_ entries: [Int64]) throws -> Int {
        try write { database in
            let forget = try database.cachedStatement("DELETE FROM done_files WHERE id = ?1")
            var forgotten = 0
            for entry in entries {
                try forget.bind(.integer(entry), at: 1)
                try forget.step()
                forget.reset()
                forgotten += database.changes
            }
            return forgotten
        }
    }

    @discardableResult
    package func carryDoneFiles(job: ManifestJob, from earlier: String, to recipe: String) throws -> Int {
        try write { database in
            var carried = 0
            for key in job.keys {
                let found = try database.firstRow("SELECT id FROM done_sets WHERE job_key = ? AND recipe_fingerprint = ?",
                                                  [.text(key), .text(earlier)]) { $0.integer(0) }
                guard let old = found.flatMap({ $0 }) else { continue }
                try database.execute("""
                    INSERT INTO done_sets (job_key, recipe_fingerprint, manifest_path, reviewed_at)
                    SELECT job_key, ?2, manifest_path, reviewed_at FROM done_sets WHERE id = ?1
                    ON CONFLICT DO NOTHING
                    """, [.integer(old), .text(recipe)])
                let new = try database.firstRow("SELECT id FROM done_sets WHERE job_key = ? AND recipe_fingerprint = ?",
                                                [.text(key), .text(recipe)]) { $0.integer(0) ?? 0 } ?? 0
                try database.execute("""
                    UPDATE done_files SET set_id = ?2
                    WHERE set_id = ?1 AND path NOT IN (SELECT path FROM done_files WHERE set_id = ?2)
                    """, [.integer(old), .integer(new)])
                carried += database.changes
                try database.execute("DELETE FROM done_sets WHERE id = ?1", [.integer(old)])
            }
            return carried
        }
    }

    /// The done files of `set` no run did or skipped since `cutoff`: those whose last confirmation is older, which for a
    /// file not missed is the later of its `confirmed_at` and the set's review (`reviewedAt`); with `forget`, deleted.
    /// Returns how many.
    func doneFiles(of set: Int64, reviewedAt: String?, unconfirmedSince cutoff: String, forget: Bool, in database: SQLiteConnection) throws -> Int {
        let condition = "set_id = ?1 AND confirmed_at < ?2 AND (missed_at IS NOT NULL OR ?3 < ?2)"
        let arguments: [SQLiteValue] = [.integer(set), .text(cutoff), .text(reviewedAt ?? "")]
        guard forget else {
            return Int(try database.firstRow("SELECT count(*) FROM done_files WHERE \(condition)", arguments) { $0.integer(0) ?? 0 } ?? 0)
        }
        try database.execute("DELETE FROM done_files WHERE \(condition)", arguments)
        return database.changes
    }
}
