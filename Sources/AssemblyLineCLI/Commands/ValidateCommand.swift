import AssemblyLine

/// `assemblyline validate MANIFEST`: checks a manifest and reports every error in it.
struct ValidateCommand: CLICommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check a manifest and report every error in it.",
        discussion: "Exits 0 when the manifest is valid, 65 with every error (file:line:column) when it is not.",
        arguments: [ArgumentSpec(name: "manifest", help: "The job manifest (YAML).")])

    var manifestPath: String

    init(_ values: ParsedValues) throws {
        manifestPath = values.positional(0) ?? ""
    }

    func run(_ console: Console) async throws {
        let manifest = try ConfigFileLoader.manifest(manifestPath)
        console.line("\(manifestPath): valid manifest '\(manifest.name)' (\(manifest.recipe.kind), endpoint \(manifest.endpoint), signer \(manifest.signer.kind))")
    }
}
