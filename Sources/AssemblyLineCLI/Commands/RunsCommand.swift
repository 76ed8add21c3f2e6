import AssemblyLine
import ConfigFormat
import SQLiteLedger

/// `assemblyline runs [--limit N] [--json]`: the recent runs of a ledger, newest first.
struct RunsCommand: CLICommand {
    static let configuration = CommandConfiguration(
        commandName: "runs",
        abstract: "List the recent runs recorded in a ledger, newest first.",
        discussion: "Reads <state-dir>/ledger.sqlite (default ./runs) without changing it; a state directory without a ledger has no runs.",
        options: [OptionSpec(name: "limit", valueName: "n", help: "Show at most n runs (default 20)."),
                  OptionSpec(name: "json", help: "Print the runs as JSON.")] + LedgerLocation.options)

    var limit: Int
    var json: Bool
    var location: LedgerLocation

    init(_ values: ParsedValues) throws {
        limit = try values.integer("limit", in: 1...1_000_000) ?? 20
        json = values.flag("json")
        location = LedgerLocation(values)
    }

    func validate() throws {
        try location.validate()
    }

    func run(_ console: Console) async throws {
        let (ledger, path, _) = try await location.openForReading()
        let runs = try await ledger?.recentRuns(limit: limit) ?? []
        await ledger?.close()
        if json {
            console.line(JSONValue.array(runs.map(RunText.json)).serialized)
        } else if runs.isEmpty {
            console.line("no runs recorded in \(path)")
        } else {
            console.out(RunText.table(runs))
        }
    }
}
