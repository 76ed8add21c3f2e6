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
                               batch: run.batch, partition: run.partition)
        try write { database in
            try database.execute("""
                INSERT INTO runs (id, manifest_path, manifest_name, recipe_fingerprint, state, created_at, updated_at,
                                  shard_count, file_count, skipped_count, bytes, batch_id, partition_index, partition_count)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, [.text(run.id.rawValue), .text(run.manifestPath), .text(run.manifestName),
                      .text(run.recipeFingerprint), .state(RunState.running), .text(created), .text(created), .integer(record.shardCount),
                      .integer(record.fileCount), .integer(record.skippedCount), .integer(record.bytes),
                      run.batch.map { .text($0.rawValue) } ?? .null, .integer(Int64(run.partition.index)),
                      .integer(Int64(run.partition.count))])
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
            INSERT INTO shards (run_id, shard_index, state, file_count, bytes, updated_at)
            VALUES (?, ?, ?, ?, ?, ?)
            """)
        try insert.bind(.text(run.id.rawValue), at: 1)
        try insert.bind(.state(ShardState.planned), at: 3)
        try insert.bind(.text(createdAt), at: 6)
        for shard in run.plan.shards {
            try insert.bind(.integer(Int64(shard.index)), at: 2)
            try insert.bind(.integer(Int64(shard.files.count)), at: 4)
            try insert.bind(.integer(shard.bytes), at: 5)
            try insert.step()
            insert.reset()
        }
    }

    /// One reused statement for every file: planned files numbered in plan order, then known bad files, which
    /// confirm their entries in the bad index. Skipped files have no row (the run counts them, and its review of
    /// the done index confirms them), so that a night that sends nothing adds a run row and no more.
    private func insertFiles(of run: NewRun, in database: SQLiteConnection) throws {
        let insert = try database.cachedStatement("""
            INSERT INTO files (run_id, file_index, shard_index, path, relative_path, size, modified_ns, state,
                               error_code, error_message, retryable)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        try insert.bind([.text(run.id.rawValue)] + Array(repeating: .null, count: 10))
        var index: Int64 = 0
        func add(_ file: PlannedFile, shard: SQLiteValue, state: FileState) throws {
            try insert.bind(.integer(index), at: 2)
            try insert.bind(shard, at: 3)
            try insert.bind(.text(file.path), at: 4)
            try insert.bind(.text(file.relativePath), at: 5)
            try insert.bind(.integer(file.size), at: 6)
            try insert.bind(.integer(file.modifiedNanoseconds), at: 7)
            try insert.bind(.state(state), at: 8)
            try insert.step()
            insert.reset()
            index += 1
        }
        for shard in run.plan.shards {
            for file in shard.files {
                try add(file, shard: .integer(Int64(shard.index)), state: .pending)
            }
        }
        let runKey: [SQLiteValue] = [.text(Self.text(run.createdAt)), .text(run.manifestPath), .text(run.recipeFingerprint)]
        let confirmBad = try badFileConfirmation(in: database)
        try confirmBad.bind(runKey)
        for known in run.knownBad {
            for (offset, value) in Self.values(known.reason).enumerated() { try insert.bind(value, at: Int32(9 + offset)) }
            try add(known.file, shard: .null, state: .knownBad)
            try confirmBad.bind(.text(known.file.path), at: 4)
            try confirmBad.bind(.integer(known.file.size), at: 5)
            try confirmBad.bind(.integer(known.file.modifiedNanoseconds), at: 6)
            try confirmBad.step()
            confirmBad.reset()
        }
    }

    package func recentRuns(limit: Int, matching filter: RunFilter) throws -> [RunRecord] {
        var conditions: [String] = []
        var arguments: [SQLiteValue] = []
        if let manifest = filter.manifestPath {
            conditions.append("manifest_path = ?")
            arguments.append(.text(manifest))
        }
        if let state = filter.state {
            conditions.append("state = ?")
            arguments.append(.state(state))
        }
        if let since = filter.since {
            conditions.append("created_at >= ?")
            arguments.append(.text(Self.text(since)))
        }
        if let batch = filter.batch {
            conditions.append("batch_id = ?")
            arguments.append(.text(batch.rawValue))
        }
        if let partition = filter.partition {
            conditions.append("partition_index = ? AND partition_count = ?")
            arguments += [.integer(Int64(partition.index)), .integer(Int64(partition.count))]
        }
        let condition = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        // Newest first by the start's millisecond: run IDs name its second only, and two runs of one second sort by their random suffix.
        return try rows("SELECT \(LedgerRowReader.runColumns) FROM runs\(condition) ORDER BY created_at DESC, id DESC LIMIT ?",
                        arguments + [.integer(Int64(max(0, limit)))], table: "runs") { try $0.runRecord() }
    }

    package func run(_ id: RunID) throws -> RunSummary {
        guard let record = try rows("SELECT \(LedgerRowReader.runColumns) FROM runs WHERE id = ?",
                                    [.text(id.rawValue)], table: "runs", { try $0.runRecord() }).first
        else { throw LedgerError.runNotFound(id) }
        let shards = try rows("SELECT state, count(*) FROM shards WHERE run_id = ? GROUP BY state",
                              [.text(id.rawValue)], table: "shards") { (try $0.value(ShardState.self), try $0.int()) }
        var files = Dictionary(uniqueKeysWithValues: try rows("SELECT state, count(*) FROM files WHERE run_id = ? GROUP BY state",
                                                              [.text(id.rawValue)], table: "files") { (try $0.value(FileState.self), try $0.int()) })
        // Skipped files are counted, not recorded (runs before 2026-12 recorded a row for each too).
        files[.skipped] = record.skippedCount
        return RunSummary(record: record, shardsByState: Dictionary(uniqueKeysWithValues: shards), filesByState: files)
    }

    package func statistics(of id: RunID) throws -> RunStatistics {
        try statistics(of: id, shardDurations: true)
    }

    /// The run's figures; without `shardDurations` (a history of many runs, which shows none) the durations are not read.
    package func statistics(of id: RunID, shardDurations: Bool) throws -> RunStatistics {
        let key: [SQLiteValue] = [.text(id.rawValue)]
        guard try !rows("SELECT 1 FROM runs WHERE id = ?", key, table: "runs", { _ in () }).isEmpty else {
            throw LedgerError.runNotFound(id)
        }
        // Retries: the Assemblies created again for a shard, and the steps tried again within one.
        let attempts = try rows("""
            SELECT count(created_at), count(*) - count(DISTINCT shard_index)
                       + (SELECT count(*) FROM events WHERE run_id = ?1 AND kind = ?2),
                   coalesce(sum(bytes_sent), 0) + (SELECT coalesce(sum(upload_offset), 0) FROM uploads WHERE run_id = ?1)
            FROM attempts WHERE run_id = ?1
            """, key + [.state(LedgerEventKind.shardRetrying)], table: "attempts") { (try $0.int(), try $0.int(), try $0.integer()) }
        let usage = try rows("""
            SELECT coalesce(sum(bytes_usage), 0), count(*) - count(bytes_usage), coalesce(sum(queue_duration), 0),
                   coalesce(sum(execution_duration), 0)
            FROM attempts WHERE run_id = ? AND outcome = ?
            """, key + [.state(AttemptOutcome.completed)], table: "attempts") { (try $0.integer(), try $0.int(), try $0.real(), try $0.real()) }
        let received = try rows("SELECT coalesce(sum(size), 0) FROM results WHERE run_id = ? AND state = ?",
                                key + [.state(ResultState.downloaded)], table: "results") { try $0.integer() }
        let durations = !shardDurations ? [] : try rows("""
            SELECT s.shard_index,
                   CAST(round((julianday(max(r.downloaded_at)) - julianday((SELECT min(started_at) FROM attempts a
                        WHERE a.run_id = s.run_id AND a.shard_index = s.shard_index))) * 86400000.0) AS INTEGER)
            FROM shards s JOIN results r ON r.run_id = s.run_id AND r.shard_index = s.shard_index
            WHERE s.run_id = ? AND s.state = ? AND r.state = ?
            GROUP BY s.shard_index
            """, key + [.state(ShardState.downloaded), .state(ResultState.downloaded)], table: "shards") { (try $0.int(), Duration.milliseconds(try $0.integer())) }
        let (created, retries, sent) = attempts.first ?? (0, 0, 0)
        let (usageBytes, withoutUsage, queued, executed) = usage.first ?? (0, 0, 0, 0)
        return RunStatistics(assembliesCreated: created, retries: retries, bytesSent: sent,
                             bytesReceived: received.first ?? 0,
                             shardDurations: Dictionary(durations, uniquingKeysWith: { first, _ in first }),
                             usageBytes: usageBytes, assembliesWithoutUsage: withoutUsage, queueSeconds: queued, executionSeconds: executed)
    }

    /// Deletes the runs created before `cutoff` that are not `running`, with every row of theirs
    /// (shards, files, attempts, results, uploads, events: the foreign keys cascade); returns them.
    /// With `dryRun`, only returns them.
    package func pruneRuns(createdBefore cutoff: Date, dryRun: Bool) throws -> [RunRecord] {
        try write { database in
            let old = try rows("SELECT \(LedgerRowReader.runColumns) FROM runs WHERE created_at < ? AND state != ? ORDER BY id",
                               [.text(Self.text(cutoff)), .state(RunState.running)], table: "runs") { try $0.runRecord() }
            if !dryRun {
                for run in old { try database.execute("DELETE FROM runs WHERE id = ?", [.text(run.id.rawValue)]) }
                try forgetDoneFiles(unconfirmedSince: cutoff, in: database)
                try forgetBadFiles(unconfirmedSince: cutoff, in: database)
            }
            return old
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
