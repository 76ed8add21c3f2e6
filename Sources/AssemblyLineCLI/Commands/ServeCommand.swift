import AssemblyLine
import ConfigFormat
import CurlTransport
import Foundation
import LocalTransloadit

/// `assemblyline serve`: the local Transloadit-compatible Assembly service, until SIGINT or SIGTERM.
struct ServeCommand: CLICommand {
    static let resizesImages = true
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the local Transloadit-compatible Assembly service.",
        discussion: """
            Prints 'listening on http://HOST:PORT' first, then the Auth Key; on 0.0.0.0 or ::, the URLs it \
            hands out name the host each request came in on. Without --key, the key and \
            secret are generated on the first start and kept in the data directory (the secret in \
            DIR/auth-secret, mode 0600, never printed). SIGINT or SIGTERM stops it cleanly (exit 0); \
            Assemblies and files under --data-dir survive a restart. Import steps (/s3/import, /minio/import) \
            name the buckets of --template-credentials; /http/import and /minio/import's host never reach \
            link-local or metadata addresses, nor this machine or a private network without \
            --allow-local-imports. See docs/local-service.md.
            """,
        options: [
            OptionSpec(name: "listen", valueName: "host:port", help: "Listen here (default 127.0.0.1:9442; port 0 picks a free one)."),
            OptionSpec(name: "data-dir", valueName: "dir", help: "Keep Assemblies, files and credentials here (default ./serve-data)."),
            OptionSpec(name: "key", valueName: "key", help: "The Auth Key to accept (needs --secret-env or --secret-file)."),
            OptionSpec(name: "secret-env", valueName: "name", help: "Read the Auth Secret from this environment variable."),
            OptionSpec(name: "secret-file", valueName: "path", help: "Read the Auth Secret from this file's first line."),
            OptionSpec(name: "templates", valueName: "file", help: "Templates (YAML or JSON): Template ID → {name, require_signature_auth, steps, allow_steps_override, ...}."),
            OptionSpec(name: "faults", valueName: "file", help: "Fault injection plan (YAML), seeded and reproducible."),
            OptionSpec(name: "template-credentials", valueName: "file",
                       help: "Template Credentials (JSON, mode 600): name → {type: s3, endpoint, region, bucket, key, secret}."),
            OptionSpec(name: "allow-local-imports", help: "Let import steps reach this machine and private networks (test endpoints)."),
            OptionSpec(name: "workers", valueName: "n", help: "Worker threads executing Assemblies (default 2)."),
            OptionSpec(name: "no-signature", help: "Accept requests without a signature (the key must still match)."),
            OptionSpec(name: "result-ttl", valueName: "duration", help: "Serve result files this long (default 24h)."),
            OptionSpec(name: "creations-per-minute", valueName: "n", help: "Assembly creations allowed per minute (default 250; 0 = no limit)."),
            OptionSpec(name: "status-per-second", valueName: "n", help: "Status requests per Assembly per second (default 3; 0 = no limit)."),
            OptionSpec(name: "max-connections", valueName: "n", help: "Connections open at once (default 1024)."),
            OptionSpec(name: "max-connections-per-address", valueName: "n", help: "Connections open at once from one client address (default 256)."),
            OptionSpec(name: "cycle-machines", valueName: "n", help: "Send each machine away for good after n requests, as production cycles its machines."),
        ])

    static let defaultDataDirectory = "serve-data"

    var host: String
    var port: UInt16
    var dataDirectory: String
    var key: String?
    var secretEnv: String?
    var secretFile: String?
    var templatesPath: String?
    var faultsPath: String?
    var templateCredentialsPath: String?
    var allowsLocalImports: Bool
    var workers: Int
    var requireSignature: Bool
    var resultTTL: Duration
    var creationsPerMinute: Int
    var statusPerSecond: Int
    var maxConnections: Int
    var maxConnectionsPerAddress: Int
    var cycleMachinesAfter: Int?

    init(_ values: ParsedValues) throws {
        (host, port) = try ListenAddress.parse(values.option("listen") ?? "127.0.0.1:9442")
        dataDirectory = PathText.resolve(values.option("data-dir") ?? Self.defaultDataDirectory, against: FileManager.default.currentDirectoryPath)
        key = values.option("key")
        secretEnv = values.option("secret-env")
        secretFile = values.option("secret-file")
        templatesPath = values.option("templates")
        faultsPath = values.option("faults")
        templateCredentialsPath = values.option("template-credentials")
        allowsLocalImports = values.flag("allow-local-imports")
        workers = try values.integer("workers", in: 1...256) ?? 2
        requireSignature = !values.flag("no-signature")
        creationsPerMinute = try values.integer("creations-per-minute", in: 0...1_000_000) ?? 250
        statusPerSecond = try values.integer("status-per-second", in: 0...1_000_000) ?? 3
        maxConnections = try values.integer("max-connections", in: 1...65_536) ?? 1024
        maxConnectionsPerAddress = try values.integer("max-connections-per-address", in: 1...65_536) ?? 256
        cycleMachinesAfter = try values.integer("cycle-machines", in: 1...1_000_000_000)
        resultTTL = try values.duration("result-ttl") ?? .seconds(86_400)
    }

    func validate() throws {
        if secretEnv != nil && secretFile != nil {
            throw UsageError("--secret-env and --secret-file cannot be used together")
        }
        if key == nil && (secretEnv != nil || secretFile != nil) {
            throw UsageError("--secret-env and --secret-file need --key")
        }
        if key != nil && secretEnv == nil && secretFile == nil && requireSignature {
            throw UsageError("--key needs --secret-env NAME or --secret-file PATH (or --no-signature)")
        }
        if maxConnectionsPerAddress > maxConnections {
            throw UsageError("--max-connections-per-address cannot be more than --max-connections (\(maxConnections))")
        }
    }

    func run(_ context: CommandContext) async throws {
        let console = context.console
        let environment = ProcessInfo.processInfo.environment
        let lock: DirectoryLock
        do {
            lock = try DirectoryLock(dataDirectory)
        } catch {
            switch error {
            case .unusable(let reason): throw CommandError.dataDirectoryUnusable(path: dataDirectory, reason: reason)
            case .held: throw CommandError.dataDirectoryHeld(path: dataDirectory)
            }
        }
        defer { withExtendedLifetime(lock) {} }
        let (credentials, secretPath, generated) = try ServeCredentials.resolve(
            key: key, secretEnv: secretEnv, secretFile: secretFile, dataDirectory: dataDirectory, environment: environment)
        var configuration = LocalServiceConfiguration(
            host: host, port: port, dataDirectory: dataDirectory, credentials: credentials,
            requireSignature: requireSignature, workers: workers, resultTTL: resultTTL,
            creationsPerMinute: creationsPerMinute, statusRequestsPerSecond: statusPerSecond,
            maxConnections: maxConnections, maxConnectionsPerAddress: maxConnectionsPerAddress,
            log: ServiceLog { console.error($0 + "\n") }, cycleMachinesAfter: cycleMachinesAfter)
        configuration.importTransport = CurlTransport()
        configuration.allowsLocalImports = allowsLocalImports
        if let templateCredentialsPath {
            configuration.templateCredentials = try TemplateCredentialsFile.load(templateCredentialsPath, environment: environment)
        }
        if let templatesPath {
            configuration.templates = try ConfigFileLoader.load(templatesPath) { (node: ConfigNode, _: String) throws(ConfigError) in
                try TemplateLibrary.decode(node, file: templatesPath, environment: environment)
            }
        }
        if let faultsPath {
            configuration.faults = try ConfigFileLoader.load(faultsPath) { (node: ConfigNode, _: String) throws(ConfigError) in
                try FaultPlan.decode(node, file: faultsPath, environment: environment)
            }
        }
        let service: RunningService
        do {
            service = try LocalService.start(configuration)
        } catch {
            throw CommandError.listenFailed(reason: error.description)
        }
        let signals = TerminationSignal()
        console.line("listening on \(service.listeningURL)")
        console.line("machine: \(service.namesRequestHost ? service.machineListeningURL : service.machineURL)"
            + (configuration.machineLifetime.map { ", replaced after every \($0) requests" } ?? ""))
        if service.namesRequestHost {
            console.line("urls: every address is listened on, so the URLs handed out name the host each request came in on")
        }
        console.line("auth key: \(service.key)")
        if let secretPath {
            console.line("auth secret: \(generated ? "generated and written to" : "read from") \(secretPath) (mode 0600; never printed)")
        }
        if !configuration.templateCredentials.isEmpty {
            console.line("template credentials: \(configuration.templateCredentials.keys.sorted().joined(separator: ", ")) (secrets never printed)")
        }
        console.line("data directory: \(dataDirectory)")
        let received = await signals.wait()
        console.error("serve: received signal \(received), stopping\n")
        if await !ServerShutdown.stop({ service.stop() }) {
            console.error("serve: requests still running after \(ServerShutdown.grace); exiting without them\n")
        }
        console.error("serve: requests answered: \(service.requestCounts.summary)\n")
    }
}
