import AssemblyLine
import Foundation
import SQLiteLedger

/// `assemblyline resume RUN_ID`: finishes what a run left undone, from each shard's state in the ledger.
struct ResumeCommand: CLICommand {
    static let configuration = CommandConfiguration(
        commandName: "resume",
        abstract: "Finish a run: continue its unfinished shards and re-run its failed ones.",
        discussion: """
            Reads the run's manifest again (its recipe must not have changed). An Assembly that exists is \
            polled, not created again; a verified download is kept; a shard past its results' lifetime runs \
            again; completed shards are never touched. Exit codes as for run. With --shard, only those \
            shards run and the exit code is theirs; the run stays interrupted while other shards are left.
            """,
        arguments: [ArgumentSpec(name: "run", help: "The run ID that run printed first, or latest.")],
        options: [OptionSpec(name: "shard", valueName: "n", help: "Only this shard (repeatable).", isRepeating: true)]
            + LedgerLocation.options
            + RunOptions.specs)

    /// nil for `latest`.
    var runID: RunID?
    var shardFilter: Set<Int>
    var location: LedgerLocation
    var options: RunOptions

    init(_ values: ParsedValues) throws {
        runID = try RunID.argument(values.positional(0) ?? "")
        shardFilter = Set(try values.options("shard").map { text in
            guard let index = Int(text), index >= 0 else { throw UsageError("--shard expects a shard number, found '\(text)'") }
            return index
        })
        location = LedgerLocation(values)
        options = try RunOptions(values)
    }

    func validate() throws {
        try location.validate()
    }

    func run(_ console: Console) async throws {
        let signals = TerminationSignal()
        let (stateDirectory, meant) = try location.locate(runID)
        let ledgerPath = SQLiteLedger.path(inStateDirectory: stateDirectory)
        guard FileManager.default.fileExists(atPath: ledgerPath) else {
            let unindexed = location.stateDirOption == nil && location.manifestOption == nil ? "the run index does not know the run; " : ""
            throw CommandError.noLedger(path: "in \(stateDirectory)", hint: "\(unindexed)name the state directory with --state-dir")
        }
        let reader = try await SQLiteLedger.open(stateDirectory: stateDirectory, mode: .readOnly)
        let runID: RunID
        let record: RunRecord
        let indices: [Int]
        do {
            var newest: RunID?
            if meant == nil { newest = try await reader.latestRun(matching: location.filter())?.id }
            guard let id = meant ?? newest else { throw CommandError.noRuns(path: ledgerPath) }
            runID = id
            record = try await reader.run(runID).record
            indices = try await reader.shards(of: runID).map(\.index)
            await reader.close()
        } catch {
            await reader.close()
            throw error
        }
        let strangers = shardFilter.subtracting(indices).sorted()
        guard strangers.isEmpty else {
            let range = indices.isEmpty ? "none" : "\(indices.min() ?? 0) to \(indices.max() ?? 0)"
            throw UsageError("run \(runID) has no shard \(strangers.map(String.init).joined(separator: ", ")) (its shards: \(range))")
        }
        if record.state == .canceled {
            if !options.quiet { console.line("run \(runID) was canceled; start a new run instead") }
            return
        }
        if record.state == .finished {
            if !options.quiet { console.line("run \(runID) is finished: every shard is done; nothing to resume") }
            return
        }
        let manifest = try ConfigFileLoader.manifest(record.manifestPath)
        guard manifest.recipe.fingerprint == record.recipeFingerprint else {
            throw CommandError.recipeChanged(manifest: record.manifestPath, runID: runID)
        }
        let lock = try RunLock(stateDirectory: stateDirectory, manifest: manifest)
        let environment = try await RunEnvironment.open(manifest, stateDirectory: stateDirectory)
        do {
            lock.record(runID: runID)
            let shards = try await environment.ledger.shards(of: runID)
                .filter { $0.state != .downloaded && (shardFilter.isEmpty || shardFilter.contains($0.index)) }
            if !shards.isEmpty { try await RunPreflight.check(manifest, environment: environment) }
            if record.state != .running {
                try await environment.ledger.updateRunState(runID, to: .running, at: Date())
            }
            let progress = RunProgress(runID: runID, options: options, console: console)
            progress.announce()
            let end = try await RunDriver(manifest: manifest, environment: environment, runID: runID, progress: progress)
                .drive(shards, options: options, signals: signals)
            await environment.close()
            try end.check()
        } catch {
            await environment.close()
            throw error
        }
    }
}
