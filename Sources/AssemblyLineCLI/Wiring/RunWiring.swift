import AssemblyLine
import CurlTransport
import Digests
import Foundation
import LocalTransloadit
import SQLiteLedger

/// The adapters a run needs, wired from its manifest: the ledger, the API endpoint (or the embedded service),
/// the signer and the transport. The only place that puts them together.
struct RunWiring: RunAdapters {
    /// The ledgers of state directories, as SQLite files: what every command that reads a ledger opens.
    static let ledgers: any LedgerStore = SQLiteLedgerStore()

    let digester: any FileDigester = LibcryptoFileDigester()
    var ledgers: any LedgerStore { Self.ledgers }
    /// Passed at every pipeline checkpoint: the crash tests' kill switch, in debug builds.
    var checkpoint: @Sendable (PipelineCheckpoint) -> Void = { _ in }

    init() {}

    /// The wiring of a `run` or `resume` with its options.
    init(_ options: RunOptions) {
        #if DEBUG
        if let killSwitch = options.killSwitch { checkpoint = killSwitch.checkpoint }
        #endif
    }

    func bucketLister(for bucket: BucketInputSettings) throws -> S3BucketLister {
        try RemoteInputWiring(clock: SystemClock()).bucketLister(for: bucket)
    }

    func headProbe(rule: InputURLRule) -> URLHeadProbe {
        RemoteInputWiring(clock: SystemClock()).headProbe(rule: rule)
    }

    func withPorts<T: Sendable>(for manifest: Manifest, stateDirectory: String,
                                _ body: (RunPorts) async throws -> T) async throws -> T {
        try await ledgers.withLedger(in: stateDirectory) { ledger in
            let (ports, embedded) = try wire(manifest, stateDirectory: stateDirectory, ledger: ledger)
            defer { embedded?.stop() }
            return try await body(ports)
        }
    }

    /// The ports of `manifest` over `ledger`: the embedded service started when the manifest asks for it, the signer built.
    private func wire(_ manifest: Manifest, stateDirectory: String, ledger: any RunLedger) throws -> (RunPorts, RunningService?) {
        let transport = CurlTransport()
        func ports(endpoint: String, key: String, signer: any Signer, embedded: Bool) -> RunPorts {
            RunPorts(ledger: ledger, transport: transport, signer: signer, endpoint: endpoint, key: key, endpointIsEmbedded: embedded,
                     clock: SystemClock(), checkpoint: checkpoint, seed: .random(in: .min ... .max))
        }
        do {
            switch manifest.endpoint {
            case .embedded:
                var credentials: ServiceCredentials?
                if case .local(let source) = manifest.signer {
                    credentials = ServiceCredentials(key: manifest.auth.key ?? "embedded", secret: try SecretReader().read(source))
                }
                let service = try Self.startEmbedded(in: Self.embeddedServiceDirectory(in: stateDirectory), credentials: credentials,
                                                     importing: manifest.inputs.bucket, transport: transport)
                return (ports(endpoint: service.baseURL, key: service.key, signer: HMACSigner(secret: service.secret), embedded: true), service)
            case .url(let url):
                return (ports(endpoint: url, key: manifest.auth.key ?? "", signer: try Self.accountSigner(of: manifest, transport: transport),
                              embedded: false), nil)
            }
        } catch {
            throw Self.wiringFailure(error, manifest: manifest)
        }
    }

    /// The account's Templates as `manifest`'s endpoint, key and signer reach them (`templates pull|diff|push|list`).
    static func templateAccess(of manifest: Manifest, clock: any PipelineClock) throws -> TemplateAccess {
        guard case .url(let url) = manifest.endpoint else { throw TemplateSyncError.embeddedEndpoint(manifest: manifest.file) }
        let transport = CurlTransport()
        do {
            let signer = try accountSigner(of: manifest, transport: transport)
            return TemplateAccess(client: TransloaditClient(transport: transport, endpoint: url), signer: signer, key: manifest.auth.key ?? "",
                                  expiresIn: manifest.auth.expiresIn, now: { clock.now })
        } catch {
            throw wiringFailure(error, manifest: manifest)
        }
    }

    /// The signer of a manifest whose endpoint is an account's: the signing backend, or the secret read here.
    private static func accountSigner(of manifest: Manifest, transport: CurlTransport) throws -> any Signer {
        let secrets = SecretReader()
        switch manifest.signer {
        case let .backend(signerURL, token, timeout, caFile):
            try NamedFile.signerCA(of: manifest)?.checkReadable()
            return try BackendSigner(url: signerURL, token: try secrets.read(token), timeout: timeout, transport: transport, caBundlePath: caFile)
        case .local(let source):
            return HMACSigner(secret: try SecretReader().read(source))
        case .embedded:
            throw CommandError.embeddedSignerNeedsEmbeddedEndpoint
        }
    }

    /// The error a wiring failure is reported as: a secret or signer problem names the manifest.
    private static func wiringFailure(_ error: any Error, manifest: Manifest) -> any Error {
        switch error {
        case let failure as CommandError: failure
        case let error as SecretError: CommandError.secretUnusable(file: manifest.file, reason: error.description)
        case let error as SigningError: CommandError.secretUnusable(file: manifest.file, reason: error.description)
        default: CommandError.embeddedServiceFailed(reason: "\(error)")
        }
    }

    /// Where the embedded service of a state directory keeps its data.
    static func embeddedServiceDirectory(in stateDirectory: String) -> String {
        stateDirectory + "/embedded-service"
    }

    /// Starts the embedded service on the port it had last time in this state directory, so that the
    /// status and result URLs in the ledger stay valid for `resume`; on another port when that one is taken.
    ///
    /// With a `bucket` to import from, the service holds it as the account's Template Credentials of the manifest's name, with
    /// the listing's credentials (the embedded service stands for the account), and fetches over `transport`; this machine
    /// and the local network are its test endpoints, as the run's own loopback results are.
    private static func startEmbedded(in directory: String, credentials: ServiceCredentials?, importing bucket: BucketInputSettings?,
                                      transport: any HTTPTransport) throws -> RunningService {
        let portFile = directory + "/port"
        let previous = (try? String(contentsOfFile: portFile, encoding: .utf8)).flatMap { UInt16($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        // The run is the embedded service's only client: it may use every connection slot.
        var configuration = LocalServiceConfiguration(port: previous ?? 0, dataDirectory: directory, credentials: credentials)
        configuration.importTransport = transport
        configuration.allowsLocalImports = true
        if let bucket {
            configuration.templateCredentials[bucket.templateCredentials] = try TemplateCredential(
                endpoint: bucket.address.endpoint, region: bucket.address.region, bucket: bucket.address.bucket,
                keys: RemoteInputWiring.credentials(of: bucket))
        }
        configuration.maxConnectionsPerAddress = configuration.maxConnections
        // No account stands behind it: no creations budget either, unless the manifest sets one (``Governor``).
        configuration.creationsPerMinute = 0
        // The inputs are the run's own files: a copy of each night's uploads would only fill the state directory.
        configuration.dropsUploadsOnceFetched = true
        let service: RunningService
        if let reused = try? LocalService.start(configuration) {
            service = reused
        } else {
            configuration.port = 0
            service = try LocalService.start(configuration)
        }
        try String(service.port).write(toFile: portFile, atomically: true, encoding: .utf8)
        return service
    }
}
