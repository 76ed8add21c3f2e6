import AssemblyLine
import ConfigFormat
import Foundation

/// `assemblyline runs [--limit N] [--state STATE] [--since DURATION] [--json]`: the recent runs of a ledger, newest first.
struct RunsCommand: CLICommand {
    static let configuration = CommandConfiguration(
        commandName: "runs",
        abstract: "List the recent runs recorded in a ledger, newest first.",
        discussion: """
            Reads <state-dir>/ledger.sqlite (default ./runs) without changing it; a state directory without a \
            ledger has no runs. With --manifest, only that manifest's runs (every part's, with its partition and \
            state directory, when its state_dir names {partition}); --state and --since narrow them \
            further ("what failed last night": runs --state failed --since 24h).
            """,
        options: [OptionSpec(name: "limit", valueName: "n", help: "Show at most n runs (default 20)."),
                  OptionSpec(name: "state", valueName: "state", help: "Only runs in this state: running, finished, failed, interrupted, canceled or superseded."),
                  OptionSpec(name: "since", valueName: "duration", help: "Only runs started within this long (such as 24h)."),
                  OptionSpec(name: "json", help: "Print the runs as JSON."),
                  OptionSpec(name: "batch", valueName: "id", help: "The runs of a batch's partitions, from their ledgers (docs/scale-out.md)."),
                  OptionSpec(name: "state-dir", valueName: "dir",
                             help: "Use this state directory's ledger; with --batch, repeatable, each a directory or a glob.", isRepeating: true),
                  LedgerOptions.specs[1]])

    var limit: Int
    var state: RunState?
    var since: Duration?
    var json: Bool
    var ledgers: LedgerOptions
    /// `--batch`: the batch and the ledgers of its partitions.
    var batch: (id: BatchID, ledgers: LedgerSet)?
    var stateDirCount: Int

    init(_ values: ParsedValues) throws {
        limit = try values.integer("limit", in: 1...1_000_000) ?? 20
        state = try values.choice("state", as: RunState.self)
        since = try values.duration("since")
        json = values.flag("json")
        ledgers = LedgerOptions(values)
        stateDirCount = values.options("state-dir").count
        if let text = values.option("batch") {
            guard let id = BatchID(rawValue: text) else { throw UsageError("--batch: expected \(BatchID.expected), found '\(text)'") }
            batch = (id, try LedgerPatterns.ledgers(values))
        }
    }

    func validate() throws {
        guard batch == nil else { return }
        if stateDirCount > 1 { throw UsageError("--state-dir is given once, unless with --batch") }
        try ledgers.validate()
    }

    func run(_ context: CommandContext) async throws {
        if let batch {
            let listing = try await RunListing.runs(of: batch.id, state: state, in: batch.ledgers)
            return show(listing, none: "no runs of batch \(batch.id) in \(listing.place)", context.console)
        }
        let since = since.map { context.clock.now.addingTimeInterval(-$0.timeInterval) }
        let listing = try await RunListing.recent(limit: limit, state: state, since: since, at: try ledgers.locator())
        show(listing, none: "no runs recorded in \(listing.place)", context.console)
    }

    /// The runs as a table or JSON; those of several ledgers (a batch's or a partitioned manifest's parts) each with
    /// its partition and state directory.
    private func show(_ listing: RunListing, none: String, _ console: Console) {
        let several = listing.fromSeveralLedgers
        if json {
            console.line(JSONValue.array(listing.entries.map { entry in
                guard several else { return RunText.json(entry.run) }
                var object = RunText.json(entry.run).objectValue ?? [:]
                object["state_dir"] = .string(entry.stateDirectory)
                return .object(object)
            }).serialized)
        } else if listing.entries.isEmpty {
            console.line(none)
        } else if !several {
            console.out(RunText.table(listing.entries.map(\.run)))
        } else {
            console.out(TextTable.render(header: ["PART", "RUN", "STATE", "FILES", "SKIPPED", "STARTED", "STATE DIR"], rows: listing.entries.map { entry in
                [entry.run.partition.description, entry.run.id.rawValue, entry.run.state.rawValue, String(entry.run.fileCount),
                 String(entry.run.skippedCount), RunText.time(entry.run.createdAt), entry.stateDirectory]
            }, rightAligned: [3, 4]))
        }
    }
}
