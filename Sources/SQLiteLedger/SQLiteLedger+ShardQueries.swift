package import AssemblyLine
import Foundation

/// The ledger's reads about shards and files: the plan, attempts, results, report pages and events.
extension SQLiteLedger {
    package func shards(of run: RunID) throws -> [ShardRecord] {
        try requireRun(run, in: database())
        return try rows("SELECT \(LedgerRowReader.shardColumns) FROM shards WHERE run_id = ? ORDER BY shard_index",
                        [.text(run.rawValue)], table: "shards") { try $0.shardRecord() }
    }

    package func files(of run: RunID, shard: Int?, state: FileState?) throws -> [FileRecord] {
        try requireRun(run, in: database())
        // One query text per filter, so that each uses its index.
        var sql = "SELECT \(LedgerRowReader.fileColumns) FROM files WHERE run_id = ?"
        var arguments: [SQLiteValue] = [.text(run.rawValue)]
        if let shard {
            sql += " AND shard_index = ?"
            arguments.append(.integer(Int64(shard)))
        }
        if let state {
            sql += " AND state = ?"
            arguments.append(.text(state.rawValue))
        }
        // By a state alone, the unary `+` keeps SQLite from walking every file of the run in file order (the primary key)
        // to skip those in other states: it searches the state's files and sorts them (0.16 s → 0 for none of a million).
        let order = shard == nil && state != nil ? "+file_index" : "file_index"
        return try rows(sql + " ORDER BY \(order)", arguments, table: "files") { try $0.fileRecord() }
    }

    package func attempts(of run: RunID, shard: Int) throws -> [AttemptRecord] {
        _ = try shardRow(run, shard, in: database())
        return try rows("""
            SELECT \(LedgerRowReader.attemptColumns) FROM attempts
            WHERE run_id = ? AND shard_index = ? ORDER BY attempt
            """, [.text(run.rawValue), .integer(Int64(shard))], table: "attempts") { try $0.attemptRecord() }
    }

    package func replays(of run: RunID) throws -> [AttemptRecord] {
        try rows("""
            SELECT \(LedgerRowReader.attemptColumns) FROM attempts
            WHERE run_id = ? AND parent_assembly_id IS NOT NULL ORDER BY shard_index, attempt
            """, [.text(run.rawValue)], table: "attempts") { try $0.attemptRecord() }
    }

    package func results(of run: RunID, shard: Int) throws -> [ResultRecord] {
        _ = try shardRow(run, shard, in: database())
        return try rows("""
            SELECT \(LedgerRowReader.resultColumns) FROM results r
            WHERE r.run_id = ? AND r.shard_index = ? ORDER BY r.id
            """, [.text(run.rawValue), .integer(Int64(shard))], table: "results") { try $0.resultRecord() }
    }

    package func currentResults(of run: RunID) throws -> [ResultRecord] {
        try requireRun(run, in: database())
        return try rows("""
            SELECT \(LedgerRowReader.resultColumns) \(Self.currentResultsOfShards(completed: "?2"))
            WHERE s.run_id = ?1 ORDER BY s.shard_index, r.id
            """, [.text(run.rawValue), .state(AttemptOutcome.completed)], table: "results") { try $0.resultRecord() }
    }

    /// The results of each shard's latest completed attempt (`s` the shards, `r` the results; `completed` the
    /// parameter bound to the outcome): the attempt found once a shard, not once a result (0.58 s → 0.17 s for 200,000 results).
    /// The unary `+` keeps SQLite from carrying a range of `s.shard_index` over to `r`, which it then searched
    /// by that range for each shard (a page of 40 shards: 27 ms → 3 ms).
    static func currentResultsOfShards(completed: String) -> String {
        """
        FROM shards s CROSS JOIN results r ON r.run_id = s.run_id AND r.shard_index = +s.shard_index AND r.attempt = (
            SELECT max(attempt) FROM attempts a WHERE a.run_id = s.run_id AND a.shard_index = s.shard_index AND a.outcome = \(completed))
        """
    }

    package func severalInputOutputs(of run: RunID) throws -> [(path: String, shard: Int)] {
        try rows("SELECT output_path, shard_index FROM results WHERE run_id = ? AND source = ? AND state = ?",
                 [.text(run.rawValue), .state(ResultSource.Kind.several), .state(ResultState.downloaded)], table: "results") { row in
            (path: try row.text(), shard: Int(try row.integer()))
        }
    }

    package func events(of run: RunID, shard: Int?) throws -> [EventRecord] {
        try requireRun(run, in: database())
        let columns = LedgerRowReader.eventColumns
        if let shard {
            return try rows("SELECT \(columns) FROM events WHERE run_id = ? AND shard_index = ? ORDER BY id",
                            [.text(run.rawValue), .integer(Int64(shard))], table: "events") { try $0.eventRecord() }
        }
        return try rows("SELECT \(columns) FROM events WHERE run_id = ? ORDER BY id",
                        [.text(run.rawValue)], table: "events") { try $0.eventRecord() }
    }

    /// The shard's state and attempt count; throws `runNotFound` or `shardNotFound`.
    func shardRow(_ run: RunID, _ shard: Int, in database: SQLiteConnection) throws -> (state: ShardState, attempts: Int) {
        let found = try rows("SELECT state, attempt_count FROM shards WHERE run_id = ? AND shard_index = ?",
                             [.text(run.rawValue), .integer(Int64(shard))], table: "shards") {
            (try $0.value(ShardState.self), try $0.int())
        }
        guard let row = found.first else {
            try requireRun(run, in: database)
            throw LedgerError.shardNotFound(run, shard: shard)
        }
        return (row.0, row.1)
    }

    /// A page of the run's files with their outputs, in file order: those of the shards in `shards`, or, for
    /// nil, those in no shard (known bad, and the skipped files ledgers before issue 22 kept rows of).
    ///
    /// A report of a million files reads them a page at a time, each page two statements bounded by
    /// `files_by_shard` and `results_by_shard`, and holds one page; only a result of several files looks up its inputs.
    /// The texts are copied from SQLite's row into the page's one buffer: no string is made for a file or output.
    package func reportedFiles(of run: RunID, shards: ClosedRange<Int>?) throws -> ReportedFilePage {
        var range: [SQLiteValue] = [.text(run.rawValue)]
        if let shards { range += [.integer(Int64(shards.lowerBound)), .integer(Int64(shards.upperBound))] }
        var page = ReportedFilePage()
        try forEachRow("""
            SELECT \(LedgerRowReader.fileColumns) FROM files
            WHERE run_id = ?1 AND \(shards == nil ? "shard_index IS NULL" : "shard_index BETWEEN ?2 AND ?3")
            ORDER BY shard_index, file_index
            """, range, table: "files") { try $0.appendFile(to: &page) }
        guard shards != nil, !page.isEmpty else { return page }
        try forEachRow("""
            SELECT r.source, r.file_index, coalesce(r.output_path, r.url, ''), coalesce(r.size, 0),
                   CASE WHEN r.source = ?5 THEN (SELECT group_concat(i.file_index) FROM result_inputs i WHERE i.result_id = r.id) END
            \(Self.currentResultsOfShards(completed: "?4"))
            WHERE s.run_id = ?1 AND s.shard_index BETWEEN ?2 AND ?3 ORDER BY s.shard_index, r.id
            """, range + [.state(AttemptOutcome.completed), .state(ResultSource.Kind.several)], table: "results") { row in
            let kind = try row.value(ResultSource.Kind.self)
            let own = row.optionalInt()
            let destination = try row.bytes()
            let size = try row.integer()
            func add(_ input: Int) {
                guard let position = page.position(ofFile: input) else { return }
                page.appendOutput(destination, size: size, toRow: position)
            }
            switch (kind, own) {
            case let (.file, index?): add(index)
            case (.several, _): LedgerRowReader.inputs(listed: row.optionalText()).forEach(add)
            default: break
            }
        }
        return page
    }
}
