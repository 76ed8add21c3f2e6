import AssemblyLine
import SQLiteLedger

/// Whether a batch's partitions together took the manifest's whole plan, each file once and in its own part: `check --batch`.
///
/// A partition took a file when its run of the batch holds a row of it (sent, failed, known bad), or
/// when the file is in its ledger's done index and not missed (its run skipped it). Every file of the
/// plan must be taken by exactly one partition, the one its relative path falls to.
struct BatchCoverage {
    var batch: BatchID
    /// How many parts the batch's runs say it was split into.
    var count: Int
    /// The partitions with a run of the batch in the ledgers read.
    var found: [Int]
    var planned: Int
    /// Files of the plan no partition took, by relative path.
    var untaken: [String] = []
    /// Files more than one partition took, with those partitions.
    var twice: [(path: String, parts: [Int])] = []
    /// Files taken by a partition other than the one their path falls to.
    var misplaced: [(path: String, part: Int, expected: Int)] = []

    var problems: Int { untaken.count + twice.count + misplaced.count }

    /// Plans `manifest` whole and compares it with what each ledger's newest run of `batch` took.
    static func check(_ manifest: Manifest, batch: BatchID, in ledgers: [(ledger: SQLiteLedger, stateDirectory: String)]) async throws -> BatchCoverage {
        let files = try manifest.plan().plan.shards.flatMap(\.files)
        let byIdentity = Dictionary(files.map { (FileIdentity($0), $0.relativePath) }, uniquingKeysWith: { first, _ in first })
        var taken: [String: Set<Int>] = [:]
        let runs = try await BatchReport.newestRuns(of: batch, manifestPath: manifest.file, in: ledgers)
        for (ledger, _, run) in runs {
            for file in try await ledger.files(of: run.id, shard: nil, state: nil) { taken[file.file.relativePath, default: []].insert(run.partition.index) }
            let done = try await ledger.completedFiles(manifestPath: manifest.file, recipeFingerprint: manifest.recipe.fingerprint)
            for (identity, entry) in done where !entry.missed {
                if let path = byIdentity[identity] { taken[path, default: []].insert(run.partition.index) }
            }
        }
        let count = runs.first?.run.partition.count ?? 0
        let found = Set(runs.map(\.run.partition.index))
        var coverage = BatchCoverage(batch: batch, count: count, found: found.sorted(), planned: files.count)
        for file in files {
            let parts = (taken[file.relativePath] ?? []).sorted()
            let expected = Partition.part(of: file.relativePath, among: count)
            switch parts.count {
            case 0: coverage.untaken.append(file.relativePath)
            case 1 where parts[0] != expected: coverage.misplaced.append((file.relativePath, parts[0], expected))
            case 1: break
            default: coverage.twice.append((file.relativePath, parts))
            }
        }
        return coverage
    }

    /// What `check --batch` prints: the verdict, then up to `shown` files of each problem.
    func text(shown: Int = 20) -> String {
        var lines = ["batch \(batch): \(CountText.of(count, "partition")) (\(found.count) with a run), \(CountText.of(planned, "file")) planned: "
                        + (problems == 0 ? "each taken by exactly one partition, its own"
                            : "\(untaken.count) in no partition, \(twice.count) in two or more, \(misplaced.count) in another's")]
        let missingParts = (0..<count).filter { !found.contains($0) }
        if !missingParts.isEmpty { lines.append("no run of partitions \(missingParts.map(String.init).joined(separator: ", "))") }
        lines += untaken.prefix(shown).map { "  in no partition: \($0) (partition \(Partition.part(of: $0, among: count)) of \(count))" }
        lines += twice.prefix(shown).map { "  in \($0.parts.map(String.init).joined(separator: " and ")): \($0.path)" }
        lines += misplaced.prefix(shown).map { "  in \($0.part), not \($0.expected): \($0.path)" }
        let more = max(0, untaken.count - shown) + max(0, twice.count - shown) + max(0, misplaced.count - shown)
        if more > 0 { lines.append("  (and \(CountText.of(more, "more file")))") }
        return lines.joined(separator: "\n") + "\n"
    }
}
