import ConfigFormat

/// One run's report as the ledger holds it: the run, its shards, the files a report lists, what it moved, and where outputs went.
///
/// A read model: the CLI renders it as a table, JSON, CSV, paths or a page. The files it holds are those
/// its ``FileSelection`` asked for; a report of every file reads them a page at a time instead (``FilePages``).
package struct RunReport: Sendable {
    /// Which of the run's files a report holds beside its figures.
    package enum FileSelection: Sendable, Hashable {
        /// None: the figures alone (CSV and JSON read the files page by page).
        case none
        /// The files in these states.
        case only([FileState])
        /// Every file.
        case all
    }

    package var summary: RunSummary
    package var shards: [ShardRecord]
    package var files: [FileRecord]
    package var statistics: RunStatistics
    /// Each shard's current results: where each file's outputs went; empty unless asked for.
    package var results: [ResultRecord] = []
    /// The attempts that replayed a failed Assembly instead of uploading their files again.
    package var replays: [AttemptRecord] = []

    package init(summary: RunSummary, shards: [ShardRecord], files: [FileRecord], statistics: RunStatistics, results: [ResultRecord] = [],
                 replays: [AttemptRecord] = []) {
        self.summary = summary
        self.shards = shards
        self.files = files
        self.statistics = statistics
        self.results = results
        self.replays = replays
    }

    /// Reads the report of `run` from `ledger` (of `stateDirectory`), with the files `files` selects and, with `results`,
    /// the current results; a run whose process is gone reads `interrupted` (``RunRecord/seen(in:)``). Without `figures`
    /// (a report that lists files alone) the statistics are zero and the replays empty, unread: they take a pass over
    /// every result (0.5 s at a million files).
    ///
    /// - Throws: ``LedgerError/runNotFound(_:)``.
    package static func read(_ run: RunID, from ledger: any LedgerQueries, in stateDirectory: String, files selection: FileSelection,
                             results: Bool = false, figures: Bool = true) async throws -> RunReport {
        var files: [FileRecord] = []
        switch selection {
        case .none: break
        case .only(let states):
            for state in states { files += try await ledger.files(of: run, shard: nil, state: state) }
        case .all: files = try await ledger.files(of: run, shard: nil, state: nil)
        }
        var summary = try await ledger.run(run)
        summary.record = summary.record.seen(in: stateDirectory)
        let statistics = figures ? try await ledger.statistics(of: run)
            : RunStatistics(assembliesCreated: 0, retries: 0, bytesSent: 0, bytesReceived: 0, shardDurations: [:])
        return RunReport(summary: summary, shards: try await ledger.shards(of: run), files: files,
                         statistics: statistics, results: results ? try await ledger.currentResults(of: run) : [],
                         replays: figures ? try await ledger.replays(of: run) : [])
    }

    package var run: RunRecord { summary.record }

    /// From the run's start to its end (or its last change, while it is unfinished).
    package var elapsed: Duration { RunRecord.elapsed(of: [summary.record]) }

    /// `amount` per second over the elapsed time, 0 when no time passed.
    package func rate(_ amount: Double) -> Double {
        let seconds = elapsed.timeInterval
        return seconds > 0 ? amount / seconds : 0
    }

    /// The held files in `state`.
    package func files(_ state: FileState) -> [FileRecord] {
        files.filter { $0.state == state }
    }

    /// Failed files grouped by error code, codes in order.
    package var failuresByCode: [(code: String, files: [FileRecord])] {
        Dictionary(grouping: files(.failed)) { $0.failure?.code.rawValue ?? "UNKNOWN" }
            .sorted { $0.key < $1.key }
            .map { (code: $0.key, files: $0.value) }
    }

    /// The held files with where their results went: the paths of their downloads, or the URLs of results not
    /// downloaded; a result of several inputs is each one's. Made in one pass over the results.
    package var filesWithOutputs: [ReportedFile] {
        var outputs: [Int: [String]] = [:]
        for record in results {
            for file in record.result.source.inputs { outputs[file, default: []].append(record.destination) }
        }
        return files.map { ReportedFile(record: $0, outputs: outputs[$0.index] ?? []) }
    }

    /// The relative path of each held file, by index: what a result's input is named by.
    package var inputPaths: [Int: String] {
        Dictionary(files.map { ($0.index, $0.file.relativePath) }, uniquingKeysWith: { first, _ in first })
    }
}
