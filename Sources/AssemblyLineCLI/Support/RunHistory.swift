import AssemblyLine
import ConfigFormat
import Foundation
import SQLiteLedger

/// `report --history`: a row per night of the runs in one or more ledgers, oldest first, with what each did and
/// what it cost; the runs of a partitioned batch make one night.
///
/// A night is a run of the whole manifest, or a batch split into partitions (``RunRecord/partition``) whose
/// parts ran in one ledger or several: each part's newest run of the batch counts, as in `report --batch`.
struct RunHistory {
    /// One night: a run, or the newest run of each partition of a batch, its figures summed over them.
    struct Night {
        /// By start.
        var runs: [RunRecord]
        /// How many parts the batch was split into; 1 for a run of the whole.
        var partitionCount: Int
        var filesByState: [FileState: Int]
        var bytesSent: Int64 = 0
        var bytesReceived: Int64 = 0
        var usageBytes: Int64 = 0
        var assembliesWithoutUsage = 0
        var assembliesCreated = 0
        var retries = 0

        var start: Date { runs.map(\.createdAt).min() ?? .distantPast }
        /// When the last part ended; nil while one runs.
        var end: Date? { runs.contains { $0.state == .running } ? nil : runs.compactMap(\.finishedAt).max() }
        /// From the first start to the last end (or last change, while a part runs).
        var elapsed: Duration { RunText.elapsed(of: runs) }
        /// The run's ID, or for a batch's parts the batch's.
        var label: String {
            partitionCount > 1 ? runs.first?.batch?.rawValue ?? "" : runs.first?.id.rawValue ?? ""
        }
        /// The manifest's name, or the names of its parts' manifests should they differ.
        var name: String { Array(Set(runs.map(\.manifestName))).sorted().joined(separator: ", ") }
        var missing: Int { partitionCount - runs.count }
        var state: String { RunText.state(of: runs.map(\.state), missing: missing) }
        /// Every part finished and none is missing.
        var isFinished: Bool { missing == 0 && runs.allSatisfy { $0.state == .finished } }
        var bytesPlanned: Int64 { runs.reduce(0) { $0 + $1.bytes } }

        func files(_ state: FileState) -> Int { filesByState[state] ?? 0 }

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
    var nights: [Night]
    /// The earliest start a night may have.
    var since: Date

    /// How long back `report --history` looks without `--since`.
    static let defaultSpan = Duration.seconds(30 * 86_400)

    /// The nights started since `since` in `ledgers`, of the manifest at `manifestPath` when given.
    static func read(since: Date, manifestPath: String?, from ledgers: [(ledger: SQLiteLedger, stateDirectory: String)]) async throws -> RunHistory {
        var found: [(ledger: SQLiteLedger, run: RunRecord)] = []
        for (ledger, _) in ledgers {
            let runs = try await ledger.recentRuns(limit: Int(Int32.max), matching: RunFilter(manifestPath: manifestPath, since: since))
            found += runs.map { (ledger, $0) }
        }
        // Newest first, so that the first run of a batch's partition seen is its newest.
        found.sort { ($0.run.createdAt, $0.run.id) > ($1.run.createdAt, $1.run.id) }
        var groups: [String: [Int: (ledger: SQLiteLedger, run: RunRecord)]] = [:]
        var wholeRuns: [(ledger: SQLiteLedger, run: RunRecord)] = []
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
                              partitionCount: parts.map(\.run.partition.count).max() ?? 1, filesByState: [:])
            for (ledger, run) in parts {
                night.add(try await ledger.run(run.id), try await ledger.statistics(of: run.id, shardDurations: false))
            }
            nights.append(night)
        }
        return RunHistory(nights: nights.sorted { ($0.start, $0.label) < ($1.start, $1.label) }, since: since)
    }

    /// The file states a night's row counts, in its columns' order.
    static let columns: [FileState] = [.done, .failed, .skipped, .knownBad]

    var table: String {
        let rows = nights.map { night in
            [RunText.time(night.start), night.label, night.state]
                + Self.columns.map { String(night.files($0)) }
                + [ConfigUnits.formatDuration(night.elapsed), ByteCountText.format(night.bytesSent), Self.usageText(night), night.name]
        }
        return TextTable.render(header: ["STARTED", "RUN", "STATE", "DONE", "FAILED", "SKIPPED", "KNOWN BAD", "ELAPSED", "UP", "USAGE", "NAME"],
                                rows: rows, rightAligned: [3, 4, 5, 6, 7, 8, 9])
    }

    /// A night's usage, with a `+` when some of its completed Assemblies did not say theirs.
    static func usageText(_ night: Night) -> String {
        ByteCountText.format(night.usageBytes) + (night.assembliesWithoutUsage > 0 ? "+" : "")
    }

    /// `--format json`: an array of nights, each with every file state counted (0 included).
    var json: JSONValue {
        .array(nights.map { night in
            .object([
                "started_at": .string(UTCDateTime(night.start).iso8601Text),
                "finished_at": night.end.map { .string(UTCDateTime($0).iso8601Text) } ?? .null,
                "elapsed_ms": .integer(night.elapsed.milliseconds),
                "name": .string(night.name),
                "manifests": .array(Array(Set(night.runs.map(\.manifestPath))).sorted().map(JSONValue.string)),
                "runs": .array(night.runs.map { .string($0.id.rawValue) }),
                "batch": night.runs.first?.batch.map { .string($0.rawValue) } ?? .null,
                "partitions": .integer(Int64(night.partitionCount)),
                "missing_partitions": .integer(Int64(night.missing)),
                "state": .string(night.state),
                "finished": .bool(night.isFinished),
                "files_by_state": .object(Dictionary(uniqueKeysWithValues: FileState.allCases.map { ($0.rawValue, .integer(Int64(night.files($0)))) })),
                "bytes_planned": .integer(night.bytesPlanned),
                "bytes_sent": .integer(night.bytesSent),
                "bytes_received": .integer(night.bytesReceived),
                "usage_bytes": .integer(night.usageBytes),
                "assemblies_without_usage": .integer(Int64(night.assembliesWithoutUsage)),
                "assemblies_created": .integer(Int64(night.assembliesCreated)),
                "retries": .integer(Int64(night.retries)),
            ])
        })
    }
}
