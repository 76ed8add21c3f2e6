/// Whether a batch's partitions together took the manifest's whole plan, each file once and in its own part: `check --batch`.
///
/// A partition took a file when its run of the batch holds a row of it (sent, failed, known bad), or
/// when the file is in its ledger's done index and not missed (its run skipped it). Every file of the
/// plan must be taken by exactly one partition, the one its relative path falls to.
package struct BatchCoverage: Sendable {
    package var batch: BatchID
    /// How many parts the batch's runs say it was split into.
    package var count: Int
    /// The partitions with a run of the batch in the ledgers read.
    package var found: [Int]
    package var planned: Int
    /// Files of the plan no partition took, by relative path.
    package var untaken: [String] = []
    /// Files more than one partition took, with those partitions.
    package var twice: [(path: String, parts: [Int])] = []
    /// Files taken by a partition other than the one their path falls to.
    package var misplaced: [(path: String, part: Int, expected: Int)] = []

    package var problems: Int { untaken.count + twice.count + misplaced.count }

    /// The partitions with no run of the batch.
    package var missingParts: [Int] { (0..<count).filter { !found.contains($0) } }

    /// Plans `manifest` whole and compares it with what each ledger's newest run of `batch` took.
    package static func check(_ manifest: Manifest, batch: BatchID, in ledgers: [OpenedLedger],
                              remote: any RemoteInputAccess) async throws -> BatchCoverage {
        let files = try await manifest.planInputs(remote: remote).plan.shards.flatMap(\.files)
        let byIdentity = Dictionary(files.map { (FileIdentity($0), $0.relativePath) }, uniquingKeysWith: { first, _ in first })
        var taken: [String: Set<Int>] = [:]
        let runs = try await BatchReport.newestRuns(of: batch, job: manifest.job, in: ledgers)
        for (opened, run) in runs {
            let ledger = opened.ledger
            for file in try await ledger.files(of: run.id, shard: nil, state: nil) { taken[file.file.relativePath, default: []].insert(run.partition.index) }
            let done = try await ledger.completedFiles(job: manifest.job, recipeFingerprint: manifest.recipe.fingerprint)
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
}
