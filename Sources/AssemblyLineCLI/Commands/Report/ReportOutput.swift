import AssemblyLine

/// How `report` writes: the format, `--output`, and whether only the failed files or the results are listed.
struct ReportOutput: Sendable {
    /// The report's output forms.
    enum Format: String, CaseIterable, Sendable {
        case table, json, csv
        /// One self-contained page for a browser (``HTMLReport``).
        case html
        /// With `--failed`: the failed files' relative paths, a line each (`paths`) or NUL-terminated (`paths0`), for `run --files-from`.
        case paths, paths0
    }

    var format: Format
    var failedOnly: Bool
    var listsResults: Bool
    /// `--shards`: the table lists every shard, not only those that failed or are unfinished.
    var listsShards: Bool
    /// `--output`: the file the report goes to, instead of standard output.
    var file: String?

    init(_ values: ParsedValues) throws {
        format = try values.choice("format", as: Format.self) ?? .table
        failedOnly = values.flag("failed")
        listsResults = values.flag("results")
        listsShards = values.flag("shards")
        file = values.option("output")
    }

    func validate() throws {
        if failedOnly && listsResults { throw UsageError("--failed and --results are different reports; choose one") }
        if [.paths, .paths0].contains(format), !failedOnly { throw UsageError("--format \(format) lists the failed files: add --failed") }
        if format == .html, failedOnly || listsResults { throw UsageError("--format html is the whole report; --failed and --results are other reports") }
        if listsShards, format != .table || failedOnly || listsResults { throw UsageError("--shards lists every shard in the table: drop --format, --failed and --results") }
    }

    /// Refuses `--failed`, `--results` and `--shards` for a report that is not of one run (`what` says what it is instead).
    func requireWholeReport(_ what: String) throws {
        if failedOnly || listsResults || listsShards { throw UsageError("\(what); --failed, --results and --shards are per run") }
    }

    /// The files a run's report holds apart from those CSV and JSON read page by page (``FilePages``): a table lists
    /// the failed, known bad and resultless files alone (`--results`: every file); `--failed` the failed and known bad
    /// files; JSON the failed files (its `failures`), CSV none.
    var selection: RunReport.FileSelection {
        switch (format, failedOnly, listsResults) {
        case (_, _, true): .all
        case (_, true, _): .only([.failed, .knownBad])
        case (.table, _, _), (.html, _, _), (.paths, _, _), (.paths0, _, _): .only([.failed, .knownBad, .noResult])
        case (.json, _, _): .only([.failed])
        case (.csv, _, _): .none
        }
    }

    /// Whether the run's current results are read: `--results`, and the outputs of `--failed` as CSV or JSON.
    var needsResults: Bool { listsResults || (failedOnly && [.json, .csv].contains(format)) }

    /// Whether the run's figures (what it moved, its retries and replays) are read: not for CSV, which lists files or results alone.
    var needsFigures: Bool { format != .csv }

    /// Writes the report `body` gives its writer, piece by piece: to `--output` (whole: a reader never sees half, and
    /// a report that fails leaves the file as it was), else to standard output.
    func emit(_ console: Console, _ body: (_ write: @escaping (String) -> Void) async throws -> Void) async throws {
        guard let file else { return try await body(console.out) }
        do {
            try await WholeFileWriter.write(to: file, body)
        } catch let failure as WholeFileWriter.Failure {
            throw CommandError.unwritableOutput(path: file, reason: failure.reason)
        }
    }
}
