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
            ledger has no runs. With --manifest, only that manifest's runs; --state and --since narrow them \
            further ("what failed last night": runs --state failed --since 24h).
            """,
        options: [OptionSpec(name: "limit", valueName: "n", help: "Show at most n runs (default 20)."),
                  OptionSpec(name: "state", valueName: "state", help: "Only runs in this state: running, finished, failed, interrupted or canceled."),
                  OptionSpec(name: "since", valueName: "duration", help: "Only runs started within this long (such as 24h)."),
                  OptionSpec(name: "json", help: "Print the runs as JSON.")] + LedgerLocation.options)

    var limit: Int
    var state: RunState?
    var since: Duration?
    var json: Bool
    var location: LedgerLocation

    init(_ values: ParsedValues) throws {
        limit = try values.integer("limit", in: 1...1_000_000) ?? 20
        state = try values.choice("state", as: RunState.self)
        since = try values.duration("since")
        json = values.flag("json")
        location = LedgerLocation(values)
    }

    func validate() throws {
        try location.validate()
    }

    func run(_ console: Console) async throws {
        var filter = try location.filter()
        filter.state = state
        filter.since = since.map { Date().addingTimeInterval(-$0.timeInterval) }
        let (runs, path) = try await location.withLedgerForReading { [limit, filter] ledger, path in
            (try await ledger?.recentRuns(limit: limit, matching: filter) ?? [], path)
        }
        if json {
            console.line(JSONValue.array(runs.map(RunText.json)).serialized)
        } else if runs.isEmpty {
            console.line("no runs recorded in \(path)")
        } else {
            console.out(RunText.table(runs))
        }
    }
}
