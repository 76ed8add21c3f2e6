import AssemblyLine
import CurlTransport
import Digests
import Foundation
import LocalTransloadit
import SQLiteLedger

/// The adapters a run needs, wired from its manifest: the API endpoint (or the embedded service), the signer,
/// the transport and the ledger. The only place that puts them together.
final class RunEnvironment: Sendable {
    let endpoint: String
    let key: String
    let signer: any Signer
    let transport: CurlTransport
    let ledger: SQLiteLedger
    let embedded: RunningService?

    private init(endpoint: String, key: String, signer: any Signer, transport: CurlTransport, ledger: SQLiteLedger, embedded: RunningService?) {
        self.endpoint = endpoint
        self.key = key
        self.signer = signer
        self.transport = transport
        self.ledger = ledger
        self.embedded = embedded
    }

    /// Opens the ledger in `stateDirectory`, starts the embedded service when the manifest asks for it, and builds the signer.
    static func open(_ manifest: Manifest, stateDirectory: String) async throws -> RunEnvironment {
        let transport = CurlTransport()
        let secrets = SecretReader()
        let ledger = try await SQLiteLedger.open(stateDirectory: stateDirectory)
        do {
            switch manifest.endpoint {
            case .embedded:
                var credentials: ServiceCredentials?
                if case .local(let source) = manifest.signer {
                    credentials = ServiceCredentials(key: manifest.auth.key ?? "embedded", secret: try secrets.read(source))
                }
                let service = try startEmbedded(in: stateDirectory + "/embedded-service", credentials: credentials)
                return RunEnvironment(endpoint: service.baseURL, key: service.key, signer: HMACSigner(secret: service.secret),
                                      transport: transport, ledger: ledger, embedded: service)
            case .url(let url):
                let key = manifest.auth.key ?? ""
                switch manifest.signer {
                case let .backend(signerURL, token, timeout, caFile):
                    try NamedFile.signerCA(of: manifest)?.checkReadable()
                    let signer = try BackendSigner(url: signerURL, token: try secrets.read(token), timeout: timeout, transport: transport,
                                                   caBundlePath: caFile)
                    return RunEnvironment(endpoint: url, key: key, signer: signer, transport: transport, ledger: ledger, embedded: nil)
                case .local(let source):
                    return RunEnvironment(endpoint: url, key: key, signer: HMACSigner(secret: try secrets.read(source)),
                                          transport: transport, ledger: ledger, embedded: nil)
                case .embedded:
                    throw CommandError.embeddedSignerNeedsEmbeddedEndpoint
                }
            }
        } catch let failure as CommandError {
            await ledger.close()
            throw failure
        } catch let error as SecretError {
            await ledger.close()
            throw CommandError.secretUnusable(file: manifest.file, reason: error.description)
        } catch let error as SigningError {
            await ledger.close()
            throw CommandError.secretUnusable(file: manifest.file, reason: error.description)
        } catch {
            await ledger.close()
            throw CommandError.embeddedServiceFailed(reason: "\(error)")
        }
    }

    /// Starts the embedded service on the port it had last time in this state directory, so that the
    /// status and result URLs in the ledger stay valid for `resume`; on another port when that one is taken.
    private static func startEmbedded(in directory: String, credentials: ServiceCredentials?) throws -> RunningService {
        let portFile = directory + "/port"
        let previous = (try? String(contentsOfFile: portFile, encoding: .utf8)).flatMap { UInt16($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        // The run is the embedded service's only client: it may use every connection slot.
        var configuration = LocalServiceConfiguration(port: previous ?? 0, dataDirectory: directory, credentials: credentials)
        configuration.maxConnectionsPerAddress = configuration.maxConnections
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

    /// Stops the embedded service and closes the ledger.
    func close() async {
        embedded?.stop()
        await ledger.close()
    }
}
