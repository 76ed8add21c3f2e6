package import HTTPServer

/// Starts the local Transloadit-compatible Assembly service, in this process.
///
/// The CLI's `assemblyline serve` and the pipeline's `endpoint: embedded` both start it here:
///
/// ```swift
/// let service = try LocalService.start(LocalServiceConfiguration(dataDirectory: "/tmp/serve"))
/// print(service.baseURL)         // http://127.0.0.1:40123
/// // sign params with service.credentials.secret, POST to service.baseURL + "/assemblies"
/// service.stop()
/// ```
package enum LocalService {
    /// Opens the data directory (reloading its Assemblies), starts the workers, and listens.
    ///
    /// - Throws: ``LocalServiceError`` when the directory is unusable, stored state is unreadable,
    ///   libvips cannot start, or the address cannot be bound.
    package static func start(_ configuration: LocalServiceConfiguration) throws(LocalServiceError) -> RunningService {
        let credentials: ServiceCredentials
        if let given = configuration.credentials {
            credentials = given
        } else {
            credentials = try ServiceCredentials.generate()
        }
        let context = try ServiceContext(configuration: configuration, credentials: credentials)
        let serverConfiguration = HTTPServerConfiguration(
            host: configuration.host, port: configuration.port,
            maxConnections: configuration.maxConnections,
            maxConnectionsPerAddress: configuration.maxConnectionsPerAddress,
            idleTimeout: .seconds(60), requestHeadTimeout: .seconds(20),
            singletonHeaders: HTTPServerConfiguration.standardSingletonHeaders.union(TusHandler.singletonHeaders),
            log: { configuration.log("http: \($0)") })
        let routes = ServiceRoutes(service: context)
        let server: HTTPServer
        do {
            server = try HTTPServer(configuration: serverConfiguration, handler: routes)
        } catch {
            context.queue.stop()
            throw .listenFailed(address: "\(configuration.host):\(configuration.port)", reason: error.description)
        }
        context.urls = ServiceURLs(base: publicBase(host: server.host, port: server.port), namesRequestHost: isWildcard(server.host))
        let machines: ServiceMachines
        do {
            machines = try ServiceMachines(configuration: serverConfiguration, routes: routes,
                                           cycleAfter: configuration.machineLifetime) { next in
                let previous = context.urls.machine
                context.urls.machine = next
                if previous != context.urls.base { configuration.log("machine: \(previous) went away; \(next) takes over") }
            }
        } catch {
            server.stop()
            context.queue.stop()
            throw .listenFailed(address: "\(configuration.host):0", reason: error.description)
        }
        let sweeper = ExpirySweeper(service: context, lifetime: configuration.resultTTL)
        return RunningService(server: server, machines: machines, context: context, sweeper: sweeper, credentials: credentials,
                              dataDirectory: configuration.dataDirectory)
    }

    /// True for an address that listens on every interface, which no URL can name.
    static func isWildcard(_ host: String) -> Bool {
        ["0.0.0.0", "::", "[::]"].contains(host)
    }

    /// The base URL clients on this host are given: a wildcard listen address is reached through loopback.
    static func publicBase(host: String, port: UInt16) -> String {
        switch host {
        case "0.0.0.0", "localhost": return "http://127.0.0.1:\(port)"
        case "::", "[::]": return "http://[::1]:\(port)"
        default: return host.contains(":") && !host.hasPrefix("[") ? "http://[\(host)]:\(port)" : "http://\(host):\(port)"
        }
    }
}

/// A started local service: where it listens, the credentials it accepts, and how to stop it.
package final class RunningService: Sendable {
    /// `http://HOST:PORT`, where a client on this host reaches the API host (loopback for a wildcard address).
    package let baseURL: String
    /// `http://ADDRESS:PORT` as bound: on a wildcard address, the URLs handed out name the host each request came in on.
    package let listeningURL: String
    package let port: UInt16
    package let credentials: ServiceCredentials
    package let dataDirectory: String
    private let server: HTTPServer
    private let machines: ServiceMachines
    private let context: ServiceContext
    private let sweeper: ExpirySweeper

    init(server: HTTPServer, machines: ServiceMachines, context: ServiceContext, sweeper: ExpirySweeper, credentials: ServiceCredentials,
         dataDirectory: String) {
        self.server = server
        self.machines = machines
        self.context = context
        self.sweeper = sweeper
        self.credentials = credentials
        self.dataDirectory = dataDirectory
        self.baseURL = context.urls.base
        self.listeningURL = server.baseURL
        self.port = server.port
    }

    deinit {
        stop()
    }

    /// The Auth Key requests must carry.
    package var key: String { credentials.key }
    /// The Auth Secret that signs params; never log it.
    package var secret: String { credentials.secret }

    /// What the API host's HTTP server has counted (connections, requests), for tests and benchmarks.
    package var statistics: HTTPServerStatistics { server.statistics }

    /// The requests each route answered so far.
    package var requestCounts: ServiceRequestCounts { context.requestCounts }

    /// The machine's base URL now: where status and tus URLs point.
    package var machineURL: String { context.urls.machine }

    /// The machine's `http://ADDRESS:PORT` as bound now.
    package var machineListeningURL: String { machines.listeningURL }

    /// True when the service listens on every address and its URLs name the host each request came in on.
    package var namesRequestHost: Bool { context.urls.namesRequestHost }

    /// Stops listening (uploads in flight end as aborted), aborts the imports in flight, lets each worker finish its
    /// Assembly, and returns.
    ///
    /// Queued Assemblies, and those whose imports were aborted, stay `ASSEMBLY_EXECUTING` on disk and run when the
    /// service starts again on the same data directory. Calling it again does nothing.
    package func stop() {
        machines.stop()
        server.stop()
        context.imports.fetcher?.stop()
        context.queue.stop()
        sweeper.stop()
    }
}
