package import AssemblyLine
package import Foundation

extension SQLiteLedger {
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

    package func usageBasis(manifestPath: String, recipeFingerprint: String, runs: Int) throws -> UsageForecast.Basis? {
        let basis = try rows("""
            SELECT count(DISTINCT a.run_id), coalesce(sum(a.bytes_usage), 0), coalesce(sum(s.bytes), 0)
            FROM (SELECT id FROM runs WHERE manifest_path = ? AND recipe_fingerprint = ? ORDER BY created_at DESC LIMIT ?) r
            JOIN attempts a ON a.run_id = r.id AND a.outcome = ? AND a.bytes_usage IS NOT NULL
            JOIN shards s ON s.run_id = a.run_id AND s.shard_index = a.shard_index
            """, [.text(manifestPath), .text(recipeFingerprint), .integer(Int64(runs)), .state(AttemptOutcome.completed)],
            table: "attempts") { UsageForecast.Basis(runs: try $0.int(), usageBytes: try $0.integer(), inputBytes: try $0.integer()) }.first
        return basis.flatMap { $0.runs > 0 ? $0 : nil }
    }
}
