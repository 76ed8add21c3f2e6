import AssemblyLine
import Foundation

/// A run's report as people read it in a terminal: the summary and a row per shard, `--failed`'s list and `--results`' table.
enum RunReportText {
    /// The summary, a row per shard that failed or is unfinished (`allShards`: per shard) after how many are done, the
    /// failures by code, the files with no result, and the known bad files.
    static func table(_ report: RunReport, allShards: Bool) -> String {
        let (run, statistics, summary) = (report.run, report.statistics, report.summary)
        var lines = [
            "run       \(run.id) (\(run.manifestName))",
            "manifest  \(run.manifestPath)",
        ] + (RunText.template(of: run).map { ["template  \($0)"] } ?? []) + [
            "state     \(run.state), started \(RunText.time(run.createdAt))" + (run.finishedAt.map { ", ended \(RunText.time($0))" } ?? ""),
            "shards    \(run.shardCount): " + counts(ShardState.allCases.map { ($0.rawValue, summary.shardsByState[$0] ?? 0) }),
            "files     \(summary.filesByState.values.reduce(0, +)): " + counts(FileState.allCases.map { (RunText.label($0), summary.filesByState[$0] ?? 0) }),
            "bytes     \(ByteCountText.format(run.bytes)) planned, \(ByteCountText.format(statistics.bytesSent)) up, "
                + "\(ByteCountText.format(statistics.bytesReceived)) down",
            "work      \(statistics.assembliesCreated) Assemblies created, \(statistics.retries) retr\(statistics.retries == 1 ? "y" : "ies")"
                + replays(report),
            "usage     \(usage(statistics))",
            "time      \(DurationText.format(report.elapsed)) elapsed; \(ByteCountText.format(Int64(report.rate(Double(statistics.bytesSent)))))/s up, "
                + "\(String(format: "%.1f", report.rate(Double(summary.filesByState[.done] ?? 0)))) files/s done",
            "",
        ]
        var text = lines.joined(separator: "\n") + "\n" + shardTable(report, all: allShards)
        lines = []
        for (code, failed) in report.failuresByCode {
            lines.append("\(code) (\(failed.count) file\(failed.count == 1 ? "" : "s")):")
            lines += failed.map { "  \($0.file.relativePath): \($0.failure?.message ?? "")" }
        }
        if !lines.isEmpty { text += "\nfailures\n" + lines.joined(separator: "\n") + "\n" }
        let empty = report.files(.noResult)
        if !empty.isEmpty {
            text += "\nno result (the Assembly made none for \(empty.count) file\(empty.count == 1 ? "" : "s"): a filter Step, or a lost result)\n"
            text += empty.map { "  \($0.file.relativePath)\n" }.joined()
        }
        return text + knownBadList(report)
    }

    /// A row per shard, or past how many are done a row per shard that failed or is unfinished (none for a run without shards).
    private static func shardTable(_ report: RunReport, all: Bool) -> String {
        let done = report.shards.filter { $0.state == .downloaded }.count
        let listed = all ? report.shards : report.shards.filter { $0.state != .downloaded }
        var text = ""
        if !all, !report.shards.isEmpty {
            text = "\(done) of \(CountText.of(report.shards.count, "shard")) done" + (done > 0 ? " (--shards lists them)" : "")
                + (listed.isEmpty ? "\n" : "; failed or unfinished:\n")
        }
        guard !listed.isEmpty || all else { return text }
        let durations = report.statistics.shardDurations
        let rows = listed.map { shard in
            [String(shard.index), shard.state.rawValue, String(shard.fileCount), ByteCountText.format(shard.bytes),
             String(shard.attemptCount), durations[shard.index].map(DurationText.format) ?? "", shard.failure?.description ?? ""]
        }
        return text + TextTable.render(header: ["SHARD", "STATE", "FILES", "BYTES", "ATTEMPTS", "TIME", "FAILURE"], rows: rows,
                                       rightAligned: [0, 2, 3, 4, 5])
    }

    /// How many Assemblies replayed a failed one instead of uploading their files again, when any did.
    private static func replays(_ report: RunReport) -> String {
        let replayed = report.replays.filter { $0.createdAt != nil }.count
        return replayed == 0 ? "" : ", \(replayed) of them replay\(replayed == 1 ? "s" : "") of failed Assemblies (nothing uploaded)"
    }

    /// The usage the service counted, and how many completed Assemblies did not say theirs.
    private static func usage(_ statistics: RunStatistics) -> String {
        let unknown = statistics.assembliesWithoutUsage
        return ByteCountText.format(statistics.usageBytes) + " (bytes_usage of the completed Assemblies"
            + (unknown > 0 ? "; \(unknown) of them did not say)" : ")")
    }

    /// `--failed`: a line per failed file, its path, error code and reason (`no failed files` when there are none),
    /// then the known bad files.
    static func failed(_ report: RunReport) -> String {
        let failed = report.files(.failed)
        let text = failed.isEmpty ? "no failed files in run \(report.run.id)\n"
            : TextTable.render(header: ["FILE", "CODE", "REASON"], rows: failureRows(failed))
        return text + knownBadList(report)
    }

    /// `--results`: a row per current result, its input, step, state, what was checked, and where it went (a path or a URL).
    static func results(_ report: RunReport) -> String {
        guard !report.results.isEmpty else { return "no results in run \(report.run.id)\n" }
        let inputs = report.inputPaths
        let rows = report.results.map { record in
            [ResultText.input(of: record, among: inputs), record.result.step, ResultText.state(of: record),
             record.result.size.map(ByteCountText.format) ?? "", ResultText.checked(record), record.destination]
        }
        return TextTable.render(header: ["FILE", "STEP", "STATE", "SIZE", "CHECKED", "WHERE"], rows: rows, rightAligned: [3])
    }

    /// The known bad files with their earlier failures, after a blank line; empty when there are none.
    private static func knownBadList(_ report: RunReport) -> String {
        let known = report.files(.knownBad)
        guard !known.isEmpty else { return "" }
        return "\nknown bad (\(CountText.of(known.count, "file")) left out: an earlier run failed them for a reason of their own "
            + "and they are unchanged; run --retry-failed sends them)\n"
            + TextTable.render(header: ["FILE", "CODE", "REASON"], rows: failureRows(known))
    }

    /// A row per file: its path, error code and reason.
    private static func failureRows(_ files: [FileRecord]) -> [[String]] {
        files.map { [$0.file.relativePath, $0.failure?.code.rawValue ?? "", $0.failure?.message ?? ""] }
    }

    /// `12 planned, 3 failed`: the non-zero counts, or `none`.
    static func counts(_ pairs: [(String, Int)]) -> String {
        let shown = pairs.filter { $0.1 > 0 }.map { "\($0.1) \($0.0)" }
        return shown.isEmpty ? "none" : shown.joined(separator: ", ")
    }
}
