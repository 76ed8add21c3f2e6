import AssemblyLine
#if canImport(Glibc)
import Glibc
#endif

/// `assemblyline cancel RUN_ID|latest`: stops a run and cancels its live Assemblies; the run ends `canceled`.
struct CancelCommand: CLICommand {
    static let configuration = CommandConfiguration(
        commandName: "cancel",
        abstract: "Stop a run and cancel the Assemblies it left running; the run ends canceled.",
        discussion: """
            A run that is going (its process holds the run's lock) is recorded canceled, then sent SIGTERM: it \
            stops in order and exits 3 (canceled), not 2 (interrupted). Then each \
            Assembly of the run that may still be running is cancelled with DELETE at the endpoint, so that it \
            stops costing and counting against the account, and the run is recorded canceled (final: resume \
            refuses it). Exits 0 when done, 75 when the run's process does not stop within \
            \(Int(Self.grace.components.seconds)) s or another run of the manifest holds the lock.
            """,
        arguments: [ArgumentSpec(name: "run", help: "A run ID, or latest.")],
        options: LedgerOptions.specs)

    /// How long the run's process has to stop after SIGTERM.
    static let grace: Duration = .seconds(60)

    var runID: RunID?
    var ledgers: LedgerOptions

    init(_ values: ParsedValues) throws {
        runID = try RunID.argument(values.positional(0) ?? "")
        ledgers = LedgerOptions(values)
    }

    func validate() throws {
        try ledgers.validate()
    }

    func run(_ context: CommandContext) async throws {
        let console = context.console
        let (record, stateDirectory) = try await ledgers.locator().withRun(runID) { ledger, id, stateDirectory in
            (try await ledger.run(id).record, stateDirectory)
        }
        let cancel = RunCancel(store: RunWiring.ledgers, clock: context.clock, grace: Self.grace) { kill($0, SIGTERM) }
        let outcome = try await cancel.cancel(record, in: stateDirectory, stopping: { console.line("run \(record.id): stopping its process \($0)") }) { record in
            RunSession(manifest: try ConfigFileLoader.manifest(record.manifestPath), stateDirectory: stateDirectory, adapters: RunWiring())
        }
        switch outcome {
        case .alreadyEnded(let state):
            console.line("run \(record.id) is \(state); nothing to cancel")
        case let .canceled(cancelled, refused):
            for refusal in refused {
                console.error("warning: shard \(refusal.shard): cannot cancel Assembly \(refusal.assemblyID): \(refusal.error)\n")
            }
            console.line("run \(record.id) canceled: \(cancelled == 1 ? "1 Assembly" : "\(cancelled) Assemblies") cancelled at the endpoint")
        }
    }
}
