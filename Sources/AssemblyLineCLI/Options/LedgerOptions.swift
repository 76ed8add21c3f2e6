import AssemblyLine
import Foundation

/// `--state-dir DIR` and `--manifest FILE`: which ledger a command that reads one looks at (``LedgerScope``), else
/// the default state directory with the run index.
struct LedgerOptions: Sendable {
    static let specs = [
        OptionSpec.stateDir,
        OptionSpec(name: "manifest", valueName: "file", help: "Use the state directory of this manifest (each part's, when it names {partition})."),
    ]

    var stateDir: String?
    var manifest: String?
    var index: RunIndex

    init(_ values: ParsedValues) {
        stateDir = values.option("state-dir")
        manifest = values.option("manifest")
        index = RunIndex(environment: ProcessInfo.processInfo.environment)
    }

    /// Whether neither option was given: a run is then looked up in the run index.
    var namesNone: Bool { stateDir == nil && manifest == nil }

    func validate() throws {
        if stateDir != nil && manifest != nil {
            throw UsageError("--state-dir and --manifest are mutually exclusive")
        }
    }

    /// What the options name, the manifest read; `given` (a command's own manifest) stands for `--manifest`.
    func scope(for given: Manifest? = nil) throws -> LedgerScope {
        let cwd = FileManager.default.currentDirectoryPath
        if let stateDir { return .stateDirectory(PathText.resolve(stateDir, against: cwd)) }
        if let given { return .manifest(given) }
        if let manifest { return .manifest(try ConfigFileLoader.manifest(manifest)) }
        return .unnamed(defaultDirectory: PathText.resolve(ManifestDefaults.stateDir, against: cwd), index: index)
    }

    /// The locator of the ledgers the options name (`given`: as for ``scope(for:)``).
    func locator(for given: Manifest? = nil) throws -> LedgerLocator {
        LedgerLocator(scope: try scope(for: given), store: RunWiring.ledgers)
    }
}
