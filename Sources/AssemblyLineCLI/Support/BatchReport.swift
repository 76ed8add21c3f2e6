import AssemblyLine
import ConfigFormat
import Foundation
import SQLiteLedger

/// A batch's report merged from its partitions' ledgers: each part's newest run of the batch, the
/// totals over them, and the parts that are missing or unfinished.
struct BatchReport {
    /// One partition's run of the batch, with the ledger and state directory that hold it.
    struct Part {
        var ledger: SQLiteLedger
        var stateDirectory: String
        var report: RunReport
        var run: RunRecord { report.summary.record }
        /// Its files with their outputs, page by page.
        var pages: FilePages { .everyFile(ledger, run.id, shards: report.shards) }
    }

    var batch: BatchID
    /// By partition index.
    var parts: [Part]

    /// The number of partitions the runs say the batch was split into (the largest, should they differ).
    var count: Int { parts.map(\.run.partition.count).max() ?? 0 }

    /// The partitions with no run of the batch in the ledgers read.
    var missing: [Int] {
        let found = Set(parts.map(\.run.partition.index))
        return (0..<count).filter { !found.contains($0) }
    }

    /// The partitions whose run is not finished.
    var unfinished: [Part] { parts.filter { $0.run.state != .finished } }

    var filesByState: [FileState: Int] { total(\.summary.filesByState) }
    var shardsByState: [ShardState: Int] { total(\.summary.shardsByState) }

    private func total<State: Hashable>(_ counts: KeyPath<RunReport, [State: Int]>) -> [State: Int] {
        parts.reduce(into: [:]) { sums, part in
            for (state, count) in part.report[keyPath: counts] { sums[state, default: 0] += count }
        }
    }

    private func sum(_ figure: (RunReport) -> Int64) -> Int64 {
        parts.reduce(0) { $0 + figure($1.report) }
    }

    /// Reads, for each partition, the newest run of `batch` in `ledgers` (``newestRuns(of:manifestPath:in:)``), with
    /// the files and results the format shows, as `read` gives them.
    static func read(_ batch: BatchID, from ledgers: [(ledger: SQLiteLedger, stateDirectory: String)],
                     _ read: (SQLiteLedger, RunID) async throws -> RunReport) async throws -> BatchReport {
        var parts: [Part] = []
        for found in try await newestRuns(of: batch, in: ledgers) {
            parts.append(Part(ledger: found.ledger, stateDirectory: found.stateDirectory, report: try await read(found.ledger, found.run.id)))
        }
        return BatchReport(batch: batch, parts: parts)
    }

    /// The newest run of `batch` (of the manifest at `manifestPath`, when given) for each partition, by partition
    /// index: what `report --batch` and `check --batch` read.
    ///
    /// - Throws: ``CommandError/invalidBatch(_:)`` when no ledger holds a run of the batch, when a partition has
    ///   runs in two ledgers, or when the runs were split in different ways.
    static func newestRuns(of batch: BatchID, manifestPath: String? = nil, in ledgers: [(ledger: SQLiteLedger, stateDirectory: String)])
        async throws -> [(ledger: SQLiteLedger, stateDirectory: String, run: RunRecord)] {
        var found: [Int: (ledger: SQLiteLedger, stateDirectory: String, run: RunRecord)] = [:]
        for (ledger, directory) in ledgers {
            for run in try await ledger.recentRuns(limit: 1_000, matching: RunFilter(manifestPath: manifestPath, batch: batch)) {
                if let other = found[run.partition.index] {
                    guard other.stateDirectory == directory else {
                        throw CommandError.invalidBatch("partition \(run.partition) of batch \(batch) has runs in two ledgers: "
                            + "\(other.stateDirectory) and \(directory)")
                    }
                    continue
                }
                found[run.partition.index] = (ledger, directory, run)
            }
        }
        let counts = Set(found.values.map(\.run.partition.count))
        guard counts.count <= 1 else {
            throw CommandError.invalidBatch("the runs of batch \(batch) were split in different ways: into "
                + counts.sorted().map(String.init).joined(separator: ", ") + " parts")
        }
        guard !found.isEmpty else {
            throw CommandError.invalidBatch("no run of batch \(batch) in the \(CountText.of(ledgers.count, "ledger")) read")
        }
        return found.sorted { $0.key < $1.key }.map(\.value)
    }

    var table: String {
        let finished = parts.count - unfinished.count
        var lines = ["batch     \(batch): \(CountText.of(count, "partition")), \(finished) finished"
                        + (unfinished.isEmpty ? "" : ", \(unfinished.count) unfinished")
                        + (missing.isEmpty ? "" : ", \(missing.count) missing (\(missing.map(String.init).joined(separator: ", ")))"),
                     "files     \(filesByState.values.reduce(0, +)): " + RunReport.counts(FileState.allCases.map { (RunText.label($0), filesByState[$0] ?? 0) }),
                     "shards    \(shardsByState.values.reduce(0, +)): " + RunReport.counts(ShardState.allCases.map { ($0.rawValue, shardsByState[$0] ?? 0) }),
                     "bytes     \(ByteCountText.format(sum { $0.summary.record.bytes })) planned, \(ByteCountText.format(sum { $0.statistics.bytesSent })) up, "
                        + "\(ByteCountText.format(sum { $0.statistics.bytesReceived })) down",
                     "work      \(sum { Int64($0.statistics.assembliesCreated) }) Assemblies created, \(sum { Int64($0.statistics.retries) }) retries",
                     ""]
        let rows = parts.map { part in
            [part.run.partition.description, part.run.state.rawValue, part.run.id.rawValue, String(part.report.summary.filesByState.values.reduce(0, +)),
             String(part.report.summary.filesByState[.done] ?? 0), String(part.report.summary.filesByState[.failed] ?? 0),
             String(part.report.summary.filesByState[.skipped] ?? 0), part.stateDirectory]
        }
        var text = lines.joined(separator: "\n") + "\n"
        text += TextTable.render(header: ["PART", "STATE", "RUN", "FILES", "DONE", "FAILED", "SKIPPED", "STATE DIR"], rows: rows,
                                 rightAligned: [3, 4, 5, 6])
        lines = []
        for part in parts {
            for (code, failed) in part.report.failuresByCode {
                lines += failed.map { "  \(code) \($0.file.relativePath): \($0.failure?.message ?? "") (partition \(part.run.partition))" }
            }
        }
        if !lines.isEmpty { text += "\nfailures\n" + lines.joined(separator: "\n") + "\n" }
        return text
    }

    /// `--format json`: the batch's totals, each part's run, and every file with its partition, written as each is read.
    func writeJSON(to write: @escaping (String) -> Void) async throws {
        let figures: [String: JSONValue] = [
            "batch": .string(batch.rawValue), "partitions": .integer(Int64(count)),
            "missing": .array(missing.map { .integer(Int64($0)) }),
            "unfinished": .array(unfinished.map { .string($0.run.partition.description) }),
            "files_by_state": .object(Dictionary(uniqueKeysWithValues: filesByState.map { ($0.key.rawValue, .integer(Int64($0.value))) })),
            "shards_by_state": .object(Dictionary(uniqueKeysWithValues: shardsByState.map { ($0.key.rawValue, .integer(Int64($0.value))) })),
            "bytes": .integer(sum { $0.summary.record.bytes }), "bytes_sent": .integer(sum { $0.statistics.bytesSent }),
            "bytes_received": .integer(sum { $0.statistics.bytesReceived }),
            "assemblies_created": .integer(sum { Int64($0.statistics.assembliesCreated) }), "retries": .integer(sum { Int64($0.statistics.retries) }),
            "runs": .array(parts.map { part in
                var run = RunText.json(part.run).objectValue ?? [:]
                run["state_dir"] = .string(part.stateDirectory)
                return .object(run)
            }),
        ]
        try await JSONValue.writeObject(figures, streaming: "files", to: write) { emit in
            for part in parts {
                try await part.pages.forEach { page in
                    for file in page {
                        var object = RunReport.fileJSON(file).objectValue ?? [:]
                        object["partition"] = .string(part.run.partition.description)
                        emit(.object(object))
                    }
                }
            }
        }
        write("\n")
    }

    /// `--format csv`: a row per file of every part, as a run's CSV with the partition first.
    func writeCSV(to write: (String) -> Void) async throws {
        write("partition," + RunReport.csvHeader)
        for part in parts {
            let prefix = part.run.partition.description + ","
            try await part.pages.forEach { page in write(RunReport.csvRows(page, prefix: prefix)) }
        }
    }

}
