import AssemblyLine
import SignServer

/// `assemblyline sign-server --policy FILE [--listen HOST:PORT]`: the reference signing backend.
struct SignServerCommand: CLICommand {
    static let configuration = CommandConfiguration(
        commandName: "sign-server",
        abstract: "Run the signing service: sign params that a policy allows.",
        discussion: """
            Serves POST /sign with Authorization: Bearer <token> and {"params": "<string>"}, and answers \
            {"params", "signature"} only for params its policy allows (401 unknown token, 400 malformed, \
            403 refused with a reason, 429 over the rate). The first line on standard output is \
            'listening on http://HOST:PORT'; each decision is one line on standard error. Runs until SIGINT \
            or SIGTERM, then exits 0. An invalid policy exits 65 with every error. See docs/signing.md.
            """,
        options: [
            OptionSpec(name: "policy", valueName: "file", help: "The signing policy (YAML).", isRequired: true),
            OptionSpec(name: "listen", valueName: "host:port", help: "Where to listen (default \(defaultListen)); port 0 picks a free one."),
        ])

    static let defaultListen = "127.0.0.1:9443"

    var policyPath: String
    var host: String
    var port: UInt16

    init(_ values: ParsedValues) throws {
        let policy = values.option("policy") ?? ""
        policyPath = policy
        (host, port) = try ListenAddress.parse(values.option("listen") ?? Self.defaultListen)
    }

    func run(_ console: Console) async throws {
        let policy = try ConfigFileLoader.policy(policyPath)
        let secret: String
        do {
            secret = try SecretReader().read(policy.secret)
        } catch {
            throw CommandError.secretUnusable(file: policyPath, reason: "\(error)")
        }
        let signals = TerminationSignal()
        let server: SignServer
        do {
            server = try SignServer(policy: policy, secret: secret, host: host, port: port)
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
}
