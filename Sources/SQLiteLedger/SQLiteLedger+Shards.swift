package import AssemblyLine
package import Foundation

extension SQLiteLedger {
    @discardableResult
    package func recordAttempt(_ run: RunID, shard: Int, assemblyID: AssemblyID, replaying parent: AssemblyID?, at time: Date) throws
        -> AttemptRecord {
        try write { database in
            let row = try shardRow(run, shard, in: database)
            guard row.state == .planned else {
                throw LedgerError.attemptNotAllowed(run, shard: shard, state: row.state)
            }
            let key: [SQLiteValue] = [.text(run.rawValue), .integer(Int64(shard))]
            try supersedeOpenAttempt(key, in: database)
            let number = row.attempts + 1
            try database.execute("""
                INSERT INTO attempts (run_id, shard_index, attempt, assembly_id, outcome, started_at, parent_assembly_id)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, key + [.integer(Int64(number)), .text(assemblyID.rawValue), .state(AttemptOutcome.open), .text(Self.text(time)),
                            .text(parent?.rawValue)])
            try database.execute("UPDATE shards SET attempt_count = ? WHERE run_id = ? AND shard_index = ?",
                                 [.integer(Int64(number))] + key)
            try insertEvent(run, shard: shard, kind: .attemptStarted,
                            message: "attempt \(number), Assembly \(assemblyID)" + (parent.map { ", replaying \($0)" } ?? ""),
                            at: time, in: database)
            return AttemptRecord(shardIndex: shard, number: number, assemblyID: assemblyID, outcome: .open,
                                 startedAt: time, assemblyURL: nil, tusURL: nil, createdAt: nil, completedAt: nil,
                                 failure: nil, parentAssemblyID: parent)
        }
    }

    package func transition(_ run: RunID, shard: Int, _ transition: ShardTransition, at time: Date) throws {
        try write { database in
            let current = try shardRow(run, shard, in: database).state
            let target = transition.target
            let reopening = if case .reopened = transition { true } else { false }
            guard current.canTransition(to: target), reopening == (current == .failed && target != .planned) else {
                throw LedgerError.illegalShardTransition(run, shard: shard, from: current, to: target)
            }
            let key: [SQLiteValue] = [.text(run.rawValue), .integer(Int64(shard))]
            let now = Self.text(time)
            var failure: FailureReason?
            switch transition {
            case .executing:
                break
            case .signed, .uploaded:
                let attempt = try openAttempt(run, shard, for: target, in: database)
                let column = target == .signed ? "signed_at" : "uploaded_at"
                try database.execute("UPDATE attempts SET \(column) = ? WHERE run_id = ? AND shard_index = ? AND attempt = ?",
                                     [.text(now)] + key + [.integer(Int64(attempt))])
            case let .created(assemblyURL, tusURL, bytesSent, replayID):
                let attempt = try openAttempt(run, shard, for: target, in: database)
                try database.execute("""
                    UPDATE attempts SET assembly_url = ?, tus_url = ?, created_at = ?, bytes_sent = ?, assembly_id = coalesce(?, assembly_id)
                    WHERE run_id = ? AND shard_index = ? AND attempt = ?
                    """, [.text(assemblyURL), .text(tusURL), .text(now), .integer(bytesSent), .text(replayID?.rawValue)]
                        + key + [.integer(Int64(attempt))])
            case let .completed(results, usage):
                let attempt = try openAttempt(run, shard, for: target, in: database)
                try insertResults(results, run: run, shard: shard, attempt: attempt, in: database)
                try database.execute("""
                    UPDATE attempts SET outcome = ?, completed_at = ?, bytes_usage = ?, queue_duration = ?, execution_duration = ?
                    WHERE run_id = ? AND shard_index = ? AND attempt = ?
                    """, [.state(AttemptOutcome.completed), .text(now), .integer(usage.bytes), .real(usage.queueSeconds),
                          .real(usage.executionSeconds)] + key + [.integer(Int64(attempt))])
            case let .downloaded(done, noResult):
                try requireDownloads(run, shard, in: database)
                try database.execute("""
                    UPDATE attempts SET downloaded_at = ?3 WHERE run_id = ?1 AND shard_index = ?2
                    AND attempt = (SELECT max(attempt) FROM attempts WHERE run_id = ?1 AND shard_index = ?2 AND outcome = ?4)
                    """, key + [.text(now), .state(AttemptOutcome.completed)])
                try endPendingFiles(run, shard, done: done, noResult: noResult, refusing: current, in: database)
                try recordDoneFiles(ofShard: key, in: database)
                try forgetBadFiles(doneInShard: key, in: database)
            case let .failed(reason, executing):
                failure = reason
                let error = Self.values(reason)
                try database.execute("""
                    UPDATE attempts SET outcome = ?, error_code = ?, error_message = ?, retryable = ?, failed_at = ?, failed_executing = ?
                    WHERE run_id = ? AND shard_index = ? AND outcome = ?
                    """, [.state(AttemptOutcome.failed)] + error + [.text(now), .integer(executing ? 1 : 0)] + key
                        + [.state(AttemptOutcome.open)])
                try database.execute("""
                    UPDATE files SET state = ?, error_code = ?, error_message = ?, retryable = ?
                    WHERE run_id = ? AND shard_index = ? AND state = ?
                    """, [.state(FileState.failed)] + error + key + [.state(FileState.pending)])
            case .reopened:
                try reopenLastAttempt(run, shard, at: target, in: database)
            case .restarted:
                try supersedeOpenAttempt(key, in: database)
                if current == .failed {
                    try database.execute("""
                        UPDATE files SET state = ?3, error_code = NULL, error_message = NULL, retryable = NULL
                        WHERE run_id = ?1 AND shard_index = ?2 AND state = ?4
                        """, key + [.state(FileState.pending), .state(FileState.failed)])
                }
            }
            try database.execute("""
                UPDATE shards SET state = ?, updated_at = ?, error_code = ?, error_message = ?, retryable = ?
                WHERE run_id = ? AND shard_index = ?
                """, [.state(target), .text(now)] + Self.values(failure) + key)
            let detail = failure.map { ": \($0)" } ?? ""
            try insertEvent(run, shard: shard, kind: .shardState, message: "\(current) → \(target)\(detail)",
                            at: time, in: database)
        }
    }

    package func recordDownloads(_ run: RunID, results: [Int64], at time: Date) throws {
        try write { database in
            let update = try database.cachedStatement("""
                UPDATE results SET state = ?2, downloaded_at = coalesce(downloaded_at, ?3)
                WHERE id = ?1 AND run_id = ?4
                """)
            try update.bind([.null, .state(ResultState.downloaded), .text(Self.text(time)), .text(run.rawValue)])
            try eachResult(results, of: run, by: update, in: database)
        }
    }

    package func recordStatusURL(_ run: RunID, shard: Int, url: String, at time: Date) throws {
        try write { database in
            let row = try shardRow(run, shard, in: database)
            try database.execute("""
                UPDATE attempts SET assembly_url = ? WHERE run_id = ? AND shard_index = ? AND outcome = ?
                """, [.text(url), .text(run.rawValue), .integer(Int64(shard)), .state(AttemptOutcome.open)])
            guard database.changes == 1 else { throw LedgerError.noOpenAttempt(run, shard: shard, transition: row.state) }
            try insertEvent(run, shard: shard, kind: .attemptMoved, message: "the Assembly is now at \(url)", at: time, in: database)
        }
    }

    package func recordFetches(_ run: RunID, results: [Int64]) throws {
        try write { database in
            let update = try database.cachedStatement("UPDATE results SET fetches = fetches + 1 WHERE id = ?1 AND run_id = ?2")
            try update.bind([.null, .text(run.rawValue)])
            try eachResult(results, of: run, by: update, in: database)
        }
    }

    /// Steps `update`, whose parameter 1 is a result's ID, once for each of `results`; a result that is not the run's
    /// throws `LedgerError.resultNotFound` (`LedgerError.runNotFound` for a run that is not there).
    private func eachResult(_ results: [Int64], of run: RunID, by update: Statement, in database: SQLiteConnection) throws {
        for result in results {
            try update.bind(.integer(result), at: 1)
            try update.step()
            update.reset()
            guard database.changes == 1 else {
                try requireRun(run, in: database)
                throw LedgerError.resultNotFound(run, result: result)
            }
        }
    }

    package func failFiles(_ run: RunID, files: [Int], reason: FailureReason, knownBad: Bool, at time: Date) throws {
        try write { database in
            let update = try database.cachedStatement("""
                UPDATE files SET state = ?, error_code = ?, error_message = ?, retryable = ?
                WHERE run_id = ? AND file_index = ? AND shard_index IS NOT NULL
                """)
            try update.bind([.state(FileState.failed)] + Self.values(reason) + [.text(run.rawValue)])
            let entry = knownBad ? try badFileEntry(in: database) : nil
            try entry?.bind([.text(run.rawValue), .integer(0), .state(FileState.failed)])
            for file in files {
                try update.bind(.integer(Int64(file)), at: 6)
                try update.step()
                update.reset()
                guard database.changes == 1 else {
                    try requireRun(run, in: database)
                    throw LedgerError.fileNotFound(run, file: file)
                }
                if let entry {
                    try entry.bind(.integer(Int64(file)), at: 2)
                    try entry.step()
                    entry.reset()
                }
            }
            try insertEvent(run, shard: nil, kind: .filesFailed, message: "\(files.count) file(s): \(reason)",
                            at: time, in: database)
        }
    }

    // MARK: - Helpers

    /// The number of the shard's open attempt; throws `noOpenAttempt` when there is none.
    private func openAttempt(_ run: RunID, _ shard: Int, for target: ShardState,
                             in database: SQLiteConnection) throws -> Int {
        let number = try database.firstRow("""
            SELECT attempt FROM attempts WHERE run_id = ? AND shard_index = ? AND outcome = ?
            """, [.text(run.rawValue), .integer(Int64(shard)), .state(AttemptOutcome.open)]) { $0.integer(0) } ?? nil
        guard let number else { throw LedgerError.noOpenAttempt(run, shard: shard, transition: target) }
        return Int(number)
    }

    /// Marks the shard's open attempt, if any, as replaced by a newer one.
    private func supersedeOpenAttempt(_ key: [SQLiteValue], in database: SQLiteConnection) throws {
        try database.execute("""
            UPDATE attempts SET outcome = ?3 WHERE run_id = ?1 AND shard_index = ?2 AND outcome = ?4
            """, key + [.state(AttemptOutcome.superseded), .state(AttemptOutcome.open)])
    }

    /// Takes a failed shard back to its last attempt, where ``AttemptRecord/reopenTarget`` allows it: open
    /// again to poll it, or completed to download its results.
    private func reopenLastAttempt(_ run: RunID, _ shard: Int, at target: ShardState, in database: SQLiteConnection) throws {
        let key: [SQLiteValue] = [.text(run.rawValue), .integer(Int64(shard))]
        let last = try rows("""
            SELECT \(LedgerRowReader.attemptColumns) FROM attempts
            WHERE run_id = ? AND shard_index = ? ORDER BY attempt DESC LIMIT 1
            """, key, table: "attempts") { try $0.attemptRecord() }.first
        guard let last, last.reopenTarget == target else {
            throw LedgerError.illegalShardTransition(run, shard: shard, from: .failed, to: target)
        }
        if target == .executing {
            try database.execute("""
                UPDATE attempts SET outcome = ?, error_code = NULL, error_message = NULL, retryable = NULL, failed_at = NULL
                WHERE run_id = ? AND shard_index = ? AND attempt = ?
                """, [.state(AttemptOutcome.open)] + key + [.integer(Int64(last.number))])
        }
        try database.execute("""
            UPDATE files SET state = ?3, error_code = NULL, error_message = NULL, retryable = NULL
            WHERE run_id = ?1 AND shard_index = ?2 AND state = ?4 AND EXISTS (
                SELECT 1 FROM shards s WHERE s.run_id = ?1 AND s.shard_index = ?2
                AND s.error_code IS files.error_code AND s.error_message IS files.error_message)
            """, key + [.state(FileState.pending), .state(FileState.failed)])
    }

    /// Inserts an Assembly's results, checking that each names an input of this shard.
    private func insertResults(_ results: [NewResult], run: RunID, shard: Int, attempt: Int,
                               in database: SQLiteConnection) throws {
        let owner = try database.cachedStatement("SELECT shard_index FROM files WHERE run_id = ? AND file_index = ?")
        let insert = try database.cachedStatement("""
            INSERT INTO results (run_id, shard_index, attempt, file_index, step, remote_id, name, url, size, md5, mime,
                                 width, height, temporary, output_path, state, source)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        let input = try database.cachedStatement("INSERT INTO result_inputs (result_id, run_id, file_index) VALUES (?, ?, ?)")
        for result in results {
            for file in result.source.inputs {
                let found = try owner.firstRow([.text(run.rawValue), .integer(Int64(file))]) { $0.integer(0) }
                guard let found else { throw LedgerError.fileNotFound(run, file: file) }
                guard found == Int64(shard) else { throw LedgerError.fileNotInShard(run, file: file, shard: shard) }
            }
            try insert.execute([.text(run.rawValue), .integer(Int64(shard)), .integer(Int64(attempt)),
                                .integer(result.fileIndex), .text(result.step), .text(result.remoteID),
                                .text(result.name), .text(result.url), .integer(result.size), .text(result.md5),
                                .text(result.mime), .integer(result.width), .integer(result.height),
                                .bool(result.isTemporary), .text(result.outputPath), .state(ResultState(result.delivery)),
                                .state(result.source.kind)])
            guard case let .several(indices) = result.source else { continue }
            let id = database.lastInsertedRowID
            for file in indices {
                try input.execute([.integer(id), .text(run.rawValue), .integer(Int64(file))])
            }
        }
    }

    /// Writes the machine's verdict on the shard's pending files, and refuses one the ledger contradicts
    /// (`illegalShardTransition`): a file named done needs a result of the latest completed attempt that counts
    /// for it (its own, or one of several inputs that names it), downloaded or exported; a file named `no_result`
    /// needs none; each must be a pending file of the shard, and none may be left pending.
    private func endPendingFiles(_ run: RunID, _ shard: Int, done: [Int], noResult: [Int], refusing current: ShardState,
                                 in database: SQLiteConnection) throws {
        let key: [SQLiteValue] = [.text(run.rawValue), .integer(Int64(shard))]
        // The files a result of the latest completed attempt stands for, downloaded or exported: its own, and those a
        // result of several inputs names; read once for the shard, then each file of the verdict is checked against it.
        var standing = Set<Int>()
        try database.cachedStatement("""
            WITH counted AS (
                SELECT id, file_index FROM results
                WHERE run_id = ?1 AND shard_index = ?2 AND state IN (?3, ?4)
                    AND attempt = (SELECT max(attempt) FROM attempts WHERE run_id = ?1 AND shard_index = ?2 AND outcome = ?5))
            SELECT file_index FROM counted WHERE file_index IS NOT NULL
            UNION
            SELECT i.file_index FROM counted CROSS JOIN result_inputs i ON i.result_id = counted.id
            """).forEachRow(key + [.state(ResultState.downloaded), .state(ResultState.exported), .state(AttemptOutcome.completed)]) { row in
            if let file = row.integer(0) { standing.insert(Int(file)) }
        }
        let refused = LedgerError.illegalShardTransition(run, shard: shard, from: current, to: .downloaded)
        guard done.allSatisfy(standing.contains), !noResult.contains(where: standing.contains) else { throw refused }
        let update = try database.cachedStatement(
            "UPDATE files SET state = ?4 WHERE run_id = ?1 AND shard_index = ?2 AND file_index = ?3 AND state = ?5")
        for (files, state) in [(done, FileState.done), (noResult, FileState.noResult)] {
            for file in files {
                try update.execute(key + [.integer(Int64(file)), .state(state), .state(FileState.pending)])
                guard database.changes == 1 else { throw refused }
            }
        }
        let left = try database.firstRow("SELECT count(*) FROM files WHERE run_id = ? AND shard_index = ? AND state = ?",
                                         key + [.state(FileState.pending)]) { $0.integer(0) } ?? nil
        guard left == 0 else { throw refused }
    }

    /// Throws `resultsPending` while results of the shard's latest completed attempt are not downloaded,
    /// but for those whose files failed alone (a result of several inputs: any of them).
    private func requireDownloads(_ run: RunID, _ shard: Int, in database: SQLiteConnection) throws {
        let pending = try database.firstRow("""
            SELECT count(*) FROM results
            WHERE run_id = ?1 AND shard_index = ?2 AND state = ?3 AND attempt = (
                SELECT max(attempt) FROM attempts WHERE run_id = ?1 AND shard_index = ?2 AND outcome = ?4)
            AND NOT EXISTS (SELECT 1 FROM files f WHERE f.run_id = ?1 AND f.file_index = results.file_index AND f.state = ?5)
            AND NOT EXISTS (SELECT 1 FROM result_inputs i CROSS JOIN files f ON f.run_id = i.run_id AND f.file_index = i.file_index
                            WHERE i.result_id = results.id AND f.state = ?5)
            """, [.text(run.rawValue), .integer(Int64(shard)), .state(ResultState.pending), .state(AttemptOutcome.completed),
                  .state(FileState.failed)]) { $0.integer(0) } ?? nil
        if let pending, pending > 0 {
            throw LedgerError.resultsPending(run, shard: shard, count: Int(pending))
        }
    }

    /// The values of the columns `error_code, error_message, retryable`.
    static func values(_ reason: FailureReason?) -> [SQLiteValue] {
        [.text(reason?.code.rawValue), .text(reason?.message), .bool(reason?.isRetryable)]
    }
}
