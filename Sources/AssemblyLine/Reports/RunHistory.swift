package import Foundation

/// `report --history`: a row per night of the runs in one or more ledgers, oldest first, with what each did and
/// what it cost; the runs of a partitioned batch make one night.
///
/// A night is a run of the whole manifest, or a batch split into partitions (``RunRecord/partition``) whose
/// parts ran in one ledger or several: each part's newest run of the batch counts, as in `report --batch`.
package struct RunHistory: Sendable {
    /// One night: a run, or the newest run of each partition of a batch, its figures summed over them.
    package struct Night: Sendable {
        /// By start.
        package var runs: [RunRecord]
        /// How many parts the batch was split into; 1 for a run of the whole.
        package var partitionCount: Int
        package var filesByState: [FileState: Int] = [:]
        package var bytesSent: Int64 = 0
        package var bytesReceived: Int64 = 0
        package var usageBytes: Int64 = 0
        package var assembliesWithoutUsage = 0
        package var assembliesCreated = 0
        package var retries = 0

        package var start: Date { runs.map(\.createdAt).min() ?? .distantPast }
        /// When the last part ended; nil while one runs.
        package var end: Date? { runs.contains { $0.state == .running } ? nil : runs.compactMap(\.finishedAt).max() }
        /// From the first start to the last end (or last change, while a part runs).
        package var elapsed: Duration { RunRecord.elapsed(of: runs) }
        /// The run's ID, or for a batch's parts the batch's.
        package var label: String {
            partitionCount > 1 ? runs.first?.batch?.rawValue ?? "" : runs.first?.id.rawValue ?? ""
        }
        /// The manifest's name, or the names of its parts' manifests should they differ.
        package var name: String { Array(Set(runs.map(\.manifestName))).sorted().joined(separator: ", ") }
        package var missing: Int { partitionCount - runs.count }
        /// Every part finished and none is missing.
        package var isFinished: Bool { missing == 0 && runs.allSatisfy { $0.state == .finished } }
        package var bytesPlanned: Int64 { runs.reduce(0) { $0 + $1.bytes } }

        package func files(_ state: FileState) -> Int { filesByState[state] ?? 0 }

        /// Adds one run's counts and figures.
        mutating func add(_ summary: RunSummary, _ statistics: RunStatistics) {
            for (state, count) in summary.filesByState { filesByState[state, default: 0] += count }
            bytesSent += statistics.bytesSent
            bytesReceived += statistics.bytesReceived
            usageBytes += statistics.usageBytes
            assembliesWithoutUsage += statistics.assembliesWithoutUsage
            assembliesCreated += statistics.assembliesCreated
            retries += statistics.retries
        }
    }

    /// Oldest first.
    package var nights: [Night]
    /// The earliest start a night may have.
    package var since: Date

    /// How long back `report --history` looks without `--since`.
    package static let defaultSpan = Duration.seconds(30 * 86_400)

    /// The nights started since `since` in `ledgers`, of `job` when given.
    package static func read(since: Date, job: ManifestJob?, from ledgers: [OpenedLedger]) async throws -> RunHistory {
        var found: [(ledger: any LedgerQueries, run: RunRecord)] = []
        for opened in ledgers {
            let runs = try await opened.ledger.recentRuns(limit: Int(Int32.max), matching: RunFilter(job: job, since: since))
            found += runs.map { (opened.ledger, $0.seen(in: opened.stateDirectory)) }
        }
        // Newest first, so that the first run of a batch's partition seen is its newest.
        found.sort { ($0.run.createdAt, $0.run.id) > ($1.run.createdAt, $1.run.id) }
        var groups: [String: [Int: (ledger: any LedgerQueries, run: RunRecord)]] = [:]
        var wholeRuns: [(ledger: any LedgerQueries, run: RunRecord)] = []
        for entry in found {
            guard entry.run.partition.count > 1, let batch = entry.run.batch else {
                wholeRuns.append(entry)
                continue
            }
            let part = entry.run.partition.index
            if groups[batch.rawValue]?[part] == nil { groups[batch.rawValue, default: [:]][part] = entry }
        }
        var nights: [Night] = []
        for parts in groups.values.map({ Array($0.values) }) + wholeRuns.map({ [$0] }) {
            var night = Night(runs: parts.map(\.run).sorted { $0.createdAt < $1.createdAt },
                              partitionCount: parts.map(\.run.partition.count).max() ?? 1)
            for (ledger, run) in parts {
                night.add(try await ledger.run(run.id), try await ledger.statistics(of: run.id, shardDurations: false))
            }
            nights.append(night)
        }
        return RunHistory(nights: nights.sorted { ($0.start, $0.label) < ($1.start, $1.label) }, since: since)
    }
}
