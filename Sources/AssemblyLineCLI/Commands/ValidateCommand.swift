import AssemblyLine
import ConfigFormat

/// `assemblyline validate MANIFEST`: checks a manifest and reports every error in it.
struct ValidateCommand: CLICommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check a manifest and report every error in it.",
        discussion: """
            Exits 0 when the manifest is valid, 65 with every error (file:line:column) when it is not, 78 when \
            a secret or token it names (secret_env, secret_file, token_env, token_file) or the signer's \
            ca_file cannot be read.
            """,
        arguments: [ArgumentSpec(name: "manifest", help: "The job manifest (YAML).")])

    var manifestPath: String

    init(_ values: ParsedValues) throws {
        manifestPath = values.positional(0) ?? ""
    }

    func run(_ context: CommandContext) async throws {
        let console = context.console
        let manifest = try ConfigFileLoader.manifest(manifestPath)
        try Self.checkSecrets(of: manifest)
        let written: (steps: JSONValue, place: String)? = switch manifest.recipe {
        case .template(let recipe): recipe.file.map { ($0.document.steps ?? .object([:]), $0.displayPath) }
        case .steps(let steps): (steps, manifestPath)
        case .resize: nil
        }
        if let written {
            for warning in StepsReview.warnings(of: written.steps, at: written.place) { console.error("warning: \(warning)\n") }
        }
        console.line("\(manifestPath): valid manifest '\(manifest.name)' (\(manifest.recipe.kind), endpoint \(manifest.endpoint), signer \(manifest.signer.kind))")
    }

    /// Reads the secret or token the signer names, as a run would, and forgets it; checks that its CA file can be read.
    static func checkSecrets(of manifest: Manifest) throws {
        let source: SecretSource
        switch manifest.signer {
        case let .backend(_, token, _, _):
            try NamedFile.signerCA(of: manifest)?.checkReadable()
            source = token
        case .local(let secret): source = secret
        case .embedded: return
        }
        do {
            _ = try SecretReader().read(source)
        } catch {
            throw CommandError.secretUnusable(file: manifest.file, reason: error.description)
        }
    }
}
