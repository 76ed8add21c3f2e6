import AssemblyLine
import Foundation

/// `report --format html`: one self-contained page of a run (or a batch's parts) that people read in a browser and print.
///
/// Nothing in it asks for anything outside the file: its Content-Security-Policy is `default-src 'none'` with
/// inline styles and `data:` images only, it has no script, and its charts are inline SVG drawn here
/// (``TimelineChart``, ``ThroughputChart``). Every text from the ledger (file names, the service's reasons) is
/// escaped. The file table is bounded (``maxFileRows``): the files that did not get done first, then the
/// first done ones; CSV has them all. Its paths wrap between folders (``HTMLText/path(_:)``). A run that sent
/// nothing (no shard) says so and why instead of an empty timeline, throughput and file table.
struct HTMLReport {
    /// How many files the table lists at most; the rest are counted and left to `--format csv`.
    static let maxFileRows = 1_000
    /// How many files each failure code lists at most.
    static let maxFilesPerCode = 200

    var title: String
    /// The heading's second line: the manifest, or the batch's partitions.
    var subtitle: String
    /// Each run on the page, with the prefix its shards' labels start with: empty for a run, `p2 · ` for partition 2 of a batch.
    var parts: [(prefix: String, detail: RunDetail)]
    /// Partitions of a batch with no run in the ledgers read.
    var missingParts: [Int] = []
    var generatedAt: Date

    private var reports: [RunReport] { parts.map(\.detail.report) }
    private var start: Date { reports.map(\.summary.record.createdAt).min() ?? generatedAt }

    private func total(_ figure: (RunReport) -> Int64) -> Int64 { reports.reduce(0) { $0 + figure($1) } }
    private func files(_ state: FileState) -> Int { reports.reduce(0) { $0 + ($1.summary.filesByState[state] ?? 0) } }

    /// The run's state, or for a batch the states of its parts.
    private var stateText: String {
        RunText.state(of: reports.map(\.summary.record.state), missing: missingParts.count)
    }

    /// The exit status the run ended with (the worst part's, for a batch); none while a part runs.
    private var exitText: String {
        if reports.contains(where: { $0.summary.record.state == .running }) { return "none yet (running)" }
        let statuses = reports.map { report in
            let failures = Set(report.files.compactMap(\.failure?.code) + report.shards.compactMap(\.failure?.code))
            return ErrorReporter.status(of: RunEnded(state: report.summary.record.state, failures: failures)).rawValue
        }
        return String(statuses.max() ?? 0)
    }

    var html: String {
        let statistics = reports.map(\.statistics)
        let usage = statistics.reduce(Int64(0)) { $0 + $1.usageBytes }
        let unknownUsage = statistics.reduce(0) { $0 + $1.assembliesWithoutUsage }
        let figures: [(label: String, value: String)] = [
            ("state", stateText), ("exit status", exitText),
            ("files", "\(reports.reduce(0) { $0 + $1.summary.filesByState.values.reduce(0, +) }): "
                + RunReportText.counts(FileState.allCases.map { (RunText.label($0), files($0)) })),
            ("bytes up", ByteCountText.format(statistics.reduce(0) { $0 + $1.bytesSent })),
            ("bytes down", ByteCountText.format(statistics.reduce(0) { $0 + $1.bytesReceived })),
            ("Assemblies", String(statistics.reduce(0) { $0 + $1.assembliesCreated })),
            ("retries", String(statistics.reduce(0) { $0 + $1.retries })),
            ("elapsed", DurationText.format(RunRecord.elapsed(of: reports.map(\.run)))),
            ("usage", ByteCountText.format(usage) + (unknownUsage > 0 ? " (\(unknownUsage) Assemblies did not say)" : "")),
        ]
        var out = "<section id=\"summary\"><h2>Summary</h2>" + HTMLPage.figures(figures) + "</section>\n"
        guard reports.contains(where: { !$0.shards.isEmpty }) else {
            return HTMLPage.document(title: title, subtitle: subtitle, body: out + nothingSent + failures, generatedAt: generatedAt)
        }
        let timeline = ReportTimeline(parts.map { ReportTimeline.Part(prefix: $0.prefix, shards: $0.detail.report.shards, attempts: $0.detail.attempts,
                                                                       stepRetries: $0.detail.stepRetries) }, start: start)
        out += "<section id=\"timeline\"><h2>Timeline</h2><p class=\"note\">"
            + (timeline.isGrouped ? "A bar per group of consecutive shards (\(timeline.rows.count) groups), split into the phases by their total time."
                : "A bar per shard: each attempt's signing, upload, execution and download.")
            + "</p><div class=\"chart\">\(TimelineChart(timeline: timeline).svg)</div></section>\n"
        out += "<section id=\"throughput\"><h2>Throughput</h2><div class=\"chart\">\(throughput(span: timeline.span).svg)</div></section>\n"
        out += failures + fileTable
        return HTMLPage.document(title: title, subtitle: subtitle, body: out, generatedAt: generatedAt)
    }

    private func throughput(span: Double) -> ThroughputChart {
        var finishes: [(seconds: Double, files: Int)] = []
        for part in parts {
            let shards = Dictionary(part.detail.report.shards.map { ($0.index, $0) }, uniquingKeysWith: { first, _ in first })
            for attempt in part.detail.attempts {
                guard let done = attempt.downloadedAt, let shard = shards[attempt.shardIndex], shard.state == .downloaded else { continue }
                finishes.append((done.timeIntervalSince(start), shard.fileCount))
            }
        }
        return ThroughputChart(finishes: finishes, span: span)
    }

    /// What a night that sent nothing says instead of its timeline, throughput and files: why, from its files' states.
    private var nothingSent: String {
        let counts = RunReportText.counts([FileState.skipped, .knownBad].map { (RunText.label($0), files($0)) })
        let why = counts == "none" ? "no file was planned" : "every file was left out (\(counts)): done before and unchanged, or known bad"
        return "<section id=\"nothing-sent\"><h2>Nothing sent</h2><p class=\"note\">This run sent no file and created no Assembly: "
            + HTMLText.escaped(why) + ".</p></section>\n"
    }

    /// The failed and known bad files by code, with the service's reasons.
    private var failures: String {
        var groups: [String: [(file: String, reason: String, partition: String)]] = [:]
        for part in parts {
            for file in part.detail.report.files where [.failed, .knownBad].contains(file.state) {
                let code = (file.failure?.code.rawValue ?? "UNKNOWN") + (file.state == .knownBad ? " (known bad)" : "")
                groups[code, default: []].append((file.file.relativePath, file.failure?.message ?? "", part.prefix))
            }
        }
        var out = "<section id=\"failures\"><h2>Failures</h2>"
        guard !groups.isEmpty else { return out + "<p class=\"note\">No file failed.</p></section>\n" }
        out += "<table class=\"failures\"><thead><tr><th>code</th><th>file</th><th>reason</th></tr></thead>"
        for (code, files) in groups.sorted(by: { $0.key < $1.key }) {
            out += "<tbody><tr class=\"code\"><th colspan=\"3\">\(HTMLText.escaped(code)) · \(CountText.of(files.count, "file"))</th></tr>"
            for file in files.prefix(Self.maxFilesPerCode) {
                out += "<tr><td></td><td class=\"path\">\(HTMLText.path(file.partition + file.file))</td><td>\(HTMLText.escaped(file.reason))</td></tr>"
            }
            if files.count > Self.maxFilesPerCode {
                out += "<tr><td></td><td colspan=\"2\" class=\"note\">and \(files.count - Self.maxFilesPerCode) more: report --failed</td></tr>"
            }
            out += "</tbody>"
        }
        return out + "</table></section>\n"
    }

    /// The bounded file table: input, state, where its outputs went, sizes and error.
    private var fileTable: String {
        let rows = parts.flatMap { part in part.detail.files.map { (part.prefix, $0) } }
        let listed = rows.count
        let all = reports.reduce(0) { $0 + $1.summary.filesByState.values.reduce(0, +) - ($1.summary.filesByState[.skipped] ?? 0) }
        var out = "<section id=\"files\"><h2>Files</h2>"
        if all > listed {
            out += "<p class=\"note\">\(listed) of \(all) files (those not done first); report --format csv lists every file.</p>"
        }
        out += "<table class=\"files\"><thead><tr><th>input</th><th>state</th><th>output</th><th class=\"n\">size</th><th class=\"n\">output size</th>"
            + "<th>error</th></tr></thead><tbody>"
        for (prefix, file) in rows {
            let record = file.record
            let error = record.failure.map { "\($0.code.rawValue): \($0.message)" } ?? ""
            out += "<tr class=\"\(record.state.rawValue)\"><td class=\"path\">\(HTMLText.path(prefix + record.file.relativePath))</td>"
                + "<td>\(RunText.label(record.state))</td>"
                + "<td class=\"path\">\(file.outputs.map(HTMLText.path).joined(separator: "<br>"))</td>"
                + "<td class=\"n\">\(ByteCountText.format(record.file.size))</td>"
                + "<td class=\"n\">\(file.outputs.isEmpty ? "" : ByteCountText.format(file.outputBytes))</td>"
                + "<td>\(HTMLText.escaped(error))</td></tr>"
        }
        return out + "</tbody></table></section>\n"
    }
}
