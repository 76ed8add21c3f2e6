import AssemblyLine
import ConfigFormat
import Foundation
import SQLiteLedger

/// One run's report: the run, its shards and files by state, what it moved and how fast, and its failures by code.
struct RunReport {
    var summary: RunSummary
    var shards: [ShardRecord]
    var files: [FileRecord]
    var statistics: RunStatistics
    /// Each shard's current results: where each file's outputs went (CSV, JSON, `--results`).
    var results: [ResultRecord] = []

    /// From the run's start to its end (or its last change, while it is unfinished).
    var elapsed: Duration { RunText.elapsed(of: [summary.record]) }

    /// `amount` per second over the elapsed time, 0 when no time passed.
    private func rate(_ amount: Double) -> Double {
        let seconds = elapsed.timeInterval
        return seconds > 0 ? amount / seconds : 0
    }

    /// The usage the service counted, and how many completed Assemblies did not say theirs.
    var usageText: String {
        let unknown = statistics.assembliesWithoutUsage
        return ByteCountText.format(statistics.usageBytes) + " (bytes_usage of the completed Assemblies"
            + (unknown > 0 ? "; \(unknown) of them did not say)" : ")")
    }

    /// Failed files grouped by error code, codes in order.
    var failuresByCode: [(code: String, files: [FileRecord])] {
        let failed = files.filter { $0.state == .failed }
        return Dictionary(grouping: failed) { $0.failure?.code.rawValue ?? "UNKNOWN" }
            .sorted { $0.key < $1.key }
            .map { (code: $0.key, files: $0.value) }
    }

    var table: String {
        let run = summary.record
        var lines = [
            "run       \(run.id) (\(run.manifestName))",
            "manifest  \(run.manifestPath)",
            "state     \(run.state), started \(RunText.time(run.createdAt))" + (run.finishedAt.map { ", ended \(RunText.time($0))" } ?? ""),
            "shards    \(run.shardCount): " + Self.counts(ShardState.allCases.map { ($0.rawValue, summary.shardsByState[$0] ?? 0) }),
            "files     \(summary.filesByState.values.reduce(0, +)): " + Self.counts(FileState.allCases.map { (RunText.label($0), summary.filesByState[$0] ?? 0) }),
            "bytes     \(ByteCountText.format(run.bytes)) planned, \(ByteCountText.format(statistics.bytesSent)) up, "
                + "\(ByteCountText.format(statistics.bytesReceived)) down",
            "work      \(statistics.assembliesCreated) Assemblies created, \(statistics.retries) retr\(statistics.retries == 1 ? "y" : "ies")",
            "usage     \(usageText)",
            "time      \(ConfigUnits.formatDuration(elapsed)) elapsed; \(ByteCountText.format(Int64(rate(Double(statistics.bytesSent)))))/s up, "
                + "\(String(format: "%.1f", rate(Double(summary.filesByState[.done] ?? 0)))) files/s done",
            "",
        ]
        let rows = shards.map { shard in
            [String(shard.index), shard.state.rawValue, String(shard.fileCount), ByteCountText.format(shard.bytes),
             String(shard.attemptCount), statistics.shardDurations[shard.index].map(ConfigUnits.formatDuration) ?? "",
             shard.failure?.description ?? ""]
        }
        var text = lines.joined(separator: "\n") + "\n"
        text += TextTable.render(header: ["SHARD", "STATE", "FILES", "BYTES", "ATTEMPTS", "TIME", "FAILURE"], rows: rows,
                                 rightAligned: [0, 2, 3, 4, 5])
        lines = []
        for (code, failed) in failuresByCode {
            lines.append("\(code) (\(failed.count) file\(failed.count == 1 ? "" : "s")):")
            lines += failed.map { "  \($0.file.relativePath): \($0.failure?.message ?? "")" }
        }
        if !lines.isEmpty { text += "\nfailures\n" + lines.joined(separator: "\n") + "\n" }
        let empty = files.filter { $0.state == .noResult }
        if !empty.isEmpty {
            text += "\nno result (the Assembly made none for \(empty.count) file\(empty.count == 1 ? "" : "s"): a filter Step, or a lost result)\n"
            text += empty.map { "  \($0.file.relativePath)\n" }.joined()
        }
        return text + knownBadList
    }

    /// The known bad files with their earlier failures, after a blank line; empty when there are none.
    private var knownBadList: String {
        let known = files.filter { $0.state == .knownBad }
        guard !known.isEmpty else { return "" }
        return "\nknown bad (\(CountText.of(known.count, "file")) left out: an earlier run failed them for a reason of their own "
            + "and they are unchanged; run --retry-failed sends them)\n"
            + TextTable.render(header: ["FILE", "CODE", "REASON"], rows: Self.failureRows(known))
    }

    /// A row per file: its path, error code and reason.
    private static func failureRows(_ files: [FileRecord]) -> [[String]] {
        files.map { [$0.file.relativePath, $0.failure?.code.rawValue ?? "", $0.failure?.message ?? ""] }
    }

    /// One row per current result: its input, step, state, what was checked, and where it went (a path or a URL).
    var resultsTable: String {
        guard !results.isEmpty else { return "no results in run \(summary.record.id)\n" }
        let inputs = inputs
        let rows = results.map { record in
            [input(of: record, among: inputs), record.result.step, Self.state(of: record), record.result.size.map(ByteCountText.format) ?? "",
             Self.checked(record), Self.destination(of: record)]
        }
        return TextTable.render(header: ["FILE", "STEP", "STATE", "SIZE", "CHECKED", "WHERE"], rows: rows, rightAligned: [3])
    }

    /// The current results as JSON objects.
    var resultsJSON: JSONValue {
        let inputs = inputs
        return .array(results.map { record in
            .object([
                "file": record.result.fileIndex.map { .integer(Int64($0)) } ?? .null, "input": .string(input(of: record, among: inputs)),
                "step": .string(record.result.step), "state": .string(Self.state(of: record)),
                "size": record.result.size.map { .integer($0) } ?? .null, "md5": record.result.md5.map { .string($0) } ?? .null,
                "checked": .string(Self.checked(record)), "where": .string(Self.destination(of: record)),
                "temporary": .bool(record.result.isTemporary), "fetches": .integer(Int64(record.fetches)),
            ])
        })
    }

    /// One row per current result.
    var resultsCSV: String {
        var lines = ["file,input,step,state,size,md5,checked,where"]
        let inputs = inputs
        for record in results {
            let cells = [record.result.fileIndex.map(String.init) ?? "", input(of: record, among: inputs), record.result.step, Self.state(of: record),
                         record.result.size.map(String.init) ?? "", record.result.md5 ?? "", Self.checked(record), Self.destination(of: record)]
            lines.append(cells.map(Self.csvField).joined(separator: ","))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// The input's relative path, or `(several)` for a result made from several inputs.
    private func input(of record: ResultRecord, among inputs: [Int: String]) -> String {
        guard let index = record.result.fileIndex else { return "(several)" }
        return inputs[index] ?? "#\(index)"
    }

    /// The relative path of each file, by index: what `--results` names a result's input by.
    private var inputs: [Int: String] {
        Dictionary(files.map { ($0.index, $0.file.relativePath) }, uniquingKeysWith: { first, _ in first })
    }

    /// `downloaded`, `pending`, `exported` (in the customer's storage) or `recorded` (not downloaded).
    private static func state(of record: ResultRecord) -> String {
        switch record.result.delivery {
        case .download: record.isDownloaded ? "downloaded" : "pending"
        case .exported: "exported"
        case .recorded: "recorded"
        }
    }

    /// What a download was checked against: `size+md5`, `size`, `md5`, or `nothing` when the service gave neither.
    private static func checked(_ record: ResultRecord) -> String {
        guard record.isDownloaded else { return "" }
        switch (record.result.size != nil, record.result.md5 != nil) {
        case (true, true): return "size+md5"
        case (true, false): return "size"
        case (false, true): return "md5"
        case (false, false): return "nothing"
        }
    }

    /// The path a download went to, else the URL where the result is.
    private static func destination(of record: ResultRecord) -> String {
        record.result.outputPath ?? record.result.url ?? ""
    }

    /// One line per failed file: its path, error code and reason (`no failed files` when there are none),
    /// then the known bad files.
    var failedTable: String {
        let failed = files.filter { $0.state == .failed }
        let text = failed.isEmpty ? "no failed files in run \(summary.record.id)\n"
            : TextTable.render(header: ["FILE", "CODE", "REASON"], rows: Self.failureRows(failed))
        return text + knownBadList
    }

    /// `--format json`: the run's figures and every file with its outputs, written in pieces as each
    /// page of files is read and serialized (``JSONValue/writeObject(_:streaming:chunk:to:elements:)``): the
    /// same text as one object would give, without holding a million files' rows, tree or text.
    func writeJSON(_ pages: FilePages, to write: @escaping (String) -> Void) async throws {
        try await JSONValue.writeObject(jsonFigures, streaming: "files", to: write) { emit in
            try await pages.forEach { page in
                for file in page { emit(Self.fileJSON(file)) }
            }
        }
        write("\n")
    }

    /// The members of `--format json` but its `files`.
    private var jsonFigures: [String: JSONValue] {
        var object = RunText.json(summary.record).objectValue ?? [:]
        object["shards_by_state"] = .object(Dictionary(uniqueKeysWithValues: summary.shardsByState.map { ($0.key.rawValue, .integer(Int64($0.value))) }))
        object["files_by_state"] = .object(Dictionary(uniqueKeysWithValues: summary.filesByState.map { ($0.key.rawValue, .integer(Int64($0.value))) }))
        object["assemblies_created"] = .integer(Int64(statistics.assembliesCreated))
        object["retries"] = .integer(Int64(statistics.retries))
        object["bytes_sent"] = .integer(statistics.bytesSent)
        object["bytes_received"] = .integer(statistics.bytesReceived)
        object["elapsed_ms"] = .integer(Self.milliseconds(elapsed))
        object["usage_bytes"] = .integer(statistics.usageBytes)
        object["assemblies_without_usage"] = .integer(Int64(statistics.assembliesWithoutUsage))
        object["queue_seconds"] = .number((statistics.queueSeconds * 1000).rounded() / 1000)
        object["execution_seconds"] = .number((statistics.executionSeconds * 1000).rounded() / 1000)
        object["bytes_sent_per_second"] = .integer(Int64(rate(Double(statistics.bytesSent))))
        object["files_done_per_second"] = .number((rate(Double(summary.filesByState[.done] ?? 0)) * 100).rounded() / 100)
        object["shard_list"] = .array(shards.map { shard in
            .object([
                "index": .integer(Int64(shard.index)), "state": .string(shard.state.rawValue),
                "files": .integer(Int64(shard.fileCount)), "bytes": .integer(shard.bytes),
                "attempts": .integer(Int64(shard.attemptCount)), "failure": shard.failure.map(Self.json) ?? .null,
                "duration_ms": statistics.shardDurations[shard.index].map { .integer(Self.milliseconds($0)) } ?? .null,
            ])
        })
        object["failures"] = .array(failuresByCode.map { group in
            .object(["code": .string(group.code), "files": .array(group.files.map { .string($0.file.relativePath) })])
        })
        return object
    }

    /// `--failed --format json`: the run, and each failed file and shard with its code, message and whether a resume may help.
    var failedJSON: JSONValue {
        let files = reportedFiles
        return .object([
            "run_id": .string(summary.record.id.rawValue),
            "state": .string(summary.record.state.rawValue),
            "failed_files": .array(files.filter { $0.record.state == .failed }.map(Self.fileJSON)),
            "known_bad_files": .array(files.filter { $0.record.state == .knownBad }.map(Self.fileJSON)),
            "failed_shards": .array(shards.filter { $0.state == .failed }.map { shard in
                .object(["index": .integer(Int64(shard.index)), "failure": shard.failure.map(Self.json) ?? .null])
            }),
        ])
    }

    /// One file: where it is, its state, its failure (code, message, retryable) and where its outputs went.
    static func fileJSON(_ file: ReportedFile) -> JSONValue {
        let record = file.record
        return .object([
            "index": .integer(Int64(record.index)), "shard": record.shardIndex.map { .integer(Int64($0)) } ?? .null,
            "state": .string(record.state.rawValue), "path": .string(record.file.path),
            "relative_path": .string(record.file.relativePath), "size": .integer(record.file.size),
            "failure": record.failure.map(Self.json) ?? .null,
            "outputs": .array(file.outputs.map(JSONValue.string)),
        ])
    }

    /// The files the report holds with where their results went, by file index: the paths of their
    /// downloads, or the URLs of results not downloaded; a result of several inputs is each one's. Made
    /// in one pass over the results.
    private var reportedFiles: [ReportedFile] {
        var outputs: [Int: [String]] = [:]
        for record in results {
            let destination = Self.destination(of: record)
            for file in record.result.source.inputs { outputs[file, default: []].append(destination) }
        }
        return files.map { ReportedFile(record: $0, outputs: outputs[$0.index] ?? []) }
    }

    static let csvHeader = "file,shard,state,path,relative_path,size,error_code,error_message,retryable,outputs\r\n"

    /// `--format csv`: one row per file: index, shard, state, path, relative path, size, error code, message,
    /// retryable, and its outputs (each output's path, or URL for a result not downloaded, separated by a
    /// space); written a page of files at a time as `pages` reads them, never as one text.
    static func writeCSV(_ pages: FilePages, to write: (String) -> Void) async throws {
        write(csvHeader)
        try await pages.forEach { write(csvRows($0)) }
    }

    /// The CSV rows of `page`, each after `prefix` (a batch's partition column).
    static func csvRows(_ page: [ReportedFile], prefix: String = "") -> String {
        var text = ""
        for file in page {
            text += prefix
            let record = file.record
            let cells = [String(record.index), record.shardIndex.map(String.init) ?? "", record.state.rawValue,
                         record.file.path, record.file.relativePath, String(record.file.size),
                         record.failure?.code.rawValue ?? "", record.failure?.message ?? "",
                         record.failure.map { $0.isRetryable ? "true" : "false" } ?? "", file.outputs.joined(separator: " ")]
            for (position, cell) in cells.enumerated() {
                if position > 0 { text += "," }
                text += csvField(cell)
            }
            text += "\r\n"
        }
        return text
    }

    /// The files of `--failed`, with their outputs, as one page.
    var failedPages: FilePages { .these(reportedFiles) }

    private static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }

    private static func json(_ failure: FailureReason) -> JSONValue {
        .object(["code": .string(failure.code.rawValue), "message": .string(failure.message), "retryable": .bool(failure.isRetryable)])
    }

    /// `12 planned, 3 failed`: the non-zero counts, or `none`.
    static func counts(_ pairs: [(String, Int)]) -> String {
        let shown = pairs.filter { $0.1 > 0 }.map { "\($0.1) \($0.0)" }
        return shown.isEmpty ? "none" : shown.joined(separator: ", ")
    }

    /// RFC 4180: quoted when it holds a comma, quote, or line break; quotes doubled.
    private static func csvField(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
