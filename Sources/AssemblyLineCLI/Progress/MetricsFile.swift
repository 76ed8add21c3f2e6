import AssemblyLine
import ConfigFormat
import Foundation

/// The Prometheus text exposition of a manifest's last run, for node_exporter's textfile collector.
///
/// Written whole at the end of each run (and resume) to a temporary name beside the file and renamed
/// into place, so that the collector never reads half a file. The last success's time is this run's
/// end when it finished, else the one the previous file held, so that "no success in 26 h" alerts on
/// the night that failed, not on the one that succeeded. Samples carry no timestamps (the collector's
/// rule); each family has its `# HELP` and `# TYPE`. docs/monitoring.md has the alert rules.
struct MetricsFile {
    let path: String

    /// The label set of a manifest's runs: its name, and the partition when the run is one.
    static func labels(manifest: String, partition: Partition) -> String {
        var labels = "manifest=\"\(escaped(manifest))\""
        if !partition.isWhole { labels += ",partition=\"\(partition)\"" }
        return labels
    }

    /// Writes `metrics`: the run's start and end, duration, exit status, files by state, bytes up and down,
    /// Assemblies created, retries and usage.
    func write(_ metrics: RunMetrics, exitStatus: Int32) throws {
        let labels = Self.labels(manifest: metrics.manifestName, partition: metrics.partition)
        let statistics = metrics.statistics
        let success = metrics.succeeded ? metrics.end.timeIntervalSince1970 : previousSuccess(labels: labels)
        var text = ""
        func family(_ name: String, _ help: String, _ samples: [(labels: String, value: String)]) {
            guard !samples.isEmpty else { return }
            text += "# HELP assemblyline_\(name) \(help)\n# TYPE assemblyline_\(name) gauge\n"
            for sample in samples { text += "assemblyline_\(name){\(sample.labels)} \(sample.value)\n" }
        }
        family("last_run_start_timestamp_seconds", "When the last run of the manifest started (this process's part of it, for a resume).",
               [(labels, Self.seconds(metrics.start.timeIntervalSince1970))])
        family("last_run_end_timestamp_seconds", "When the last run of the manifest ended.", [(labels, Self.seconds(metrics.end.timeIntervalSince1970))])
        family("last_success_timestamp_seconds", "When a run of the manifest last finished with every shard done.",
               success.map { [(labels, Self.seconds($0))] } ?? [])
        family("last_run_duration_seconds", "How long the last run took.", [(labels, Self.seconds(metrics.duration.timeInterval))])
        family("last_run_exit_status", "The last run's exit status (0 done, 1 files or shards failed, 2 stopped; README).",
               [(labels, String(exitStatus))])
        family("files", "The last run's files by state.", FileState.allCases.map { state in
            ("\(labels),state=\"\(state.rawValue)\"", String(metrics.filesByState[state] ?? 0))
        })
        family("bytes", "The bytes the last run sent (up) and downloaded (down).",
               [("\(labels),direction=\"up\"", String(statistics.bytesSent)), ("\(labels),direction=\"down\"", String(statistics.bytesReceived))])
        family("assemblies", "The Assemblies the last run created.", [(labels, String(statistics.assembliesCreated))])
        family("retries", "The steps the last run tried again.", [(labels, String(statistics.retries))])
        family("usage_bytes", "The usage the last run's completed Assemblies said they cost (bytes_usage, summed).",
               [(labels, String(statistics.usageBytes))])
        do {
            try WholeFileWriter.write(text, to: path)
        } catch {
            throw Unwritable(description: "cannot write the metrics file \(path): \(error.reason)")
        }
    }

    /// Why the file could not be written; a run warns of it and keeps its own exit status.
    struct Unwritable: Error, CustomStringConvertible {
        var description: String
    }

    /// Writes the metrics of `outcome`'s run, read from the ledger of `stateDirectory`, to `path` (the option,
    /// else the manifest's `monitoring.metrics_file`); a failure is a warning on `console`, never the run's.
    static func record(_ outcome: RunOutcome, option path: String?, manifest: Manifest, stateDirectory: String, console: Console) async {
        guard let path = path.map({ PathText.resolve($0, against: FileManager.default.currentDirectoryPath) }) ?? manifest.monitoring.metricsFile
        else { return }
        do {
            let metrics = try await RunMetrics.read(outcome, partition: manifest.partition, stateDirectory: stateDirectory, store: RunWiring.ledgers)
            try MetricsFile(path: path).write(metrics, exitStatus: ErrorReporter.status(of: RunEnded(outcome)).rawValue)
        } catch {
            console.error("warning: \(error)\n")
        }
    }

    /// The last success's time the file at `path` holds for `labels`, if it holds one.
    private func previousSuccess(labels: String) -> Double? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        let prefix = "assemblyline_last_success_timestamp_seconds{\(labels)} "
        return text.split(separator: "\n").first { $0.hasPrefix(prefix) }.flatMap { Double($0.dropFirst(prefix.count)) }
    }

    /// A value with at most three decimals and no exponent.
    private static func seconds(_ value: Double) -> String {
        String(format: "%.3f", value)
    }

    /// A label value as the text format writes it: backslash, quote and line feed escaped.
    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\n", with: "\\n")
    }
}
