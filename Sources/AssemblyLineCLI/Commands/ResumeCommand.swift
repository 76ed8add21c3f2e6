import AssemblyLine

/// `assemblyline resume RUN_ID`: finishes what a run left undone, from each shard's state in the ledger.
struct ResumeCommand: CLICommand {
    static let resizesImages = true
    static let configuration = CommandConfiguration(
        commandName: "resume",
        abstract: "Finish a run: continue its unfinished shards and re-run its failed ones.",
        discussion: """
            Reads the run's manifest again (its recipe must not have changed, but for an edit of the file of \
            the account Template it names, pushed since). An Assembly that exists is polled, not created \
            again; a verified download is kept; a shard whose Template Assembly failed while executing is \
            replayed on its stored uploads; a shard past its results' lifetime runs again; completed shards \
            are never touched. Exit codes as for run; a canceled run is final (3). With --shard, only those \
            shards run and the exit code is theirs; the run stays interrupted while other shards are left.
            """,
        arguments: [ArgumentSpec(name: "run", help: "The run ID that run printed first, or latest.")],
        options: [OptionSpec(name: "shard", valueName: "n", help: "Only this shard (repeatable).", isRepeating: true)]
            + LedgerOptions.specs
            + RunOptions.specs)

    /// nil for `latest`.
    var runID: RunID?
    var shardFilter: Set<Int>
    var ledgers: LedgerOptions
    var options: RunOptions

    init(_ values: ParsedValues) throws {
        runID = try RunID.argument(values.positional(0) ?? "")
        shardFilter = Set(try values.options("shard").map { text in
            guard let index = Int(text), index >= 0 else { throw UsageError("--shard expects a shard number, found '\(text)'") }
            return index
        })
        ledgers = LedgerOptions(values)
        options = try RunOptions(values)
    }

    func validate() throws {
        try ledgers.validate()
    }

    func run(_ context: CommandContext) async throws {
        let signals = TerminationSignal()
        let (resumption, stateDirectory) = try await RunSession.resumption(of: runID, shards: shardFilter, at: try ledgers.locator())
        switch resumption {
        case let .finished(id):
            if !options.quiet { context.console.line("run \(id) is finished: every shard is done; nothing to resume", event: "run.finished") }
        case let .superseded(id, successor):
            if !options.quiet { context.console.line("run \(id) was taken over by run \(successor); nothing to resume", event: "run.superseded") }
        case let .resume(record):
            let loaded = try ConfigFileLoader.manifest(record.manifestPath)
            let manifest = options.applied(to: (record.partition.isWhole ? loaded : loaded.partitioned(record.partition)).inStateDirectory(stateDirectory))
            let session = RunSession(manifest: manifest, stateDirectory: stateDirectory, adapters: RunWiring(options))
            let pings = PingMonitor.make(manifest.monitoring, console: context.console)
            let console = pings?.console ?? context.console
            let progress = RunProgress(options: options, console: console, clock: context.clock, index: nil, pings: pings)
            try await PingMonitor.reporting(pings, configuration: Self.configuration, progress: progress) { [shardFilter, options] in
                let outcome = try await RunSupervision.run(signals, options: options, progress: progress) { stop in
                    try await session.resume(record, shards: shardFilter, maxDuration: options.maxDuration, observer: progress, stop: stop)
                }
                await MetricsFile.record(outcome, option: options.metricsFile, manifest: manifest, stateDirectory: stateDirectory, console: console)
                try RunEnded(outcome).check()
            }
        }
    }
}
