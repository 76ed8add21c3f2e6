import AssemblyLine
import Foundation

/// The options `plan` and `run` share (the shape of argument-parser's `@OptionGroup`): which files a night takes,
/// the part of a batch it is, and its state directory; read once, the manifest loaded as that part runs it.
struct PlanOptions: Sendable {
    static let specs = [
        OptionSpec.stateDir,
        OptionSpec(name: "force", help: "Take every file, even those an earlier run already did."),
        OptionSpec(name: "checksum", help: "Skip a file only when its outputs also match their recorded MD5s."),
        OptionSpec(name: "retry-failed", help: "Take the known bad files too (those an earlier run failed for a reason of their own)."),
        OptionSpec(name: "adopt", help: "Take over the job of this name that another manifest ran in the state directory (the manifest moved)."),
        OptionSpec(name: "accept-recipe", help: "Count the files done under the job's earlier recipe as done under this one (the change makes the same outputs)."),
        FilesFrom.spec,
    ] + PartitionOptions.specs

    var manifestPath: String
    var stateDir: String?
    var force: Bool
    var checksum: Bool
    var retryFailed: Bool
    /// `--adopt`: this manifest takes over its name's job from another manifest's path (``RunSession/adopts``).
    var adopt: Bool
    /// `--accept-recipe`: the job's earlier recipe's done files count as done (``RunSession/acceptsRecipe``).
    var acceptRecipe: Bool
    var parts: PartitionOptions
    /// `--files-from`: read once the manifest's input base is known.
    var filesFrom: String?

    init(_ values: ParsedValues) throws {
        manifestPath = values.positional(0) ?? ""
        stateDir = values.option("state-dir")
        force = values.flag("force")
        checksum = values.flag("checksum")
        retryFailed = values.flag("retry-failed")
        adopt = values.flag("adopt")
        acceptRecipe = values.flag("accept-recipe")
        parts = try PartitionOptions(values)
        filesFrom = values.option("files-from")
    }

    /// The manifest as this part runs it, limited to `--files-from`'s inputs, and its state directory.
    func manifest() throws -> (manifest: Manifest, stateDirectory: String) {
        var (manifest, stateDirectory) = try parts.manifest(manifestPath, stateDir: stateDir)
        manifest.onlyFiles = try filesFrom.map { try FilesFrom.names(in: $0, base: manifest.inputs.base) }
        return (manifest, stateDirectory)
    }

    /// The use case of a run of `manifest` in `stateDirectory` with these options, over `adapters`.
    func session(_ manifest: Manifest, in stateDirectory: String, adapters: RunWiring) -> RunSession {
        RunSession(manifest: manifest, stateDirectory: stateDirectory, adapters: adapters, batch: parts.batch, adopts: adopt, acceptsRecipe: acceptRecipe)
    }

    /// What a run of `session` would send and skip with these options.
    func forecast(_ session: RunSession) async throws -> RunForecast {
        try await session.forecast(force: force, checksums: checksum, retryFailed: retryFailed)
    }
}
