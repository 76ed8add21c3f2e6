import ConfigFormat
package import Foundation

/// The figures of a run's end that a monitor scrapes: when it ran, whether it succeeded, what it moved and cost.
package struct RunMetrics: Sendable {
    package var manifestName: String
    package var partition: Partition
    package var state: RunState
    /// When this process's part of the run started (for a resume, when the resume did).
    package var start: Date
    package var end: Date
    package var duration: Duration
    package var filesByState: [FileState: Int]
    package var statistics: RunStatistics

    /// Whether every shard is done: the run's end is then the manifest's last success.
    package var succeeded: Bool { state == .finished }

    /// The metrics of `outcome`'s run, its figures read from the ledger of `stateDirectory`.
    package static func read(_ outcome: RunOutcome, partition: Partition, stateDirectory: String, store: any LedgerStore) async throws -> RunMetrics {
        let statistics = try await store.withExistingLedger(in: stateDirectory) { ledger in
            guard let ledger else {
                throw LedgerReadError.noLedger(path: "at \(store.ledgerPath(inStateDirectory: stateDirectory))", hint: "the run recorded none")
            }
            return try await ledger.statistics(of: outcome.runID)
        }
        let record = outcome.summary.record
        let end = record.finishedAt ?? record.updatedAt
        return RunMetrics(manifestName: record.manifestName, partition: partition, state: outcome.state,
                          start: end.addingTimeInterval(-outcome.elapsed.timeInterval), end: end, duration: outcome.elapsed,
                          filesByState: outcome.summary.filesByState, statistics: statistics)
    }
}
