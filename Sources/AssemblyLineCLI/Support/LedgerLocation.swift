import AssemblyLine
import Foundation
import SQLiteLedger

/// Which ledger a command looks at: `--state-dir`, else the state dir of `--manifest`, else (for a
/// run) the one the run index names, else `./runs`.
///
/// A manifest whose `state_dir` names `{partition}` has a ledger per part: a run is looked for in each part's
/// state directory (`{partition}` read as `*`), `latest` is the newest run among them, and a listing reads them all.
struct LedgerLocation: Sendable {
    static let options = [
        OptionSpec.stateDir,
        OptionSpec(name: "manifest", valueName: "file", help: "Use the state directory of this manifest (each part's, when it names {partition})."),
    ]

    var stateDirOption: String?
    var manifestOption: String?
    var index: RunIndex

    init(_ values: ParsedValues) {
        stateDirOption = values.option("state-dir")
        manifestOption = values.option("manifest")
        index = RunIndex(environment: ProcessInfo.processInfo.environment)
    }

    func validate() throws {
        if stateDirOption != nil && manifestOption != nil {
            throw UsageError("--state-dir and --manifest are mutually exclusive")
        }
    }

    /// The runs a `latest` or a listing means: with `--manifest`, that manifest's only.
    func filter() throws -> RunFilter {
        RunFilter(manifestPath: try manifestOption.map { try ConfigFileLoader.manifest($0).file })
    }

    /// The absolute state directories meant, and whether they are a partitioned manifest's parts: those of its
    /// parts that hold a ledger (the glob itself when none does, for the message that there is no ledger).
    func stateDirectories() throws -> (directories: [String], parts: Bool) {
        let cwd = FileManager.default.currentDirectoryPath
        if let stateDirOption { return ([PathText.resolve(stateDirOption, against: cwd)], false) }
        guard let manifestOption else { return ([PathText.resolve(ManifestDefaults.stateDir, against: cwd)], false) }
        let manifest = try ConfigFileLoader.manifest(manifestOption)
        guard manifest.namesPartitionStateDir else { return ([manifest.stateDir], false) }
        let parts = PathGlob.expand(manifest.stateDirOfEveryPart).sorted()
            .filter { FileManager.default.fileExists(atPath: SQLiteLedger.path(inStateDirectory: $0)) }
        return (parts.isEmpty ? [manifest.stateDirOfEveryPart] : parts, true)
    }

    /// The state directory that holds `run` (nil: the newest run), and the run meant.
    ///
    /// `--state-dir` or `--manifest` decide when given (among a partitioned manifest's parts, the one whose
    /// ledger holds the run, or the newest run). Otherwise a run ID is looked up in the run index, and the
    /// newest run is `./runs`' when that holds a ledger, else the index's newest.
    ///
    /// - Throws: ``LedgerError/runNotFound(_:)`` for a run no part's ledger holds.
    func locate(_ run: RunID?) async throws -> (stateDirectory: String, run: RunID?) {
        let (directories, parts) = try stateDirectories()
        if parts, directories.count > 1 { return try await locate(run, among: directories) }
        let local = directories[0]
        guard stateDirOption == nil, manifestOption == nil else { return (local, run) }
        if run == nil, FileManager.default.fileExists(atPath: SQLiteLedger.path(inStateDirectory: local)) { return (local, nil) }
        guard let found = index.find(run) else { return (local, run) }
        return (found.stateDirectory, found.run)
    }

    /// The part's state directory whose ledger holds `run`, or for nil the one with the newest run of the filter.
    private func locate(_ run: RunID?, among directories: [String]) async throws -> (stateDirectory: String, run: RunID?) {
        let filter = try filter()
        var newest: (stateDirectory: String, run: RunRecord)?
        for directory in directories {
            let found = try await SQLiteLedger.with(path: SQLiteLedger.path(inStateDirectory: directory), mode: .readOnly) { ledger in
                guard let run else { return try await ledger.latestRun(matching: filter) }
                do {
                    return try await ledger.run(run).record
                } catch LedgerError.runNotFound {
                    return nil
                }
            }
            guard let found else { continue }
            if run != nil { return (directory, run) }
            if newest.map({ ($0.run.createdAt, $0.run.id) < (found.createdAt, found.id) }) ?? true { newest = (directory, found) }
        }
        if let run { throw LedgerError.runNotFound(run) }
        return (newest?.stateDirectory ?? directories[0], newest?.run.id)
    }

    /// Gives `body` the ledger holding `run` (nil: the newest run) opened read-only, with the run's ID and
    /// the state directory it is in, and closes the ledger after.
    ///
    /// - Throws: ``CommandError/noLedger(path:hint:)`` where there is none, ``RunSessionError/noRuns(path:)``
    ///   for the newest run of a ledger without runs.
    func withRun<T>(_ run: RunID?, _ body: (SQLiteLedger, RunID, String) async throws -> T) async throws -> T {
        let (directory, meant) = try await locate(run)
        let path = SQLiteLedger.path(inStateDirectory: directory)
        guard FileManager.default.fileExists(atPath: path) else {
            throw CommandError.noLedger(path: "at \(path)", hint: "no run has been recorded there")
        }
        let filter = try filter()
        return try await SQLiteLedger.with(path: path, mode: .readOnly) { ledger in
            if let meant { return try await body(ledger, meant, directory) }
            guard let newest = try await ledger.latestRun(matching: filter)?.id else { throw RunSessionError.noRuns(path: path) }
            return try await body(ledger, newest, directory)
        }
    }
}
