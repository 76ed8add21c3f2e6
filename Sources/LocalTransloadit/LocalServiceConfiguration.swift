package import AssemblyLine

/// How a local Transloadit-compatible service is started: where, with which credentials, limits and faults.
///
/// The defaults are those of the embedded service (`endpoint: embedded`): loopback, a port the
/// system chooses, a generated key and secret, signatures required, Transloadit's own rate
/// limits (250 creations a minute, 3 status requests per Assembly a second), 24 h results and the system clock.
package struct LocalServiceConfiguration: Sendable {
    /// The address to listen on (numeric IPv4/IPv6 or `localhost`).
    package var host: String
    /// 0 lets the system choose a free port.
    package var port: UInt16
    /// Where Assemblies, uploads and results are kept; created when missing.
    package var dataDirectory: String
    /// nil generates a fresh pair for this run (read it back from ``RunningService``).
    package var credentials: ServiceCredentials?
    /// False accepts requests without a signature (the key must still match).
    package var requireSignature: Bool
    /// True refuses signed creation params seen before (`SIGNATURE_REUSE_DETECTED`).
    package var detectSignatureReuse: Bool
    /// The Templates held from the start, by Template ID (``TemplateLibrary``); the Template API adds others,
    /// kept in the data directory.
    package var templates: TemplateLibrary
    package var faults: FaultPlan?
    /// Worker threads that execute Assemblies.
    package var workers: Int
    /// How long result and upload files are served after an Assembly ends.
    package var resultTTL: Duration
    /// True deletes a completed Assembly's uploads once each of its results has been fetched, before their
    /// lifetime ends: the embedded service's, whose only client has the inputs on its own disk. `serve` keeps
    /// them for their lifetime, as Transloadit does; a failed Assembly keeps them either way, for its replay.
    package var dropsUploadsOnceFetched = false
    /// Assembly creations allowed per minute; 0 for no limit.
    package var creationsPerMinute: Int
    /// Status requests allowed per Assembly per second; 0 for no limit.
    package var statusRequestsPerSecond: Int
    /// The largest tus upload accepted (`Tus-Max-Size`).
    package var maxUploadSize: Int64
    /// The most connections open at once (one thread each).
    package var maxConnections: Int
    /// The most connections open at once from one client address, so that one address cannot take every slot.
    package var maxConnectionsPerAddress: Int
    /// Where fault and error notices go.
    package var log: ServiceLog
    /// A machine goes away for good after serving this many requests, and a new one takes over; nil keeps one machine.
    package var cycleMachinesAfter: Int?
    /// The Template Credentials the account holds, by name: what `/s3/import` and `/minio/import` steps name in
    /// `credentials` (`serve --template-credentials FILE`).
    package var templateCredentials: [String: TemplateCredential] = [:]
    /// How the import Robots fetch (the CLI gives a `CurlTransport`); nil fails every import step. A transport of the
    /// service's own: a stop aborts every transfer in flight on it (``HTTPTransport/cancelAll()``).
    package var importTransport: (any HTTPTransport)?
    /// True lets imports reach this machine and private networks: test endpoints (the embedded service, whose only
    /// client is on this machine; `serve --allow-local-imports`). Link-local and cloud metadata addresses never.
    package var allowsLocalImports = false
    /// The largest file one import fetches (10 GiB by default).
    package var maxImportSize: Int64 = 10 << 30
    /// Where the service reads the time now: Assemblies' times, signatures' expiry, results' lifetime.
    ///
    /// Its waits (the expiry sweeper's timer, change streams' keep-alives) and its rate limits keep real, monotonic time.
    package var clock: any PipelineClock

    /// How many requests a machine serves before it goes away: ``cycleMachinesAfter``, else the faults file's `machines`.
    package var machineLifetime: Int? { cycleMachinesAfter ?? faults?.machinesCycleAfter }

    package init(
        host: String = "127.0.0.1", port: UInt16 = 0, dataDirectory: String, credentials: ServiceCredentials? = nil,
        requireSignature: Bool = true, detectSignatureReuse: Bool = true, templates: TemplateLibrary = .empty,
        faults: FaultPlan? = nil, workers: Int = 2, resultTTL: Duration = .seconds(86_400),
        creationsPerMinute: Int = 250, statusRequestsPerSecond: Int = 3,
        maxUploadSize: Int64 = 200 * 1_000_000_000, maxConnections: Int = 1024, maxConnectionsPerAddress: Int = 256,
        log: ServiceLog = .silent, cycleMachinesAfter: Int? = nil, clock: any PipelineClock = SystemClock()
    ) {
        self.host = host
        self.port = port
        self.dataDirectory = dataDirectory
        self.credentials = credentials
        self.requireSignature = requireSignature
        self.detectSignatureReuse = detectSignatureReuse
        self.templates = templates
        self.faults = faults
        self.workers = workers
        self.resultTTL = resultTTL
        self.creationsPerMinute = creationsPerMinute
        self.statusRequestsPerSecond = statusRequestsPerSecond
        self.maxUploadSize = maxUploadSize
        self.maxConnections = maxConnections
        self.maxConnectionsPerAddress = maxConnectionsPerAddress
        self.log = log
        self.cycleMachinesAfter = cycleMachinesAfter
        self.clock = clock
    }
}
