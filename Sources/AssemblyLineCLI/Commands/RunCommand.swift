import AssemblyLine
import Foundation
import SQLiteLedger

/// `assemblyline run MANIFEST`: plans, records the run in the ledger, and runs every shard to its end.
struct RunCommand: CLICommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a manifest: shard, sign, upload, poll, download and verify, recording every step.",
        discussion: """
            The first line on standard output is the run ID. Files that an earlier run of the same manifest \
            already did with the same recipe (same path, size and modification time) are skipped unless --force, \
            as long as the outputs it recorded are on disk with their sizes (--checksum: and MD5s); a file whose \
            outputs are missing or changed runs again. \
            Exits 0 when every shard is done, 1 when some failed (resume RUN_ID can retry them), 2 when stopped \
            by a signal or --max-duration (resume continues), 65 for an invalid manifest, 69 when the endpoint \
            or signer cannot be reached, 73 when an output cannot be written, 74 when the ledger cannot, 75 \
            when another run of the manifest holds the lock, 77 when credentials are refused, 78 when a secret \
            is missing (README has the table).
            """,
        arguments: [ArgumentSpec(name: "manifest", help: "The job manifest (YAML).")],
        options: [
            OptionSpec.stateDir,
            OptionSpec(name: "force", help: "Run every file, even those an earlier run already did."),
            OptionSpec(name: "checksum", help: "Skip a file only when its outputs also match their recorded MD5s."),
            OptionSpec(name: "dry-run", help: "Print what the run would send and skip, and why (as plan does); send and write nothing."),
        ] + RunOptions.specs)

    var manifestPath: String
    var stateDir: String?
    var force: Bool
    var checksum: Bool
    var dryRun: Bool
    var options: RunOptions

    init(_ values: ParsedValues) throws {
        manifestPath = values.positional(0) ?? ""
        stateDir = values.option("state-dir")
        force = values.flag("force")
        checksum = values.flag("checksum")
        dryRun = values.flag("dry-run")
        options = try RunOptions(values)
    }

    func run(_ console: Console) async throws {
        let signals = TerminationSignal()
        let manifest = try ConfigFileLoader.manifest(manifestPath)
        let stateDirectory = stateDir.map { PathText.resolve($0, against: FileManager.default.currentDirectoryPath) } ?? manifest.stateDir
        if dryRun {
            return PlanCommand.show(try await RunForecast.make(manifest, stateDirectory: stateDirectory, force: force, checksums: checksum),
                                    json: false, console: console)
        }
        let planned = try manifest.plan()
        for warning in planned.warnings { console.error("warning: \(warning)\n") }
        let lock = try RunLock(stateDirectory: stateDirectory, manifest: manifest)
        let environment = try await RunEnvironment.open(manifest, stateDirectory: stateDirectory)
        do {
            let end = try await execute(manifest, plan: planned.plan, environment: environment, stateDirectory: stateDirectory,
                                        lock: lock, signals: signals, console: console)
            await environment.close()
            try end.check()
        } catch {
            await environment.close()
            throw error
        }
    }

    private func execute(_ manifest: Manifest, plan: Plan, environment: RunEnvironment, stateDirectory: String, lock: RunLock,
                         signals: TerminationSignal, console: Console) async throws -> RunEnded {
        let fingerprint = manifest.recipe.fingerprint
        let done = force ? [:] : try await environment.ledger.completedFiles(manifestPath: manifest.file, recipeFingerprint: fingerprint)
        let check = OutputCheck(checksums: checksum)
        let incremental = IncrementalPlan(plan, done: done, check: check, limits: manifest.shards)
        let skipped = incremental.skipped
        if !incremental.plan.shards.isEmpty { try await RunPreflight.check(manifest, environment: environment) }
        let runID = RunID.generate()
        _ = try await environment.ledger.createRun(NewRun(
            id: runID, manifestPath: manifest.file, manifestName: manifest.name, recipeFingerprint: fingerprint,
            plan: incremental.plan, skipped: skipped, createdAt: Date()))
        lock.record(runID: runID)
        let progress = RunProgress(runID: runID, options: options, console: console)
        progress.announce()
        if let reason = RunIndex(environment: ProcessInfo.processInfo.environment).record(runID, stateDirectory: stateDirectory) {
            console.error("warning: run \(runID) is not in the run index (\(reason)); name its ledger with --state-dir \(stateDirectory)\n")
        }
        if !skipped.isEmpty {
            progress.note("run.skipped", "skipped \(CountText.of(skipped.count, "file")) an earlier run already did (use --force to run them)")
        }
        if !incremental.redone.isEmpty {
            progress.note("run.redone", "running \(CountText.of(incremental.redone.count, "file")) again whose outputs are missing or changed since an earlier run")
        }
        let driver = RunDriver(manifest: manifest, environment: environment, runID: runID, progress: progress)
        return try await driver.drive(try await environment.ledger.shards(of: runID), options: options, signals: signals)
    }
}
