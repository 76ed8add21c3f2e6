/// Everything the shards of one run share: the run, the ledger, the API client, the signer, the recipe and the pace.
public struct PipelineContext: Sendable {
    public var runID: RunID
    public var ledger: any RunLedger
    public var client: TransloaditClient
    public var downloader: ResultDownloader
    public var signer: any Signer
    /// Uploads the files after creation when the manifest says `upload.mode: tus`; nil sends them in the creating request.
    public var tus: TusUploader?
    public var params: AssemblyParams
    public var governor: Governor
    public var retry: RetryPolicy
    public var poll: PollSettings
    public var output: OutputSettings
    /// How long the service keeps results (Transloadit: 24 hours); a resume past it runs the shard again.
    public var resultLifetime: Duration
    /// Called for every shard event; must not block.
    public var report: @Sendable (ShardEvent) -> Void
    /// Called at every checkpoint, on any thread; must not block. Crash tests stop the process here.
    public var checkpoint: @Sendable (PipelineCheckpoint) -> Void
    /// Called with each increment of file bytes sent, on the transport's thread; must not block.
    public var sent: @Sendable (Int64) -> Void

    public init(runID: RunID, ledger: any RunLedger, client: TransloaditClient, downloader: ResultDownloader,
                signer: any Signer, tus: TusUploader? = nil, params: AssemblyParams, governor: Governor, retry: RetryPolicy,
                poll: PollSettings, output: OutputSettings, resultLifetime: Duration = .seconds(86_400),
                report: @escaping @Sendable (ShardEvent) -> Void,
                checkpoint: @escaping @Sendable (PipelineCheckpoint) -> Void = { _ in },
                sent: @escaping @Sendable (Int64) -> Void = { _ in }) {
        self.runID = runID
        self.ledger = ledger
        self.client = client
        self.downloader = downloader
        self.signer = signer
        self.tus = tus
        self.params = params
        self.governor = governor
        self.retry = retry
        self.poll = poll
        self.output = output
        self.resultLifetime = resultLifetime
        self.report = report
        self.checkpoint = checkpoint
        self.sent = sent
    }
}
