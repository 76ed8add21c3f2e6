import AssemblyLine
import Foundation
import SQLiteLedger
#if canImport(Glibc)
import Glibc
#endif

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
            patterns = [try ConfigFileLoader.manifest(manifest).stateDir.replacingOccurrences(of: Manifest.partitionPlaceholder, with: "*")]
        }
        if patterns.isEmpty, let defaultDirectory { patterns = [PathText.resolve(defaultDirectory, against: cwd)] }
        guard !patterns.isEmpty else {
            throw UsageError("--batch reads the partitions' ledgers: give their state directories (--state-dir DIR or a glob, repeatable) "
                + "or --manifest FILE")
        }
        stateDirectories = Array(Set(patterns.flatMap(Self.expand))).sorted()
            .filter { FileManager.default.fileExists(atPath: SQLiteLedger.path(inStateDirectory: $0)) }
    }

    /// The paths `pattern` names: its matches when it is a glob, else itself.
    private static func expand(_ pattern: String) -> [String] {
        guard pattern.contains(where: { "*?[".contains($0) }) else { return [pattern] }
        var matches = glob_t()
        defer { globfree(&matches) }
        guard glob(pattern, 0, nil, &matches) == 0 else { return [] }
        return (0..<Int(matches.gl_pathc)).compactMap { matches.gl_pathv[$0].map { String(cString: $0) } }
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
