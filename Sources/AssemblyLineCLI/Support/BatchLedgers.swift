import AssemblyLine
import Foundation
import SQLiteLedger

/// The ledgers a `--batch` command reads: the state directories given (`--state-dir`, repeatable, each
/// a path or a glob such as `'/shared/state/*'`), else those of `--manifest`'s `state_dir` with
/// `{partition}` read as `*`; each directory that holds a ledger counts, the others are passed over.
struct BatchLedgers: Sendable {
    /// The state directories that hold a ledger, sorted.
    let stateDirectories: [String]

    /// The ledgers `values` name, or those of `manifest` (a command's own manifest argument) when they name none,
    /// else `defaultDirectory` (relative to the working directory) when given.
    init(_ values: ParsedValues, manifest fallback: String? = nil, defaultDirectory: String? = nil) throws {
        let cwd = FileManager.default.currentDirectoryPath
        var patterns = values.options("state-dir").map { PathText.resolve($0, against: cwd) }
        if patterns.isEmpty, let manifest = values.option("manifest") ?? fallback {
            patterns = [try ConfigFileLoader.manifest(manifest).stateDirOfEveryPart]
        }
        if patterns.isEmpty, let defaultDirectory { patterns = [PathText.resolve(defaultDirectory, against: cwd)] }
        guard !patterns.isEmpty else {
            throw UsageError("--batch reads the partitions' ledgers: give their state directories (--state-dir DIR or a glob, repeatable) "
                + "or --manifest FILE")
        }
        stateDirectories = Array(Set(patterns.flatMap(PathGlob.expand))).sorted()
            .filter { FileManager.default.fileExists(atPath: SQLiteLedger.path(inStateDirectory: $0)) }
    }

    /// Gives `body` every ledger opened read-only with its state directory, in order, and closes them after
    /// (a merged report streams from each in turn).
    func withEach<T>(_ body: ([(ledger: SQLiteLedger, stateDirectory: String)]) async throws -> T) async throws -> T {
        var opened: [(ledger: SQLiteLedger, stateDirectory: String)] = []
        do {
            for directory in stateDirectories {
                opened.append((try await SQLiteLedger.open(stateDirectory: directory, mode: .readOnly), directory))
            }
            let value = try await body(opened)
            for (ledger, _) in opened { await ledger.close() }
            return value
        } catch {
            for (ledger, _) in opened { await ledger.close() }
            throw error
        }
    }
}
