import AssemblyLine
import ConfigFormat
import Foundation

/// One run's report: the run, its shards and files by state, what it moved and how fast, and its failures by code.
struct RunReport {
    var summary: RunSummary
    var shards: [ShardRecord]
    var files: [FileRecord]
    var statistics: RunStatistics

    /// From the run's start to its end (or its last change, while it is unfinished).
    var elapsed: Duration {
        let run = summary.record
        let seconds = max(0, (run.finishedAt ?? run.updatedAt).timeIntervalSince(run.createdAt))
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }

    /// `amount` per second over the elapsed time, 0 when no time passed.
    private func rate(_ amount: Double) -> Double {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return seconds > 0 ? amount / seconds : 0
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
            "files     \(run.fileCount + run.skippedCount): " + Self.counts(FileState.allCases.map { ($0.rawValue, summary.filesByState[$0] ?? 0) }),
            "bytes     \(ByteCountText.format(run.bytes)) planned, \(ByteCountText.format(statistics.bytesSent)) up, "
                + "\(ByteCountText.format(statistics.bytesReceived)) down",
            "work      \(statistics.assembliesCreated) Assemblies created, \(statistics.retries) retr\(statistics.retries == 1 ? "y" : "ies")",
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
        return lines.isEmpty ? text : text + "\nfailures\n" + lines.joined(separator: "\n") + "\n"
    }

    /// One line per failed file: its path, error code and reason; `no failed files` when there are none.
    var failedTable: String {
        let failed = files.filter { $0.state == .failed }
        guard !failed.isEmpty else { return "no failed files in run \(summary.record.id)\n" }
        let rows = failed.map { [$0.file.relativePath, $0.failure?.code.rawValue ?? "", $0.failure?.message ?? ""] }
        return TextTable.render(header: ["FILE", "CODE", "REASON"], rows: rows)
    }

    var json: JSONValue {
        var object = RunText.json(summary.record).objectValue ?? [:]
        object["shards_by_state"] = .object(Dictionary(uniqueKeysWithValues: summary.shardsByState.map { ($0.key.rawValue, .integer(Int64($0.value))) }))
        object["files_by_state"] = .object(Dictionary(uniqueKeysWithValues: summary.filesByState.map { ($0.key.rawValue, .integer(Int64($0.value))) }))
        object["assemblies_created"] = .integer(Int64(statistics.assembliesCreated))
        object["retries"] = .integer(Int64(statistics.retries))
        object["bytes_sent"] = .integer(statistics.bytesSent)
        object["bytes_received"] = .integer(statistics.bytesReceived)
        object["elapsed_ms"] = .integer(Self.milliseconds(elapsed))
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
        return .object(object)
    }

    /// One row per file: index, shard, state, path, relative path, size, error code, error message.
    var csv: String {
        var lines = ["file,shard,state,path,relative_path,size,error_code,error_message"]
        for record in files {
            let cells = [String(record.index), record.shardIndex.map(String.init) ?? "", record.state.rawValue,
                         record.file.path, record.file.relativePath, String(record.file.size),
                         record.failure?.code.rawValue ?? "", record.failure?.message ?? ""]
            lines.append(cells.map(Self.csvField).joined(separator: ","))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    private static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }

    private static func json(_ failure: FailureReason) -> JSONValue {
        .object(["code": .string(failure.code.rawValue), "message": .string(failure.message), "retryable": .bool(failure.isRetryable)])
    }

    /// `12 planned, 3 failed`: the non-zero counts, or `none`.
    private static func counts(_ pairs: [(String, Int)]) -> String {
        let shown = pairs.filter { $0.1 > 0 }.map { "\($0.1) \($0.0)" }
        return shown.isEmpty ? "none" : shown.joined(separator: ", ")
    }

    /// RFC 4180: quoted when it holds a comma, quote, or line break; quotes doubled.
    private static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
