import AssemblyLine

/// `report --batch ID`: one report of a batch's partitions, merged from their ledgers.
struct BatchReportMode: ReportMode {
    var batch: BatchID
    var ledgers: LedgerSet

    init(_ values: ParsedValues) throws {
        let text = values.option("batch") ?? ""
        guard let id = BatchID(rawValue: text) else { throw UsageError("--batch: expected \(BatchID.expected), found '\(text)'") }
        guard values.positional(0) == nil else { throw UsageError("--batch reports a batch, not a run: drop the run ID") }
        batch = id
        ledgers = try LedgerPatterns.ledgers(values)
    }

    func validate(_ output: ReportOutput) throws {
        try output.requireWholeReport("--batch merges the whole report")
        try LedgerPatterns.requireSome(ledgers)
    }

    func run(_ output: ReportOutput, _ context: CommandContext) async throws {
        try await ledgers.withEach { [batch] opened in
            let merged = try await BatchReport.read(batch, from: opened, files: output.selection)
            try await output.emit(context.console) { write in
                switch output.format {
                case .table, .paths, .paths0: write(BatchReportText.table(merged))
                case .html:
                    var parts: [(prefix: String, detail: RunDetail)] = []
                    let budget = HTMLReport.maxFileRows / max(1, merged.parts.count)
                    for part in merged.parts {
                        parts.append(("p\(part.run.partition.index) · ", try await RunDetail.read(part.report, from: part.ledger, files: budget)))
                    }
                    let finished = merged.parts.count - merged.unfinished.count
                    let page = HTMLReport(title: "Batch \(batch)",
                                          subtitle: "\(CountText.of(merged.count, "partition")), \(finished) finished"
                                              + (merged.missing.isEmpty ? "" : "; missing: " + merged.missing.map(String.init).joined(separator: ", ")),
                                          parts: parts, missingParts: merged.missing, generatedAt: context.clock.now)
                    write(page.html)
                case .json: try await ReportJSON.write(ReportJSON.figures(of: merged), files: merged, to: write)
                case .csv: try await ReportCSV.write(merged, to: write)
                }
            }
        }
    }
}
