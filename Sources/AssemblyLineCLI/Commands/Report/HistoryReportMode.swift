import AssemblyLine
import ConfigFormat
import Foundation

/// `report --history [--since 30d]`: a row per night of the ledgers read, oldest first.
struct HistoryReportMode: ReportMode {
    /// How far back a night may have started.
    var span: Duration
    var ledgers: LedgerSet
    /// The job whose runs count (nil: all), from `--manifest`.
    var job: ManifestJob?

    init(_ values: ParsedValues) throws {
        guard values.positional(0) == nil, values.option("batch") == nil else {
            throw UsageError("--history reports every night of the ledgers: drop the run ID and --batch")
        }
        span = try values.duration("since") ?? RunHistory.defaultSpan
        ledgers = try LedgerPatterns.ledgers(values, defaultDirectory: ManifestDefaults.stateDir)
        job = try values.option("manifest").map { try ConfigFileLoader.manifest($0).job }
    }

    func validate(_ output: ReportOutput) throws {
        try output.requireWholeReport("--history is a row per night")
        if ![.table, .json, .html].contains(output.format) { throw UsageError("--history: expected --format table, json or html, found \(output.format)") }
        try LedgerPatterns.requireSome(ledgers)
    }

    func run(_ output: ReportOutput, _ context: CommandContext) async throws {
        let since = context.clock.now.addingTimeInterval(-span.timeInterval)
        let history = try await ledgers.withEach { [job] opened in
            try await RunHistory.read(since: since, job: job, from: opened)
        }
        let directories = ledgers.stateDirectories
        try await output.emit(context.console) { write in
            switch output.format {
            case .json: write(HistoryText.json(history).serialized + "\n")
            case .html: write(HTMLHistory(history: history, stateDirectories: directories, generatedAt: context.clock.now).html)
            default:
                guard !history.nights.isEmpty else {
                    return write("no runs since \(RunText.time(since)) in \(directories.joined(separator: ", "))\n")
                }
                write(HistoryText.table(history))
            }
        }
    }
}
