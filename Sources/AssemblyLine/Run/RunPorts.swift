/// What a run needs from outside the domain, opened for one state directory: its ledger, the API, the signer, the clock.
///
/// The CLI wires the adapters (``RunAdapters``); in-process tests give a real ledger, a scripted
/// transport and a manual clock.
package struct RunPorts: Sendable {
    package var ledger: any RunLedger
    package var transport: any HTTPTransport
    package var signer: any Signer
    /// The Assembly API's base URL.
    package var endpoint: String
    /// The Auth Key the params carry.
    package var key: String
    /// True when the endpoint is a service this process runs for the run: it needs no preflight.
    package var endpointIsEmbedded: Bool
    /// Time for the ledger, the run ID and expiries, and every wait of the run.
    package var clock: any PipelineClock
    /// Called at every checkpoint of the pipeline; crash tests stop the process here.
    package var checkpoint: @Sendable (PipelineCheckpoint) -> Void
    /// Fixes the shards' retry jitter.
    package var seed: UInt64

    package init(ledger: any RunLedger, transport: any HTTPTransport, signer: any Signer, endpoint: String, key: String,
                endpointIsEmbedded: Bool, clock: any PipelineClock, checkpoint: @escaping @Sendable (PipelineCheckpoint) -> Void = { _ in },
                seed: UInt64) {
        self.ledger = ledger
        self.transport = transport
        self.signer = signer
        self.endpoint = endpoint
        self.key = key
        self.endpointIsEmbedded = endpointIsEmbedded
        self.clock = clock
        self.checkpoint = checkpoint
        self.seed = seed
    }
}
