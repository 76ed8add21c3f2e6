import AssemblyLine
import ConfigFormat

/// `assemblyline prune --older-than DURATION [--dry-run]`: old runs out of the ledger, and the embedded service's old files.
struct PruneCommand: CLICommand {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "Delete runs older than a duration from the ledger, and the embedded service's old Assemblies.",
        discussion: """
            Deletes every run of the state directory created more than --older-than ago that is not running and \
            not among the newest --keep-last of its job, with all its rows, and the embedded service's Assemblies \
            (uploads and results) last changed that long ago. A file that only a pruned run did or skipped is no \
            longer skipped by the next run, but what the runs kept rely on stays. A run whose process is gone is \
            recorded interrupted first. Refused (75) \
            while a run of the state directory holds its lock. A manifest whose state_dir names {partition}: each \
            part's state directory, none while a run of any holds its lock. --dry-run lists what would go and changes nothing.
            """,
        options: [OptionSpec(name: "older-than", valueName: "duration", help: "Prune what is older than this, such as 30d.", isRequired: true),
                  OptionSpec(name: "keep-last", valueName: "n", help: "Keep the newest n runs of each job, and the done files they rely on (default 1)."),
                  OptionSpec(name: "dry-run", help: "List what would be pruned and how many done files would be forgotten; change nothing.")]
            + LedgerOptions.specs)

    var olderThan: Duration
    var keepLast: Int
    var dryRun: Bool
    var ledgers: LedgerOptions

    init(_ values: ParsedValues) throws {
        // The parser has asked for --older-than already (it is required).
        olderThan = try values.duration("older-than") ?? .zero
        keepLast = try values.integer("keep-last", in: 1...1_000_000) ?? 1
        dryRun = values.flag("dry-run")
        ledgers = LedgerOptions(values)
    }

    func validate() throws {
        try ledgers.validate()
    }

    func run(_ context: CommandContext) async throws {
        let console = context.console
        let prune = LedgerPrune(store: RunWiring.ledgers, embedded: EmbeddedServiceAssemblies(), clock: context.clock)
        let verb = dryRun ? "would prune" : "pruned"
        try await prune.prune(try ledgers.locator().stateDirectories().directories, olderThan: olderThan, keepLast: keepLast, dryRun: dryRun) { outcome in
            if !outcome.hadLedger {
                console.line("no ledger in \(outcome.stateDirectory) (no \(RunWiring.ledgers.ledgerPath(inStateDirectory: outcome.stateDirectory))): "
                    + "no runs to prune; is it the state directory you meant (--state-dir DIR, or --manifest FILE for the manifest's)?")
            }
            for run in outcome.runs { console.line("\(verb) run \(run.id) (\(run.manifestName), \(run.state))") }
            let assemblies = outcome.assemblies.count
            console.line("\(verb) \(CountText.of(outcome.runs.count, "run")) and "
                + "\(assemblies == 1 ? "1 embedded Assembly" : "\(assemblies) embedded Assemblies") "
                + "older than \(ConfigUnits.formatDuration(olderThan)) in \(outcome.stateDirectory), keeping the newest \(keepLast) of each job; "
                + "\(dryRun ? "would forget" : "forgot") \(CountText.of(outcome.doneFiles, "done file")) (the next run sends them again)")
        }
    }
}
