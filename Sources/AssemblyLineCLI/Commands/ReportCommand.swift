import AssemblyLine
import ConfigFormat
import Foundation
import SQLiteLedger

/// `assemblyline report RUN_ID|latest [--format table|json|csv|html]`: what the ledger knows of one run (or of a
/// batch's partitions with `--batch`, or of the nights since a time with `--history`).
struct ReportCommand: CLICommand {
    /// The report's output forms.
    enum Format: String, CaseIterable, Sendable {
        case table, json, csv
        /// One self-contained page for a browser (``HTMLReport``).
        case html
        /// With `--failed`: the failed files' relative paths, a line each (`paths`) or NUL-terminated (`paths0`), for `run --files-from`.
        case paths, paths0
    }

    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Report what the ledger knows of a run: shards and files by state, failures by code.",
        discussion: """
            csv prints one row per file (per result with --results). --history prints a row per night instead (a batch's \
            partitions make one), oldest first, as table, json or html. Reads the ledger without changing it; an unknown run exits 65.
            """,
        arguments: [ArgumentSpec(name: "run", help: "A run ID, or latest (none with --batch or --history).", isOptional: true)],
        options: [OptionSpec(name: "format", valueName: "format",
                             help: "table (default), json, csv or html; with --failed also paths or paths0 (the failed files for run --files-from)."),
                  OptionSpec(name: "output", valueName: "file", help: "With --format html: write the page to this file (replaced whole) instead of standard output."),
                  OptionSpec(name: "failed", help: "Only the failed files, each with its error code and reason."),
                  OptionSpec(name: "results", help: "Each result of the run: its input, step, state, checks, and where it went (a path or a URL)."),
                  OptionSpec(name: "batch", valueName: "id", help: "One report of a batch's partitions, merged from their ledgers (docs/scale-out.md)."),
                  OptionSpec(name: "history", help: "A row per night: files done, failed, skipped and known bad, elapsed, bytes, usage (docs/reports.md)."),
                  OptionSpec(name: "since", valueName: "duration", help: "With --history: the nights started within this long (default 30d)."),
                  OptionSpec(name: "state-dir", valueName: "dir",
                             help: "Use this state directory's ledger; with --batch or --history, repeatable, each a directory or a glob.",
                             isRepeating: true),
                  LedgerLocation.options[1]])

    /// nil for `latest`.
    var runID: RunID?
    var format: Format
    var failedOnly: Bool
    var listsResults: Bool
    var location: LedgerLocation
    /// `--batch`: the batch to merge and the ledgers to read it from.
    var batch: (id: BatchID, ledgers: BatchLedgers)?
    var stateDirCount: Int
    /// `--output`: where the HTML page goes.
    var output: String?
    /// `--history`: the earliest start a night may have, the ledgers to read and the manifest whose runs count (nil: all).
    var history: (since: Date, ledgers: BatchLedgers, manifestPath: String?)?
    var givesSince: Bool

    init(_ values: ParsedValues) throws {
        format = try values.choice("format", as: Format.self) ?? .table
        failedOnly = values.flag("failed")
        listsResults = values.flag("results")
        location = LedgerLocation(values)
        stateDirCount = values.options("state-dir").count
        output = values.option("output")
        givesSince = values.option("since") != nil
        if values.flag("history") {
            guard values.positional(0) == nil, values.option("batch") == nil else {
                throw UsageError("--history reports every night of the ledgers: drop the run ID and --batch")
            }
            let span = try values.duration("since") ?? RunHistory.defaultSpan
            history = (Date().addingTimeInterval(-span.timeInterval), try BatchLedgers(values, defaultDirectory: ManifestDefaults.stateDir),
                       try values.option("manifest").map { try ConfigFileLoader.manifest($0).file })
        } else if let text = values.option("batch") {
            guard let id = BatchID(rawValue: text) else { throw UsageError("--batch: expected \(BatchID.expected), found '\(text)'") }
            guard values.positional(0) == nil else { throw UsageError("--batch reports a batch, not a run: drop the run ID") }
            batch = (id, try BatchLedgers(values))
        } else {
            guard let run = values.positional(0) else { throw UsageError("missing expected argument '<run>' (a run ID, or latest)") }
            runID = try RunID.argument(run)
        }
    }

    func validate() throws {
        if failedOnly && listsResults { throw UsageError("--failed and --results are different reports; choose one") }
        if [.paths, .paths0].contains(format), !failedOnly { throw UsageError("--format \(format) lists the failed files: add --failed") }
        if output != nil, format != .html { throw UsageError("--output writes the HTML page: add --format html") }
        if format == .html, failedOnly || listsResults { throw UsageError("--format html is the whole report; --failed and --results are other reports") }
        if givesSince, history == nil { throw UsageError("--since narrows --history: add --history") }
        if let history {
            if failedOnly || listsResults { throw UsageError("--history is a row per night; --failed and --results are per run") }
            if ![.table, .json, .html].contains(format) { throw UsageError("--history: expected --format table, json or html, found \(format)") }
            if history.ledgers.stateDirectories.isEmpty { throw CommandError.noLedger(path: "in the state directories given", hint: "none holds a ledger") }
            return
        }
        if let batch {
            if failedOnly || listsResults { throw UsageError("--batch merges the whole report; --failed and --results are per run") }
            if batch.ledgers.stateDirectories.isEmpty { throw CommandError.noLedger(path: "in the state directories given", hint: "none holds a ledger") }
            return
        }
        if stateDirCount > 1 { throw UsageError("--state-dir is given once, unless with --batch") }
        try location.validate()
    }

    func run(_ console: Console) async throws {
        if let history { return try await report(since: history.since, of: history.manifestPath, from: history.ledgers, console) }
        if let batch { return try await report(batch.id, from: batch.ledgers, console) }
        try await location.withRun(runID) { [failedOnly, listsResults] ledger, run, _ in
            let report = try await Self.read(ledger, id: run, format: format, failedOnly: failedOnly, listsResults: listsResults)
            switch format {
            case .table where listsResults: console.out(report.resultsTable)
            case .json where listsResults: console.line(report.resultsJSON.serialized)
            case .csv where listsResults: console.out(report.resultsCSV)
            case .paths, .paths0:
                let end = format == .paths0 ? "\0" : "\n"
                console.out(report.files.filter { $0.state == .failed }.map { $0.file.relativePath + end }.joined())
            case .table where failedOnly: console.out(report.failedTable)
            case .json where failedOnly: console.line(report.failedJSON.serialized)
            case .csv where failedOnly: try await RunReport.writeCSV(report.failedPages, to: console.out)
            case .table: console.out(report.table)
            case .html:
                let part = try await HTMLReport.part(report, prefix: "", ledger: ledger, files: HTMLReport.maxFileRows)
                let run = report.summary.record
                let page = HTMLReport(title: "Run \(run.id) · \(run.manifestName)",
                                      subtitle: "\(run.manifestPath), started \(RunText.time(run.createdAt))"
                                          + (run.finishedAt.map { ", ended \(RunText.time($0))" } ?? ""),
                                      parts: [part], generatedAt: Date())
                try write(page.html, console)
            case .json: try await report.writeJSON(.everyFile(ledger, run, shards: report.shards), to: console.out)
            case .csv: try await RunReport.writeCSV(.everyFile(ledger, run, shards: report.shards), to: console.out)
            }
        }
    }

    /// The merged report of `batch`: each partition's run read as a run's report in `format` is.
    private func report(_ batch: BatchID, from ledgers: BatchLedgers, _ console: Console) async throws {
        try await ledgers.withEach { [format] opened in
            let merged = try await BatchReport.read(batch, from: opened) { ledger, run in
                try await Self.read(ledger, id: run, format: format, failedOnly: false, listsResults: false)
            }
            switch format {
            case .table, .paths, .paths0: console.out(merged.table)
            case .html:
                var parts: [HTMLReport.Part] = []
                let budget = HTMLReport.maxFileRows / max(1, merged.parts.count)
                for part in merged.parts {
                    parts.append(try await HTMLReport.part(part.report, prefix: "p\(part.run.partition.index) · ", ledger: part.ledger, files: budget))
                }
                let finished = merged.parts.count - merged.unfinished.count
                let page = HTMLReport(title: "Batch \(batch)",
                                      subtitle: "\(CountText.of(merged.count, "partition")), \(finished) finished"
                                          + (merged.missing.isEmpty ? "" : "; missing: " + merged.missing.map(String.init).joined(separator: ", ")),
                                      parts: parts, missingParts: merged.missing, generatedAt: Date())
                try write(page.html, console)
            case .json: try await merged.writeJSON(to: console.out)
            case .csv: try await merged.writeCSV(to: console.out)
            }
        }
    }

    /// `--history`: the nights since `since` in `ledgers`, of the manifest at `manifestPath` when given.
    private func report(since: Date, of manifestPath: String?, from ledgers: BatchLedgers, _ console: Console) async throws {
        let history = try await ledgers.withEach { opened in
            try await RunHistory.read(since: since, manifestPath: manifestPath, from: opened)
        }
        switch format {
        case .json: console.line(history.json.serialized)
        case .html: try write(HTMLHistory(history: history, stateDirectories: ledgers.stateDirectories, generatedAt: Date()).html, console)
        default:
            guard !history.nights.isEmpty else {
                return console.line("no runs since \(RunText.time(since)) in \(ledgers.stateDirectories.joined(separator: ", "))")
            }
            console.out(history.table)
        }
    }

    /// The report of the run, with the files and results `format` shows apart from what CSV and JSON read page by
    /// page (``FilePages``): a table lists the failed, known bad and resultless files alone and no results
    /// (`--results`: every file and result); `--failed` the failed and known bad files (with their results, as CSV
    /// and JSON); JSON the failed files (its `failures`), CSV none.
    private static func read(_ ledger: SQLiteLedger, id: RunID, format: Format, failedOnly: Bool,
                             listsResults: Bool) async throws -> RunReport {
        let states: [FileState]? = switch (format, failedOnly, listsResults) {
        case (_, _, true): nil
        case (_, true, _): [.failed, .knownBad]
        case (.table, _, _), (.html, _, _), (.paths, _, _), (.paths0, _, _): [.failed, .knownBad, .noResult]
        case (.json, _, _): [.failed]
        case (.csv, _, _): []
        }
        var files: [FileRecord] = []
        if let states {
            for state in states { files += try await ledger.files(of: id, shard: nil, state: state) }
        } else {
            files = try await ledger.files(of: id, shard: nil, state: nil)
        }
        let needsResults = listsResults || (failedOnly && [.json, .csv].contains(format))
        return RunReport(summary: try await ledger.run(id), shards: try await ledger.shards(of: id), files: files,
                         statistics: try await ledger.statistics(of: id),
                         results: needsResults ? try await ledger.currentResults(of: id) : [])
    }

    /// Writes the page to `--output` (whole: a reader never sees half), else to standard output.
    private func write(_ page: String, _ console: Console) throws {
        guard let output else { return console.out(page) }
        do {
            try WholeFileWriter.write(page, to: output)
        } catch {
            throw CommandError.unwritableOutput(path: output, reason: error.reason)
        }
    }
}
