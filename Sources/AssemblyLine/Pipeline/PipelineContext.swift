/// Everything the shards of one run share: the run, the ledger, the API client, the signer, the recipe and the pace.
package struct PipelineContext: Sendable {
    package var runID: RunID
    package var ledger: any RunLedger
    package var client: TransloaditClient
    package var downloader: ResultDownloader
    package var signer: any Signer
    /// Uploads the files after creation when the manifest says `upload.mode: tus`; nil sends them in the creating request.
    package var tus: TusUploader?
    package var params: AssemblyParams
    package var governor: Governor
    /// Whether the shards may still create Assemblies; closed by the ``breaker``, or from the start for a takeover.
    package var creations: CreationGate
    /// Counts each shard's end and closes ``creations`` when the first ends fail alike or a local fault comes.
    package var breaker: FailureBreaker
    package var retry: RetryPolicy
    package var poll: PollSettings
    package var output: OutputSettings
    /// How long the service keeps results (Transloadit: 24 hours); a resume past it runs the shard again.
    package var resultLifetime: Duration
    /// What an Assembly's answer may hold: results per file (the machine's bound; the downloader holds the bytes).
    package var resultLimits: ResultLimits
    /// Called for every shard event; must not block.
    package var report: @Sendable (ShardEvent) -> Void
    /// Called at every checkpoint, on any thread; must not block. Crash tests stop the process here.
    package var checkpoint: @Sendable (PipelineCheckpoint) -> Void
    /// Called with each increment of file bytes sent, on the transport's thread; must not block.
    package var sent: @Sendable (Int64) -> Void
    /// Time for the ledger and expiries, and every wait of the pipeline.
    package var clock: any PipelineClock
    /// Fixes the shards' retry jitter (each shard adds its index).
    package var seed: UInt64

    package init(runID: RunID, ledger: any RunLedger, client: TransloaditClient, downloader: ResultDownloader,
                signer: any Signer, tus: TusUploader? = nil, params: AssemblyParams, governor: Governor, creations: CreationGate = CreationGate(),
                breaker: FailureBreaker? = nil, retry: RetryPolicy,
                poll: PollSettings, output: OutputSettings, resultLifetime: Duration = .seconds(86_400),
                resultLimits: ResultLimits = ResultLimits(),
                report: @escaping @Sendable (ShardEvent) -> Void,
                checkpoint: @escaping @Sendable (PipelineCheckpoint) -> Void = { _ in },
                sent: @escaping @Sendable (Int64) -> Void = { _ in },
                clock: any PipelineClock = SystemClock(), seed: UInt64 = .random(in: .min ... .max)) {
        self.runID = runID
        self.ledger = ledger
        self.client = client
        self.downloader = downloader
        self.signer = signer
        self.tus = tus
        self.params = params
        self.governor = governor
        self.creations = creations
        self.breaker = breaker ?? FailureBreaker(threshold: 0, gate: creations)
        self.retry = retry
        self.poll = poll
        self.output = output
        self.resultLifetime = resultLifetime
        self.resultLimits = resultLimits
        self.report = report
        self.checkpoint = checkpoint
        self.sent = sent
        self.clock = clock
        self.seed = seed
    }
}
