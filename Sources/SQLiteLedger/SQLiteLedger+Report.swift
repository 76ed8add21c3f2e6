package import AssemblyLine

/// A file of a run with where its current results went: a row of `report --format csv|json`.
package struct ReportedFile: Sendable, Hashable {
    package var record: FileRecord
    /// Each current result's download path, or its URL when it was not downloaded, in result order; a
    /// result of several inputs is each one's.
    package var outputs: [String]
    /// The sizes of those results, summed (a result's size as the service gave it; 0 when it gave none).
    package var outputBytes: Int64

    package init(record: FileRecord, outputs: [String], outputBytes: Int64 = 0) {
        self.record = record
        self.outputs = outputs
        self.outputBytes = outputBytes
    }
}

extension SQLiteLedger {
    /// A page of the run's files with their outputs, in file order: those of the shards in `shards`, or, for
    /// nil, those in no shard (known bad, and the skipped files ledgers before issue 22 kept rows of).
    ///
    /// A report of a million files reads them a page at a time, each page two statements bounded by
    /// `files_by_shard` and `results_by_shard`, and holds one page.
    package func reportedFiles(of run: RunID, shards: ClosedRange<Int>?) throws -> [ReportedFile] {
        var range: [SQLiteValue] = [.text(run.rawValue)]
        if let shards { range += [.integer(Int64(shards.lowerBound)), .integer(Int64(shards.upperBound))] }
        var files = try rows("""
            SELECT \(LedgerRowReader.fileColumns) FROM files
            WHERE run_id = ?1 AND \(shards == nil ? "shard_index IS NULL" : "shard_index BETWEEN ?2 AND ?3")
            ORDER BY shard_index, file_index
            """, range, table: "files") { ReportedFile(record: try $0.fileRecord(), outputs: []) }
        guard shards != nil, !files.isEmpty else { return files }
        let positions = Dictionary(uniqueKeysWithValues: files.enumerated().map { ($0.element.record.index, $0.offset) })
        try forEachRow("""
            SELECT r.source, r.file_index, coalesce(r.output_path, r.url, ''), coalesce(r.size, 0),
                   (SELECT group_concat(i.file_index) FROM result_inputs i WHERE i.result_id = r.id)
            \(Self.currentResultsOfShards(completed: "?4"))
            WHERE s.run_id = ?1 AND s.shard_index BETWEEN ?2 AND ?3 ORDER BY s.shard_index, r.id
            """, range + [.state(AttemptOutcome.completed)], table: "results") { row in
            let kind = try row.value(ResultSource.Kind.self)
            let own = row.optionalInt()
            let destination = row.optionalText() ?? ""
            let size = try row.integer()
            let inputs: [Int] = switch (kind, own) {
            case let (.file, index?): [index]
            case (.several, _): LedgerRowReader.inputs(listed: row.optionalText())
            default: []
            }
            for position in inputs.compactMap({ positions[$0] }) {
                files[position].outputs.append(destination)
                files[position].outputBytes += size
            }
        }
        return files
    }
}
