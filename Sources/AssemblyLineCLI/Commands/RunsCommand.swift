import AssemblyLine
import ConfigFormat
import Foundation
import SQLiteLedger

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
                  OptionSpec(name: "state", valueName: "state", help: "Only runs in this state: running, finished, failed, interrupted or canceled."),
                  OptionSpec(name: "since", valueName: "duration", help: "Only runs started within this long (such as 24h)."),
                  OptionSpec(name: "json", help: "Print the runs as JSON."),
                  OptionSpec(name: "batch", valueName: "id", help: "The runs of a batch's partitions, from their ledgers (docs/scale-out.md)."),
                  OptionSpec(name: "state-dir", valueName: "dir",
                             help: "Use this state directory's ledger; with --batch, repeatable, each a directory or a glob.", isRepeating: true),
                  LedgerLocation.options[1]])

    var limit: Int
    var state: RunState?
    var since: Duration?
    var json: Bool
    var location: LedgerLocation
    /// `--batch`: the batch and the ledgers of its partitions.
    var batch: (id: BatchID, ledgers: BatchLedgers)?
    var stateDirCount: Int

    init(_ values: ParsedValues) throws {
        limit = try values.integer("limit", in: 1...1_000_000) ?? 20
        state = try values.choice("state", as: RunState.self)
        since = try values.duration("since")
        json = values.flag("json")
        location = LedgerLocation(values)
        stateDirCount = values.options("state-dir").count
        if let text = values.option("batch") {
            guard let id = BatchID(rawValue: text) else { throw UsageError("--batch: expected \(BatchID.expected), found '\(text)'") }
            batch = (id, try BatchLedgers(values))
        }
    }

    func validate() throws {
        guard batch == nil else { return }
        if stateDirCount > 1 { throw UsageError("--state-dir is given once, unless with --batch") }
        try location.validate()
    }

    func run(_ console: Console) async throws {
        if let batch {
            let runs = try await batch.ledgers.withEach { [state] opened in
                var runs: [(run: RunRecord, stateDirectory: String)] = []
                for (ledger, directory) in opened {
                    runs += try await ledger.recentRuns(limit: 1_000, matching: RunFilter(state: state, batch: batch.id)).map { ($0, directory) }
                }
                return runs.sorted { ($0.run.partition.index, $1.run.id.rawValue) < ($1.run.partition.index, $0.run.id.rawValue) }
            }
            return show(runs, none: "no runs of batch \(batch.id) in \(CountText.of(batch.ledgers.stateDirectories.count, "ledger"))", console)
        }
        var filter = try location.filter()
        filter.state = state
        filter.since = since.map { Date().addingTimeInterval(-$0.timeInterval) }
        let (directories, parts) = try location.stateDirectories()
        if parts {
            var runs: [(run: RunRecord, stateDirectory: String)] = []
            for directory in directories where FileManager.default.fileExists(atPath: SQLiteLedger.path(inStateDirectory: directory)) {
                runs += try await SQLiteLedger.with(path: SQLiteLedger.path(inStateDirectory: directory), mode: .readOnly) { [limit, filter] ledger in
                    try await ledger.recentRuns(limit: limit, matching: filter).map { ($0, directory) }
                }
            }
            let newest = runs.sorted { ($0.run.createdAt, $0.run.id) > ($1.run.createdAt, $1.run.id) }.prefix(limit)
            return show(Array(newest), none: "no runs recorded in \(directories.joined(separator: ", "))", console)
        }
        let path = SQLiteLedger.path(inStateDirectory: try await location.locate(nil).stateDirectory)
        let runs = !FileManager.default.fileExists(atPath: path) ? [] : try await SQLiteLedger.with(path: path, mode: .readOnly) { [limit, filter] in
            try await $0.recentRuns(limit: limit, matching: filter)
        }
        if json {
            console.line(JSONValue.array(runs.map(RunText.json)).serialized)
        } else if runs.isEmpty {
            console.line("no runs recorded in \(path)")
        } else {
            console.out(RunText.table(runs))
        }
    }

    /// Runs of several ledgers, a batch's or a partitioned manifest's parts: each with its partition and state directory.
    private func show(_ runs: [(run: RunRecord, stateDirectory: String)], none: String, _ console: Console) {
        if json {
            console.line(JSONValue.array(runs.map { entry in
                var object = RunText.json(entry.run).objectValue ?? [:]
                object["state_dir"] = .string(entry.stateDirectory)
                return .object(object)
            }).serialized)
        } else if runs.isEmpty {
            console.line(none)
        } else {
            console.out(TextTable.render(header: ["PART", "RUN", "STATE", "FILES", "SKIPPED", "STARTED", "STATE DIR"], rows: runs.map { entry in
                [entry.run.partition.description, entry.run.id.rawValue, entry.run.state.rawValue, String(entry.run.fileCount),
                 String(entry.run.skippedCount), RunText.time(entry.run.createdAt), entry.stateDirectory]
            }, rightAligned: [3, 4]))
        }
    }
}
