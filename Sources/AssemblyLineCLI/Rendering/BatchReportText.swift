import AssemblyLine

/// A batch's merged report as people read it: the totals, a row per partition, and the failures with their parts.
enum BatchReportText {
    static func table(_ batch: BatchReport) -> String {
        let (finished, unfinished, missing) = (batch.parts.count - batch.unfinished.count, batch.unfinished, batch.missing)
        let (files, shards) = (batch.filesByState, batch.shardsByState)
        var lines = ["batch     \(batch.batch): \(CountText.of(batch.count, "partition")), \(finished) finished"
                        + (unfinished.isEmpty ? "" : ", \(unfinished.count) unfinished")
                        + (missing.isEmpty ? "" : ", \(missing.count) missing (\(missing.map(String.init).joined(separator: ", ")))"),
                     "files     \(files.values.reduce(0, +)): " + RunReportText.counts(FileState.allCases.map { (RunText.label($0), files[$0] ?? 0) }),
                     "shards    \(shards.values.reduce(0, +)): " + RunReportText.counts(ShardState.allCases.map { ($0.rawValue, shards[$0] ?? 0) }),
                     "bytes     \(ByteCountText.format(batch.sum { $0.run.bytes })) planned, "
                        + "\(ByteCountText.format(batch.sum { $0.statistics.bytesSent })) up, "
                        + "\(ByteCountText.format(batch.sum { $0.statistics.bytesReceived })) down",
                     "work      \(batch.sum { Int64($0.statistics.assembliesCreated) }) Assemblies created, "
                        + "\(batch.sum { Int64($0.statistics.retries) }) retries",
                     ""]
        let rows = batch.parts.map { part in
            let files = part.report.summary.filesByState
            return [part.run.partition.description, part.run.state.rawValue, part.run.id.rawValue, String(files.values.reduce(0, +)),
                    String(files[.done] ?? 0), String(files[.failed] ?? 0), String(files[.skipped] ?? 0), part.stateDirectory]
        }
        var text = lines.joined(separator: "\n") + "\n"
        text += TextTable.render(header: ["PART", "STATE", "RUN", "FILES", "DONE", "FAILED", "SKIPPED", "STATE DIR"], rows: rows,
                                 rightAligned: [3, 4, 5, 6])
        lines = []
        for part in batch.parts {
            for (code, failed) in part.report.failuresByCode {
                lines += failed.map { "  \(code) \($0.file.relativePath): \($0.failure?.message ?? "") (partition \(part.run.partition))" }
            }
        }
        if !lines.isEmpty { text += "\nfailures\n" + lines.joined(separator: "\n") + "\n" }
        return text
    }
}
