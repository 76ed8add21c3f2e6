import AssemblyLine
import Foundation
import SQLiteLedger

/// Which ledger a reading command looks at: `--state-dir`, else the state dir of `--manifest`, else `./runs`.
struct LedgerLocation: Sendable {
    static let options = [
        OptionSpec.stateDir,
        OptionSpec(name: "manifest", valueName: "file", help: "Use the state directory of this manifest."),
    ]

    var stateDirOption: String?
    var manifestOption: String?

    init(_ values: ParsedValues) {
        stateDirOption = values.option("state-dir")
        manifestOption = values.option("manifest")
    }

    func validate() throws {
        if stateDirOption != nil && manifestOption != nil {
            throw UsageError("--state-dir and --manifest are mutually exclusive")
        }
    }

    /// The absolute state directory.
    func stateDirectory() throws -> String {
        let cwd = FileManager.default.currentDirectoryPath
        if let stateDirOption { return PathText.resolve(stateDirOption, against: cwd) }
        if let manifestOption { return try ConfigFileLoader.manifest(manifestOption).stateDir }
        return PathText.resolve(ManifestDefaults.stateDir, against: cwd)
    }

    /// The ledger opened read-only, or nil when the state directory holds none; never creates one.
    func openForReading() async throws -> (ledger: SQLiteLedger?, path: String) {
        let path = SQLiteLedger.path(inStateDirectory: try stateDirectory())
        guard FileManager.default.fileExists(atPath: path) else { return (nil, path) }
        return (try await SQLiteLedger.open(path: path, mode: .readOnly), path)
    }
}
