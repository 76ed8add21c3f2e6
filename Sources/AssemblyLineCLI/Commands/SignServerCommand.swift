import AssemblyLine
import HTTPServer
import SignServer

/// `assemblyline sign-server --policy FILE [--listen HOST:PORT] [--tls-cert FILE --tls-key FILE]`: the reference signing backend.
struct SignServerCommand: CLICommand {
    static let configuration = CommandConfiguration(
        commandName: "sign-server",
        abstract: "Run the signing service: sign params that a policy allows.",
        discussion: """
            Serves POST /sign with Authorization: Bearer <token> and {"params": "<string>"}, and answers \
            {"params", "signature"} only for params its policy allows (401 unknown token, 400 malformed, \
            403 refused with a reason, 429 over the rate). The first line on standard output is \
            'listening on http://HOST:PORT' (https with --tls-cert and --tls-key); each decision is one line \
            on standard error. Runs until SIGINT or SIGTERM, then exits 0. An invalid policy exits 65 with \
            every error; a certificate or key that cannot be read or is refused exits 78. See docs/signing.md.
            """,
        options: [
            OptionSpec(name: "policy", valueName: "file", help: "The signing policy (YAML).", isRequired: true),
            OptionSpec(name: "listen", valueName: "host:port", help: "Where to listen (default \(defaultListen)); port 0 picks a free one."),
            OptionSpec(name: "tls-cert", valueName: "file", help: "Serve HTTPS with this PEM certificate (chain); needs --tls-key."),
            OptionSpec(name: "tls-key", valueName: "file", help: "The certificate's PEM private key (mode 600 or stricter); needs --tls-cert."),
        ])

    static let defaultListen = "127.0.0.1:9443"

    var policyPath: String
    var host: String
    var port: UInt16
    /// The certificate and key files, both or neither.
    var tlsFiles: (certificate: String, key: String)?

    init(_ values: ParsedValues) throws {
        let policy = values.option("policy") ?? ""
        policyPath = policy
        (host, port) = try ListenAddress.parse(values.option("listen") ?? Self.defaultListen)
        switch (values.option("tls-cert"), values.option("tls-key")) {
        case let (certificate?, key?):
            tlsFiles = (certificate, key)
        case (nil, nil):
            tlsFiles = nil
        case (_?, nil):
            throw UsageError("--tls-cert needs --tls-key")
        case (nil, _?):
            throw UsageError("--tls-key needs --tls-cert")
        }
    }

    func run(_ context: CommandContext) async throws {
        let console = context.console
        let policy = try ConfigFileLoader.policy(policyPath)
        let secret: String
        do {
            secret = try SecretReader().read(policy.secret)
        } catch {
            throw CommandError.secretUnusable(file: policyPath, reason: "\(error)")
        }
        let tls = try tlsFiles.map(Self.readTLS)
        let signals = TerminationSignal()
        let server: SignServer
        do {
            server = try SignServer(policy: policy, secret: secret, host: host, port: port, tls: tls)
        } catch .tlsRefused(let reason) {
            throw CommandError.tlsRefused(reason: "sign-server: the TLS certificate and key were refused: \(reason)")
        } catch {
            throw CommandError.listenFailed(reason: "sign-server: \(error)")
        }
        console.line("listening on \(server.baseURL)")
        let signal = await signals.wait()
        if await !ServerShutdown.stop({ server.stop() }) {
            console.error("sign-server: requests still running after \(ServerShutdown.grace); exiting without them\n")
        }
        console.error("sign-server: stopped on signal \(signal)\n")
    }

    /// The certificate as a named file and the key as a secret (the same rules as the Auth Secret's file).
    private static func readTLS(_ files: (certificate: String, key: String)) throws -> HTTPServerTLS {
        let certificate = try NamedFile(name: "--tls-cert", path: files.certificate).text()
        do {
            let key = try SecretReader().read(.file(files.key))
            return HTTPServerTLS(certificatePEM: certificate, keyPEM: key)
        } catch {
            throw CommandError.secretUnusable(file: "--tls-key", reason: error.description)
        }
    }
}
