import AssemblyLine
import Foundation

/// The ledgers a `--batch` or `--history` command reads: the state directories given (`--state-dir`, repeatable,
/// each a path or a glob such as `'/shared/state/*'`), else those of `--manifest`'s `state_dir` with
/// `{partition}` read as `*`.
enum LedgerPatterns {
    /// The ledgers `values` name, or those of `manifest` (a command's own manifest argument) when they name none,
    /// else `defaultDirectory` (relative to the working directory) when given.
    static func ledgers(_ values: ParsedValues, manifest fallback: String? = nil, defaultDirectory: String? = nil) throws -> LedgerSet {
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
        return LedgerSet(patterns: patterns, store: RunWiring.ledgers)
    }

    /// Refuses a set that holds no ledger: nothing to read.
    static func requireSome(_ ledgers: LedgerSet) throws {
        if ledgers.stateDirectories.isEmpty { throw LedgerReadError.noLedger(path: "in the state directories given", hint: "none holds a ledger") }
    }
}
