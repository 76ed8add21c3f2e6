import AssemblyLine
import Foundation

/// `assemblyline run MANIFEST`: plans, records the run in the ledger, and runs every shard to its end.
struct RunCommand: CLICommand {
    static let resizesImages = true
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a manifest: shard, sign, upload, poll, download and verify, recording every step.",
        discussion: """
            The first line on standard output is the run ID. Files that an earlier run of the same manifest \
            already did with the same recipe (same path, size and modification time) are skipped unless --force, \
            as long as the outputs it recorded are on disk with their sizes (--checksum: and MD5s); a file whose \
            outputs are missing or changed runs again. A file an earlier run failed for a reason of its own (the \
            service could not process it, and said a retry would not help) is left out while it is unchanged, \
            counted and listed as known_bad, unless --retry-failed. \
            Exits 0 when every shard is done, 1 when some failed (resume RUN_ID can retry them), 2 when stopped \
            by a signal or --max-duration (resume continues), 3 when canceled with cancel (final), 65 for an invalid manifest, 69 when the endpoint \
            or signer cannot be reached, 73 when an output cannot be written, 74 when the ledger cannot, 75 \
            when another run of the manifest holds the lock, 77 when credentials are refused, 78 when a secret \
            is missing (README has the table).
            """,
        arguments: [ArgumentSpec(name: "manifest", help: "The job manifest (YAML).")],
        options: PlanOptions.specs
            + [OptionSpec(name: "dry-run", help: "Print what the run would send and skip, and why (as plan does); send and write nothing.")]
            + RunOptions.specs)

    var plan: PlanOptions
    var dryRun: Bool
    var options: RunOptions

    init(_ values: ParsedValues) throws {
        plan = try PlanOptions(values)
        dryRun = values.flag("dry-run")
        options = try RunOptions(values)
    }

    func run(_ context: CommandContext) async throws {
        let signals = TerminationSignal()
        let (planned, stateDirectory) = try plan.manifest()
        let manifest = options.applied(to: planned)
        let session = plan.session(manifest, in: stateDirectory, adapters: RunWiring(options))
        if dryRun {
            return ForecastText.show(try await plan.forecast(session), of: manifest, json: false, console: context.console)
        }
        let pings = PingMonitor.make(manifest.monitoring, console: context.console)
        let console = pings?.console ?? context.console
        let progress = RunProgress(options: options, console: console, clock: context.clock,
                                   index: RunIndex(environment: ProcessInfo.processInfo.environment), pings: pings)
        try await PingMonitor.reporting(pings, configuration: Self.configuration, progress: progress) { [plan, options] in
            let outcome = try await RunSupervision.run(signals, options: options, progress: progress) { stop in
                defer { progress.tellWarnings() }
                return try await session.run(force: plan.force, checksums: plan.checksum, retryFailed: plan.retryFailed,
                                             resumingBatch: plan.parts.isGiven, maxDuration: options.maxDuration, observer: progress, stop: stop)
            }
            await MetricsFile.record(outcome, option: options.metricsFile, manifest: manifest, stateDirectory: stateDirectory, console: console)
            try RunEnded(outcome).check()
        }
    }
}
