import AssemblyLine

/// `assemblyline plan MANIFEST [--json]`: validates, expands the globs, shards, and prints what `run` would send and skip; writes nothing.
struct PlanCommand: CLICommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Show what a run of a manifest would send and skip, without sending or writing anything.",
        discussion: """
            Expands the input globs, takes out the files an earlier run already did (as run does: their \
            outputs must be in place), cuts the rest into shards, and prints each shard's files and bytes, the \
            totals, what is skipped, what is left out as known bad, and what runs again and why. Unreadable entries are warnings on standard \
            error; no match at all exits 65. Its options take the files as run's do.
            """,
        arguments: [ArgumentSpec(name: "manifest", help: "The job manifest (YAML).")],
        options: [OptionSpec(name: "json", help: "Print the plan, with every file, as JSON.")] + PlanOptions.specs)

    var json: Bool
    var plan: PlanOptions

    init(_ values: ParsedValues) throws {
        json = values.flag("json")
        plan = try PlanOptions(values)
    }

    func run(_ context: CommandContext) async throws {
        let (manifest, stateDirectory) = try plan.manifest()
        let forecast = try await plan.forecast(plan.session(manifest, in: stateDirectory, adapters: RunWiring()))
        ForecastText.show(forecast, of: manifest, json: json, console: context.console)
    }
}
