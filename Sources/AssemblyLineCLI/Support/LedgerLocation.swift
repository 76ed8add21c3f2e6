import AssemblyLine
import Foundation
import SQLiteLedger

/// Which ledger a command looks at: `--state-dir`, else the state dir of `--manifest`, else (for a
/// run) the one the run index names, else `./runs`.
struct LedgerLocation: Sendable {
    static let options = [
        OptionSpec.stateDir,
        OptionSpec(name: "manifest", valueName: "file", help: "Use the state directory of this manifest."),
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

    /// The absolute state directory.
    func stateDirectory() throws -> String {
        let cwd = FileManager.default.currentDirectoryPath
        if let stateDirOption { return PathText.resolve(stateDirOption, against: cwd) }
        if let manifestOption { return try ConfigFileLoader.manifest(manifestOption).stateDir }
        return PathText.resolve(ManifestDefaults.stateDir, against: cwd)
    }

    /// The state directory that holds `run` (nil: the newest run), and the run meant.
    ///
    /// `--state-dir` or `--manifest` decide when given. Otherwise a run ID is looked up in the run
    /// index, and the newest run is `./runs`' when that holds a ledger, else the index's newest.
    func locate(_ run: RunID?) throws -> (stateDirectory: String, run: RunID?) {
        let local = try stateDirectory()
        guard stateDirOption == nil, manifestOption == nil else { return (local, run) }
        if run == nil, FileManager.default.fileExists(atPath: SQLiteLedger.path(inStateDirectory: local)) { return (local, nil) }
        guard let found = index.find(run) else { return (local, run) }
        return (found.stateDirectory, found.run)
    }

    /// Gives `body` the ledger holding `run` (nil: the newest run) opened read-only, with the run's ID and
    /// the state directory it is in, and closes the ledger after.
    ///
    /// - Throws: ``CommandError/noLedger(path:hint:)`` where there is none, ``RunSessionError/noRuns(path:)``
    ///   for the newest run of a ledger without runs.
    func withRun<T>(_ run: RunID?, _ body: (SQLiteLedger, RunID, String) async throws -> T) async throws -> T {
        let (directory, meant) = try locate(run)
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

    /// Gives `body` the state directory's ledger opened read-only, or nil when it holds none (never creating
    /// one), with the ledger's path, and closes the ledger after.
    func withLedgerForReading<T>(_ body: (SQLiteLedger?, String) async throws -> T) async throws -> T {
        let path = SQLiteLedger.path(inStateDirectory: try locate(nil).stateDirectory)
        guard FileManager.default.fileExists(atPath: path) else { return try await body(nil, path) }
        return try await SQLiteLedger.with(path: path, mode: .readOnly) { try await body($0, path) }
    }
}
