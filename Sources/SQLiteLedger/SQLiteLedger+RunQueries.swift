package import AssemblyLine
import Foundation

/// The ledger's reads about runs: the listings, each run's counts and figures, its timeline, and what earlier runs cost.
extension SQLiteLedger {
    package func recentRuns(limit: Int, matching filter: RunFilter) throws -> [RunRecord] {
        var conditions: [String] = []
        var arguments: [SQLiteValue] = []
        if let manifest = filter.manifestPath {
            conditions.append("manifest_path = ?")
            arguments.append(.text(manifest))
        }
        if let job = filter.job {
            conditions.append("job_key IN (\(Self.placeholders(job.keys.count)))")
            arguments += job.keys.map(SQLiteValue.text)
        }
        if let name = filter.name {
            conditions.append("manifest_name = ?")
            arguments.append(.text(name))
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
        let (received, durations) = shardDurations
            ? try receivedByShard(key)
            : (try rows("SELECT coalesce(sum(size), 0) FROM results WHERE run_id = ? AND state = ?",
                        key + [.state(ResultState.downloaded)], table: "results") { try $0.integer() }.first ?? 0, [:])
        let (created, retries, sent) = attempts.first ?? (0, 0, 0)
        let (usageBytes, withoutUsage, queued, executed) = usage.first ?? (0, 0, 0, 0)
        return RunStatistics(assembliesCreated: created, retries: retries, bytesSent: sent,
                             bytesReceived: received, shardDurations: durations,
                             usageBytes: usageBytes, assembliesWithoutUsage: withoutUsage, queueSeconds: queued, executionSeconds: executed)
    }

    /// The bytes the run `key` downloaded, and how long each downloaded shard took, from its first attempt's start to
    /// its last download: one pass over the results, a shard's at a time (a million results: 1.4 s → 0.5 s, where a
    /// sum over the run's results and a join of the shards with them read each result twice, in file order).
    private func receivedByShard(_ key: [SQLiteValue]) throws -> (bytes: Int64, durations: [Int: Duration]) {
        var bytes: Int64 = 0
        var durations: [Int: Duration] = [:]
        try forEachRow("""
            SELECT d.shard_index, d.bytes,
                   CASE WHEN s.state = ?3 THEN CAST(round((julianday(d.last) - julianday((SELECT min(started_at) FROM attempts a
                        WHERE a.run_id = s.run_id AND a.shard_index = s.shard_index))) * 86400000.0) AS INTEGER) END
            FROM (SELECT shard_index, coalesce(sum(size), 0) AS bytes, max(downloaded_at) AS last FROM results
                  WHERE run_id = ?1 AND state = ?2 GROUP BY shard_index) d
            LEFT JOIN shards s ON s.run_id = ?1 AND s.shard_index = d.shard_index
            """, key + [.state(ResultState.downloaded), .state(ShardState.downloaded)], table: "results") { row in
            let shard = try row.int()
            bytes += try row.integer()
            if let milliseconds = row.optionalInteger() { durations[shard] = .milliseconds(milliseconds) }
        }
        return (bytes, durations)
    }

    /// Every attempt of the run with its phase times and usage, by shard and attempt: the report's timeline.
    package func attemptTimes(of run: RunID) throws -> [AttemptTimes] {
        try requireRun(run, in: database())
        return try rows("""
            SELECT shard_index, attempt, outcome, started_at, signed_at, uploaded_at, completed_at, downloaded_at, failed_at,
                   error_code, error_message, retryable, bytes_usage, queue_duration, execution_duration
            FROM attempts WHERE run_id = ? ORDER BY shard_index, attempt
            """, [.text(run.rawValue)], table: "attempts") { row in
            AttemptTimes(shardIndex: try row.int(), number: try row.int(), outcome: try row.value(AttemptOutcome.self),
                         startedAt: try row.date(), signedAt: try row.optionalDate(), uploadedAt: try row.optionalDate(),
                         completedAt: try row.optionalDate(), downloadedAt: try row.optionalDate(), failedAt: try row.optionalDate(),
                         failure: row.failure(),
                         usage: AssemblyUsage(bytes: row.optionalInteger(), queueSeconds: row.optionalReal(), executionSeconds: row.optionalReal()))
        }
    }

    /// How many steps each shard tried again within its attempts (`shard.retrying` events), by shard; shards with none left out.
    package func stepRetries(of run: RunID) throws -> [Int: Int] {
        let counts = try rows("""
            SELECT shard_index, count(*) FROM events WHERE run_id = ? AND kind = ? AND shard_index IS NOT NULL GROUP BY shard_index
            """, [.text(run.rawValue), .state(LedgerEventKind.shardRetrying)], table: "events") { (try $0.int(), try $0.int()) }
        return Dictionary(counts, uniquingKeysWith: +)
    }

    package func usageBasis(job: ManifestJob, recipeFingerprint: String, runs: Int) throws -> UsageForecast.Basis? {
        let basis = try rows("""
            SELECT count(DISTINCT a.run_id), coalesce(sum(a.bytes_usage), 0), coalesce(sum(s.bytes), 0)
            FROM (SELECT id FROM runs WHERE job_key IN (\(Self.placeholders(job.keys.count))) AND recipe_fingerprint = ?
                  ORDER BY created_at DESC LIMIT ?) r
            JOIN attempts a ON a.run_id = r.id AND a.outcome = ? AND a.bytes_usage IS NOT NULL
            JOIN shards s ON s.run_id = a.run_id AND s.shard_index = a.shard_index
            """, job.keys.map(SQLiteValue.text) + [.text(recipeFingerprint), .integer(Int64(runs)), .state(AttemptOutcome.completed)],
            table: "attempts") { UsageForecast.Basis(runs: try $0.int(), usageBytes: try $0.integer(), inputBytes: try $0.integer()) }.first
        return basis.flatMap { $0.runs > 0 ? $0 : nil }
    }
}
