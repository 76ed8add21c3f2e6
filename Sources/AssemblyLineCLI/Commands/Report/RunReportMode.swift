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
        let locator = try ledgers.locator()
        try await locator.withRun(runID) { ledger, run, directory in
            let report = try await RunReport.read(run, from: ledger, in: directory, files: output.selection, results: output.needsResults,
                                                figures: output.needsFigures)
            try await output.emit(context.console) { write in
                switch output.format {
                case .table where output.listsResults: write(RunReportText.results(report))
                case .json where output.listsResults: write(ReportJSON.results(report).serialized + "\n")
                case .csv where output.listsResults: write(ReportCSV.results(report))
                case .paths, .paths0: write(ReportPaths.failed(report, nulTerminated: output.format == .paths0))
                case .table where output.failedOnly: write(RunReportText.failed(report))
                case .json where output.failedOnly: write(ReportJSON.failed(report) + "\n")
                case .csv where output.failedOnly: try await ReportCSV.write(RunFileListing(pages: .these(report.filesWithOutputs)), to: write)
                case .table: write(RunReportText.table(report, allShards: output.listsShards))
                case .html:
                    let detail = try await RunDetail.read(report, from: ledger, files: HTMLReport.maxFileRows)
                    let run = report.run
                    let page = HTMLReport(title: "Run \(run.id) · \(run.manifestName)",
                                          subtitle: "\(run.manifestPath), started \(RunText.time(run.createdAt))"
                                              + (run.finishedAt.map { ", ended \(RunText.time($0))" } ?? ""),
                                          parts: [("", detail)], generatedAt: context.clock.now)
                    write(page.html)
                case .json:
                    try await locator.withSecondReader(of: directory) { alongside in
                        let pages = FilePages.everyFile(ledger, run, shards: report.shards, alongside: alongside)
                        try await ReportJSON.write(ReportJSON.figures(of: report), files: RunFileListing(pages: pages), to: write)
                    }
                case .csv:
                    try await locator.withSecondReader(of: directory) { alongside in
                        try await ReportCSV.write(RunFileListing(pages: .everyFile(ledger, run, shards: report.shards, alongside: alongside)), to: write)
                    }
                }
            }
        }
    }
}
