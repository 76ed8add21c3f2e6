package import AssemblyLine
package import Foundation

extension SQLiteLedger {
    @discardableResult
    package func createRun(_ run: NewRun) throws -> RunRecord {
        let created = Self.text(run.createdAt)
        let record = RunRecord(id: run.id, manifestPath: run.manifestPath, manifestName: run.manifestName,
                               recipeFingerprint: run.recipeFingerprint, state: .running, createdAt: run.createdAt,
                               updatedAt: run.createdAt, finishedAt: nil, shardCount: run.plan.shards.count,
                               fileCount: run.plan.fileCount, skippedCount: run.skippedCount, bytes: run.plan.bytes,
                               batch: run.batch, partition: run.partition, jobKey: run.job.key, inputsKey: run.inputsKey,
                               templateID: run.templateID, templateSHA256: run.templateSHA256)
        try write { database in
            try database.execute("""
                INSERT INTO runs (id, manifest_path, manifest_name, recipe_fingerprint, state, created_at, updated_at,
                                  shard_count, file_count, skipped_count, bytes, batch_id, partition_index, partition_count, job_key, inputs_key,
                                  template_id, template_sha256)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, [.text(run.id.rawValue), .text(run.manifestPath), .text(run.manifestName),
                      .text(run.recipeFingerprint), .state(RunState.running), .text(created), .text(created), .integer(record.shardCount),
                      .integer(record.fileCount), .integer(record.skippedCount), .integer(record.bytes),
                      run.batch.map { .text($0.rawValue) } ?? .null, .integer(Int64(run.partition.index)),
                      .integer(Int64(run.partition.count)), .text(run.job.key), .text(run.inputsKey), .text(run.templateID),
                      .text(run.templateSHA256)])
            try insertShards(of: run, createdAt: created, in: database)
            try insertFiles(of: run, in: database)
            // The set is entered by any run, so that the files it does enter under it; only a run that read the index reviews it.
            if let review = run.review {
                try recordReview(review, of: run, in: database)
            } else {
                _ = try doneSet(of: run, in: database)
            }
            try insertEvent(run.id, shard: nil, kind: .runCreated,
                            message: "\(record.shardCount) shards, \(record.fileCount) files, \(record.bytes) bytes, "
                                + "\(record.skippedCount) skipped",
                            at: run.createdAt, in: database)
        }
        return record
    }

    /// One reused statement for every shard; the run ID and time are bound once.
    private func insertShards(of run: NewRun, createdAt: String, in database: SQLiteConnection) throws {
        let insert = try database.cachedStatement("""
            INSERT INTO shards (run_id, shard_index, state, file_count, bytes, updated_at, fields)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
        try insert.bind(.text(run.id.rawValue), at: 1)
        try insert.bind(.state(ShardState.planned), at: 3)
        try insert.bind(.text(createdAt), at: 6)
        for shard in run.plan.shards {
            try insert.bind(.integer(Int64(shard.index)), at: 2)
            try insert.bind(.integer(Int64(shard.files.count)), at: 4)
            try insert.bind(.integer(shard.bytes), at: 5)
            try insert.bind(shard.fieldsJSON.map(SQLiteValue.text) ?? .null, at: 7)
            try insert.step()
            insert.reset()
        }
    }

    /// The planned files go in blocks of ``fileRowsAStatement`` rows a statement, numbered in plan order, then the known bad
    /// files, one a statement, which confirm their entries in the bad index. Skipped files have no row (the run counts them,
    /// and its review of the done index confirms them), so that a night that sends nothing adds a run row and no more.
    ///
    /// A block a statement: SQLite builds the lookup table of `state`'s `CHECK (state IN (...))` once each time a
    /// statement runs, and a million runs of a one-row statement spent a quarter of `createRun` building it.
    private func insertFiles(of run: NewRun, in database: SQLiteConnection) throws {
        var index: Int64 = 0
        var block: [(shard: Int, file: PlannedFile)] = []
        block.reserveCapacity(Self.fileRowsAStatement)
        let full = try database.cachedStatement(Self.fullBlockInsert)
        func flush() throws {
            guard !block.isEmpty else { return }
            let insert = block.count == Self.fileRowsAStatement ? full : try database.cachedStatement(Self.plannedFilesInsert(rows: block.count))
            try insert.bind(.text(run.id.rawValue), at: 1)
            try insert.bind(.state(FileState.pending), at: 2)
            for (row, planned) in block.enumerated() {
                let first = Int32(3 + row * 6)
                try insert.bind(.integer(index), at: first)
                try insert.bind(.integer(Int64(planned.shard)), at: first + 1)
                try insert.bind(.text(planned.file.path), at: first + 2)
                try insert.bind(.text(planned.file.relativePath), at: first + 3)
                try insert.bind(.integer(planned.file.size), at: first + 4)
                try insert.bind(.integer(planned.file.modifiedNanoseconds), at: first + 5)
                index += 1
            }
            try insert.step()
            insert.reset()
            block.removeAll(keepingCapacity: true)
        }
        for shard in run.plan.shards {
            for file in shard.files {
                block.append((shard.index, file))
                if block.count == Self.fileRowsAStatement { try flush() }
            }
        }
        try flush()
        let insert = try database.cachedStatement("""
            INSERT INTO files (run_id, file_index, shard_index, path, relative_path, size, modified_ns, state,
                               error_code, error_message, retryable)
            VALUES (?, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        let runKey: [SQLiteValue] = [.text(Self.text(run.createdAt)), .text(run.job.key), .text(run.recipeFingerprint)]
        let confirmBad = try badFileConfirmation(in: database)
        try confirmBad.bind(runKey)
        for known in run.knownBad {
            try insert.bind([.text(run.id.rawValue), .integer(index), .text(known.file.path), .text(known.file.relativePath),
                             .integer(known.file.size), .integer(known.file.modifiedNanoseconds), .state(FileState.knownBad)]
                            + Self.values(known.reason))
            try insert.step()
            insert.reset()
            index += 1
            try confirmBad.bind(.text(known.file.path), at: 4)
            try confirmBad.bind(.integer(known.file.size), at: 5)
            try confirmBad.bind(.integer(known.file.modifiedNanoseconds), at: 6)
            try confirmBad.step()
            confirmBad.reset()
        }
    }

    /// How many planned files one statement inserts; its 6 parameters a row, and 2 for all, stay far below SQLite's limit.
    package static let fileRowsAStatement = 64

    private static let fullBlockInsert = plannedFilesInsert(rows: fileRowsAStatement)

    /// The insert of `rows` planned files: the run ID (?1) and the state (?2) are shared, each row binds six parameters.
    private static func plannedFilesInsert(rows: Int) -> String {
        let values = (0..<rows).map { row in
            let first = 3 + row * 6
            return "(?1, " + (first..<(first + 6)).map { "?\($0)" }.joined(separator: ", ") + ", ?2)"
        }
        return "INSERT INTO files (run_id, file_index, shard_index, path, relative_path, size, modified_ns, state) VALUES "
            + values.joined(separator: ", ")
    }

    package func prune(createdBefore cutoff: Date, keepingLast keep: Int, gone: [RunID], dryRun: Bool) throws -> LedgerPruning {
        try write { database in
            let before = Self.text(cutoff)
            // A run goes when it is older than the cutoff, not running (or its process is gone), and `keep` runs of its job are newer.
            let old = try rows("""
                SELECT \(LedgerRowReader.runColumns) FROM runs r WHERE created_at < ?1 AND (state != ?2 OR id IN (\(Self.placeholders(gone.count, from: 4))))
                AND (SELECT count(*) FROM runs n WHERE n.job_key = r.job_key AND (n.created_at, n.id) > (r.created_at, r.id)) >= ?3
                ORDER BY id
                """, [.text(before), .state(RunState.running), .integer(Int64(keep))] + gone.map { .text($0.rawValue) }, table: "runs") {
                try $0.runRecord()
            }
            // Each job's files are forgotten before its cutoff, and never after the creation of the oldest run kept.
            var jobCutoffs: [String: String] = [:]
            func jobCutoff(_ job: String) throws -> String {
                if let known = jobCutoffs[job] { return known }
                let kept = keep == 0 ? nil : try database.firstRow("""
                    SELECT created_at FROM runs WHERE job_key = ? ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET ?
                    """, [.text(job), .integer(Int64(keep - 1))]) { $0.text(0) } ?? nil
                let oldest = keep == 0 ? nil : try database.firstRow("SELECT min(created_at) FROM runs WHERE job_key = ?", [.text(job)]) { $0.text(0) } ?? nil
                let found = min(before, kept ?? oldest ?? before)
                jobCutoffs[job] = found
                return found
            }
            let sets = try database.rows("SELECT id, job_key, reviewed_at FROM done_sets") { ($0.integer(0) ?? 0, $0.text(1) ?? "", $0.text(2)) }
            var doneFiles = 0
            for (set, job, reviewedAt) in sets {
                doneFiles += try self.doneFiles(of: set, reviewedAt: reviewedAt, unconfirmedSince: try jobCutoff(job), forget: !dryRun, in: database)
            }
            var badFiles = 0
            // The jobs that may have known bad files: those with runs (a job keeps its newest) or done files.
            let jobs = try database.rows("SELECT job_key FROM runs UNION SELECT job_key FROM done_sets", []) { $0.text(0) ?? "" }
            for job in jobs {
                badFiles += try self.badFiles(ofJob: job, unconfirmedSince: try jobCutoff(job), forget: !dryRun, in: database)
            }
            if !dryRun {
                for run in old { try database.execute("DELETE FROM runs WHERE id = ?", [.text(run.id.rawValue)]) }
            }
            return LedgerPruning(runs: old, doneFiles: doneFiles, badFiles: badFiles)
        }
    }

    package func claim(rowsOf key: String, into job: ManifestJob, inputsKey: String) throws -> Int {
        guard key != job.key else { return 0 }
        return try write { database in
            let keys: [SQLiteValue] = [.text(job.key), .text(key)]
            try database.execute("""
                UPDATE runs SET job_key = ?1, inputs_key = CASE WHEN inputs_key = '' THEN ?3 ELSE inputs_key END WHERE job_key = ?2
                """, keys + [.text(inputsKey)])
            let claimed = database.changes
            // A set of the path's becomes the job's; where the job has one for its recipe already (a copy of the
            // manifest ran first), its files join that one, the job's own entry kept where both hold a file.
            let theJobsSet = "SELECT j.id FROM done_sets j WHERE j.job_key = ?1 AND j.recipe_fingerprint = l.recipe_fingerprint"
            try database.execute("""
                UPDATE OR IGNORE done_files SET set_id = (SELECT j.id FROM done_sets l CROSS JOIN done_sets j
                    ON j.job_key = ?1 AND j.recipe_fingerprint = l.recipe_fingerprint WHERE l.id = done_files.set_id)
                WHERE set_id IN (SELECT l.id FROM done_sets l WHERE l.job_key = ?2 AND EXISTS (\(theJobsSet)))
                """, keys)
            try database.execute("DELETE FROM done_sets WHERE id IN (SELECT l.id FROM done_sets l WHERE l.job_key = ?2 AND EXISTS (\(theJobsSet)))",
                                 keys)
            try database.execute("UPDATE done_sets SET job_key = ?1 WHERE job_key = ?2", keys)
            try database.execute("UPDATE OR IGNORE bad_files SET job_key = ?1 WHERE job_key = ?2", keys)
            try database.execute("DELETE FROM bad_files WHERE job_key = ?2", keys)
            return claimed
        }
    }

    package func recordInterrupted(_ runs: [RunID], at time: Date) throws -> [RunID] {
        try write { database in
            try runs.filter { try currentState(of: $0) == .running }.map { run in
                try move(run, to: .interrupted, at: time, in: database)
                return run
            }
        }
    }

    package func supersede(_ id: RunID, by successor: RunID, at time: Date) throws {
        try write { database in
            let current = try currentState(of: id)
            guard current.canTransition(to: .superseded) else { throw LedgerError.illegalRunTransition(id, from: current, to: .superseded) }
            let now = Self.text(time)
            try database.execute("UPDATE runs SET state = ?, superseded_by = ?, updated_at = ?, finished_at = ? WHERE id = ?",
                                 [.state(RunState.superseded), .text(successor.rawValue), .text(now), .text(now), .text(id.rawValue)])
            try insertEvent(id, shard: nil, kind: .runState, message: "\(current) → superseded by \(successor)", at: time, in: database)
        }
    }

    package func updateRecipe(_ id: RunID, fingerprint: String, templateSHA256: String?, at time: Date) throws {
        try write { database in
            try database.execute("UPDATE runs SET recipe_fingerprint = ?, template_sha256 = ? WHERE id = ?",
                                 [.text(fingerprint), .text(templateSHA256), .text(id.rawValue)])
            guard database.changes == 1 else { throw LedgerError.runNotFound(id) }
            try database.execute("""
                INSERT INTO done_sets (job_key, recipe_fingerprint, manifest_path)
                SELECT job_key, recipe_fingerprint, manifest_path FROM runs WHERE id = ?
                ON CONFLICT DO NOTHING
                """, [.text(id.rawValue)])
            try insertEvent(id, shard: nil, kind: .runRecipe, message: "the Template's file changed since; the run goes on under its new content", at: time, in: database)
        }
    }

    package func updateRunState(_ id: RunID, to state: RunState, at time: Date) throws {
        try write { database in try move(id, to: state, at: time, in: database) }
    }

    package func endRun(_ id: RunID, as state: RunState, at time: Date) throws -> RunState {
        try write { database in
            guard try currentState(of: id) != .canceled else { return .canceled }
            try move(id, to: state, at: time, in: database)
            return state
        }
    }

    private func currentState(of id: RunID) throws -> RunState {
        let current = try rows("SELECT state FROM runs WHERE id = ?", [.text(id.rawValue)], table: "runs") {
            try $0.value(RunState.self)
        }
        guard let current = current.first else { throw LedgerError.runNotFound(id) }
        return current
    }

    private func move(_ id: RunID, to state: RunState, at time: Date, in database: SQLiteConnection) throws {
        let current = try currentState(of: id)
        guard current.canTransition(to: state) else {
            throw LedgerError.illegalRunTransition(id, from: current, to: state)
        }
        let now = Self.text(time)
        try database.execute("UPDATE runs SET state = ?, updated_at = ?, finished_at = ? WHERE id = ?",
                             [.state(state), .text(now), state.hasEnded ? .text(now) : .null,
                              .text(id.rawValue)])
        try insertEvent(id, shard: nil, kind: .runState, message: "\(current) → \(state)", at: time, in: database)
    }
}
