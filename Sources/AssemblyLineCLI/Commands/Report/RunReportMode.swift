import AssemblyLine
import ConfigFormat
import Foundation

/// `report RUN_ID|latest`: one run's report, in every format.
struct RunReportMode: ReportMode {
    /// nil for `latest`.
    var runID: RunID?
    var ledgers: LedgerOptions
    var stateDirCount: Int

    init(_ values: ParsedValues) throws {
        guard let run = values.positional(0) else { throw UsageError("missing expected argument '<run>' (a run ID, or latest)") }
        runID = try RunID.argument(run)
        ledgers = LedgerOptions(values)
        stateDirCount = values.options("state-dir").count
    }

    func validate(_ output: ReportOutput) throws {
        if stateDirCount > 1 { throw UsageError("--state-dir is given once, unless with --batch") }
        try ledgers.validate()
    }

    func run(_ output: ReportOutput, _ context: CommandContext) async throws {
        let console = context.console
        try await ledgers.locator().withRun(runID) { ledger, run, _ in
            let report = try await RunReport.read(run, from: ledger, files: output.selection, results: output.needsResults)
            switch output.format {
            case .table where output.listsResults: console.out(RunReportText.results(report))
            case .json where output.listsResults: console.line(ReportJSON.results(report).serialized)
            case .csv where output.listsResults: console.out(ReportCSV.results(report))
            case .paths, .paths0: console.out(ReportPaths.failed(report, nulTerminated: output.format == .paths0))
            case .table where output.failedOnly: console.out(RunReportText.failed(report))
            case .json where output.failedOnly: console.line(ReportJSON.failed(report).serialized)
            case .csv where output.failedOnly: try await ReportCSV.write(RunFileListing(pages: .these(report.filesWithOutputs)), to: console.out)
            case .table: console.out(RunReportText.table(report))
            case .html:
                let detail = try await RunDetail.read(report, from: ledger, files: HTMLReport.maxFileRows)
                let run = report.run
                let page = HTMLReport(title: "Run \(run.id) · \(run.manifestName)",
                                      subtitle: "\(run.manifestPath), started \(RunText.time(run.createdAt))"
                                          + (run.finishedAt.map { ", ended \(RunText.time($0))" } ?? ""),
                                      parts: [("", detail)], generatedAt: context.clock.now)
                try output.write(page: page.html, console)
            case .json:
                try await ReportJSON.write(ReportJSON.figures(of: report), files: RunFileListing(pages: .everyFile(ledger, run, shards: report.shards)),
                                           to: console.out)
            case .csv: try await ReportCSV.write(RunFileListing(pages: .everyFile(ledger, run, shards: report.shards)), to: console.out)
            }
        }
    }
}
