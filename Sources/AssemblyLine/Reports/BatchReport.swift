/// A batch's report merged from its partitions' ledgers: each part's newest run of the batch, the totals over
/// them, and the parts that are missing or unfinished.
package struct BatchReport: Sendable {
    /// One partition's run of the batch, with the ledger and state directory that hold it.
    package struct Part: Sendable {
        package var ledger: any LedgerQueries
        package var stateDirectory: String
        package var report: RunReport
        package var run: RunRecord { report.run }
        /// Its files with their outputs, page by page.
        package var pages: FilePages { .everyFile(ledger, run.id, shards: report.shards) }
    }

    package var batch: BatchID
    /// By partition index.
    package var parts: [Part]

    /// The number of partitions the runs say the batch was split into (the largest, should they differ).
    package var count: Int { parts.map(\.run.partition.count).max() ?? 0 }

    /// The partitions with no run of the batch in the ledgers read.
    package var missing: [Int] {
        let found = Set(parts.map(\.run.partition.index))
        return (0..<count).filter { !found.contains($0) }
    }

    /// The partitions whose run is not finished.
    package var unfinished: [Part] { parts.filter { $0.run.state != .finished } }

    package var filesByState: [FileState: Int] { total(\.summary.filesByState) }
    package var shardsByState: [ShardState: Int] { total(\.summary.shardsByState) }

    private func total<State: Hashable>(_ counts: KeyPath<RunReport, [State: Int]>) -> [State: Int] {
        parts.reduce(into: [:]) { sums, part in
            for (state, count) in part.report[keyPath: counts] { sums[state, default: 0] += count }
        }
    }

    /// A figure of the parts' reports, summed.
    package func sum(_ figure: (RunReport) -> Int64) -> Int64 {
        parts.reduce(0) { $0 + figure($1.report) }
    }

    /// Reads, for each partition, the newest run of `batch` in `ledgers` (``newestRuns(of:job:in:)``) as a
    /// report with the files `selection` asks for.
    package static func read(_ batch: BatchID, from ledgers: [OpenedLedger], files selection: RunReport.FileSelection) async throws -> BatchReport {
        var parts: [Part] = []
        for (opened, run) in try await newestRuns(of: batch, in: ledgers) {
            parts.append(Part(ledger: opened.ledger, stateDirectory: opened.stateDirectory,
                              report: try await RunReport.read(run.id, from: opened.ledger, in: opened.stateDirectory, files: selection)))
        }
        return BatchReport(batch: batch, parts: parts)
    }

    /// The newest run of `batch` (of `job`, when given) for each partition, by partition
    /// index: what `report --batch` and `check --batch` read.
    ///
    /// - Throws: ``LedgerReadError/invalidBatch(_:)`` when no ledger holds a run of the batch, when a partition has
    ///   runs in two ledgers, or when the runs were split in different ways.
    package static func newestRuns(of batch: BatchID, job: ManifestJob? = nil, in ledgers: [OpenedLedger])
        async throws -> [(ledger: OpenedLedger, run: RunRecord)] {
        var found: [Int: (ledger: OpenedLedger, run: RunRecord)] = [:]
        for opened in ledgers {
            for run in try await opened.ledger.recentRuns(limit: 1_000, matching: RunFilter(job: job, batch: batch)) {
                if let other = found[run.partition.index] {
                    guard other.ledger.stateDirectory == opened.stateDirectory else {
                        throw LedgerReadError.invalidBatch("partition \(run.partition) of batch \(batch) has runs in two ledgers: "
                            + "\(other.ledger.stateDirectory) and \(opened.stateDirectory)")
                    }
                    continue
                }
                found[run.partition.index] = (opened, run)
            }
        }
        let counts = Set(found.values.map(\.run.partition.count))
        guard counts.count <= 1 else {
            throw LedgerReadError.invalidBatch("the runs of batch \(batch) were split in different ways: into "
                + counts.sorted().map(String.init).joined(separator: ", ") + " parts")
        }
        guard !found.isEmpty else {
            throw LedgerReadError.invalidBatch("no run of batch \(batch) in the \(CountText.of(ledgers.count, "ledger")) read")
        }
        return found.sorted { $0.key < $1.key }.map(\.value)
    }
}
