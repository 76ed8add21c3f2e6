import AssemblyLine
import ConfigFormat

/// `assemblyline prune --older-than DURATION | --orphans --manifest FILE [--dry-run]`: old runs out of the ledger, the
/// embedded service's old files, and the outputs of inputs gone.
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
            part's state directory, none while a run of any holds its lock. --orphans (with --manifest) removes the \
            outputs of inputs deleted since they were made (or no longer matched), as check MANIFEST lists them: \
            each that is on disk as it was made and under output.dir, then the file's entry in the done index; one \
            changed since is left and said. An inputs directory that is missing or matches nothing is refused. \
            --dry-run lists what would go and changes nothing.
            """,
        options: [OptionSpec(name: "older-than", valueName: "duration", help: "Prune what is older than this, such as 30d."),
                  OptionSpec(name: "orphans", help: "Remove the outputs of the manifest's inputs that are gone, and their done files (needs --manifest)."),
                  OptionSpec(name: "keep-last", valueName: "n", help: "Keep the newest n runs of each job, and the done files they rely on (default 1)."),
                  OptionSpec(name: "dry-run", help: "List what would be pruned and how many done files would be forgotten; change nothing.")]
            + LedgerOptions.specs)

    var olderThan: Duration?
    var orphans: Bool
    var keepLast: Int
    var dryRun: Bool
    var ledgers: LedgerOptions

    init(_ values: ParsedValues) throws {
        olderThan = try values.duration("older-than")
        orphans = values.flag("orphans")
        keepLast = try values.integer("keep-last", in: 1...1_000_000) ?? 1
        dryRun = values.flag("dry-run")
        ledgers = LedgerOptions(values)
    }

    func validate() throws {
        try ledgers.validate()
        guard olderThan != nil || orphans else { throw UsageError("prune needs --older-than DURATION, --orphans, or both") }
        if orphans && ledgers.manifest == nil { throw UsageError("--orphans needs --manifest FILE: the inputs that are gone are the manifest's") }
    }

    func run(_ context: CommandContext) async throws {
        let verb = dryRun ? "would prune" : "pruned"
        if let olderThan { try await pruneRuns(olderThan: olderThan, verb: verb, console: context.console, clock: context.clock) }
        if orphans, let path = ledgers.manifest {
            let manifest = try ConfigFileLoader.manifest(path)
            let prune = OrphanPrune(locator: try ledgers.locator(for: manifest))
            let outcome = try await prune.prune(manifest, check: OutputCheck(checksums: nil), dryRun: dryRun, remote: context.remoteInputs)
            for path in outcome.removed { context.console.line("\(dryRun ? "would remove" : "removed") \(path)") }
            for (path, reason) in outcome.left { context.console.line("left \(path): \(reason)") }
            context.console.line("\(dryRun ? "would remove" : "removed") \(CountText.of(outcome.removed.count, "orphaned output")) and "
                + "\(dryRun ? "would forget" : "forgot") \(CountText.of(outcome.files, "done file")) whose input is gone")
        }
    }

    private func pruneRuns(olderThan: Duration, verb: String, console: Console, clock: any PipelineClock) async throws {
        let prune = LedgerPrune(store: RunWiring.ledgers, embedded: EmbeddedServiceAssemblies(), clock: clock)
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
