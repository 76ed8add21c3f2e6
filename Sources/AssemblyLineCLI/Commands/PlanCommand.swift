import AssemblyLine
import ConfigFormat
import Foundation

/// `assemblyline plan MANIFEST [--json]`: validates, expands the globs, shards, and prints what `run` would send and skip; writes nothing.
struct PlanCommand: CLICommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Show what a run of a manifest would send and skip, without sending or writing anything.",
        discussion: """
            Expands the input globs, takes out the files an earlier run already did (as run does: their \
            outputs must be in place), cuts the rest into shards, and prints each shard's files and bytes, the \
            totals, what is skipped, what is left out as known bad, and what runs again and why. Unreadable entries are warnings on standard \
            error; no match at all exits 65.
            """,
        arguments: [ArgumentSpec(name: "manifest", help: "The job manifest (YAML).")],
        options: [OptionSpec(name: "json", help: "Print the plan, with every file, as JSON."), OptionSpec.stateDir,
                  OptionSpec(name: "force", help: "Plan every file, as run --force would."),
                  OptionSpec(name: "checksum", help: "Skip a file only when its outputs also match their recorded MD5s, as run --checksum."),
                  OptionSpec(name: "retry-failed", help: "Plan the known bad files too, as run --retry-failed would.")]
            + [FilesFrom.spec] + PartitionOptions.specs)

    var manifestPath: String
    var json: Bool
    var stateDir: String?
    var force: Bool
    var checksum: Bool
    var retryFailed: Bool
    var parts: PartitionOptions
    /// `--files-from`: read once the manifest's input base is known.
    var filesFrom: String?

    init(_ values: ParsedValues) throws {
        manifestPath = values.positional(0) ?? ""
        json = values.flag("json")
        stateDir = values.option("state-dir")
        force = values.flag("force")
        checksum = values.flag("checksum")
        retryFailed = values.flag("retry-failed")
        parts = try PartitionOptions(values)
        filesFrom = values.option("files-from")
    }

    func run(_ console: Console) async throws {
        var (manifest, stateDirectory) = try parts.manifest(manifestPath, stateDir: stateDir)
        manifest.onlyFiles = try filesFrom.map { try FilesFrom.names(in: $0, base: manifest.inputs.base) }
        let session = RunSession(manifest: manifest, stateDirectory: stateDirectory, adapters: RunWiring())
        let forecast = try await session.forecast(force: force, checksums: checksum, retryFailed: retryFailed)
        ForecastText.show(forecast, of: manifest, json: json, console: console)
    }
}
