import AssemblyLine

/// `assemblyline report RUN_ID|latest [--format table|json|csv|html]`: what the ledger knows of one run (or of a
/// batch's partitions with `--batch`, or of the nights since a time with `--history`).
struct ReportCommand: CLICommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Report what the ledger knows of a run: shards and files by state, failures by code.",
        discussion: """
            The table says how many shards are done and lists those that failed or are unfinished (--shards: every shard). \
            csv prints one row per file (per result with --results). --history prints a row per night instead (a batch's \
            partitions make one), oldest first, as table, json or html. Reads the ledger without changing it; an unknown run exits 65.
            """,
        arguments: [ArgumentSpec(name: "run", help: "A run ID, or latest (none with --batch or --history).", isOptional: true)],
        options: [OptionSpec(name: "format", valueName: "format",
                             help: "table (default), json, csv or html; with --failed also paths or paths0 (the failed files for run --files-from)."),
                  OptionSpec(name: "output", valueName: "file",
                             help: "Write the report to this file instead of standard output: replaced whole once written, csv and json streamed into it."),
                  OptionSpec(name: "failed", help: "Only the failed files, each with its error code and reason."),
                  OptionSpec(name: "results", help: "Each result of the run: its input, step, state, checks, and where it went (a path or a URL)."),
                  OptionSpec(name: "shards", help: "The table lists every shard, not only those that failed or are unfinished."),
                  OptionSpec(name: "batch", valueName: "id", help: "One report of a batch's partitions, merged from their ledgers (docs/scale-out.md)."),
                  OptionSpec(name: "history", help: "A row per night: files done, failed, skipped and known bad, elapsed, bytes, usage (docs/reports.md)."),
                  OptionSpec(name: "since", valueName: "duration", help: "With --history: the nights started within this long (default 30d)."),
                  OptionSpec(name: "state-dir", valueName: "dir",
                             help: "Use this state directory's ledger; with --batch or --history, repeatable, each a directory or a glob.",
                             isRepeating: true),
                  LedgerOptions.specs[1]])

    var output: ReportOutput
    /// What the report is of: a run, a batch, or the nights.
    var mode: any ReportMode
    var givesSince: Bool

    init(_ values: ParsedValues) throws {
        output = try ReportOutput(values)
        givesSince = values.option("since") != nil
        if values.flag("history") {
            mode = try HistoryReportMode(values)
        } else if values.option("batch") != nil {
            mode = try BatchReportMode(values)
        } else {
            mode = try RunReportMode(values)
        }
    }

    func validate() throws {
        try output.validate()
        if givesSince, !(mode is HistoryReportMode) { throw UsageError("--since narrows --history: add --history") }
        try mode.validate(output)
    }

    func run(_ context: CommandContext) async throws {
        try await mode.run(output, context)
    }
}

/// One kind of `report`: its own arguments, rules and reading; the output options are the command's.
protocol ReportMode: Sendable {
    /// Checks what this kind of report allows of `output` and of its own values.
    func validate(_ output: ReportOutput) throws

    func run(_ output: ReportOutput, _ context: CommandContext) async throws
}
