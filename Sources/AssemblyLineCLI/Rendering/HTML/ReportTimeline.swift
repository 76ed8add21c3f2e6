import AssemblyLine
import Foundation

/// The rows of the report's timeline: a bar per shard, each attempt's phases on it, or past
/// ``maxRows`` shards, a bar per group of consecutive shards.
struct ReportTimeline {
    /// A stretch of one attempt in one phase, in seconds since the run's start.
    struct Segment: Hashable {
        var phase: Phase
        var start: Double
        var end: Double
        var attempt: Int
        /// The attempt failed (or was replaced): its segments are drawn faded, with a mark at its end.
        var failedAttempt: Bool
    }

    /// The four phases of an attempt, in order.
    enum Phase: String, CaseIterable {
        case signing, upload, execution, download
    }

    /// How a bar's shards ended; the colour of its marker.
    enum Outcome: String, CaseIterable {
        case done, failed, unfinished
    }

    struct Row {
        /// `3`, `p1 · 3` (a partition's shard), or `0–33` for a group.
        var label: String
        var shardCount: Int
        var outcome: Outcome
        /// Shards of the group by outcome, for a group's tooltip.
        var outcomes: [Outcome: Int]
        var segments: [Segment]
        /// Attempts beyond the first and steps tried again within attempts.
        var retries: Int
        /// Where a failed attempt ended, for its mark.
        var failures: [Double]
    }

    /// One partition's (or the run's) shards and attempts, with the prefix its shards' labels take.
    struct Part {
        var prefix: String
        var shards: [ShardRecord]
        var attempts: [AttemptTimes]
        var stepRetries: [Int: Int]
    }

    /// Past this many shards, bars stand for groups of consecutive shards.
    static let maxRows = 300

    var rows: [Row]
    /// Seconds from the start to the last known moment of any attempt.
    var span: Double
    /// True when a row stands for several shards.
    var isGrouped: Bool

    init(_ parts: [Part], start: Date) {
        var shardRows: [Row] = []
        for part in parts {
            let attempts = Dictionary(grouping: part.attempts, by: \.shardIndex)
            for shard in part.shards {
                shardRows.append(Self.row(shard, attempts[shard.index] ?? [], retries: part.stepRetries[shard.index] ?? 0,
                                          label: part.prefix + String(shard.index), start: start))
            }
        }
        span = max(0.001, shardRows.flatMap(\.segments).map(\.end).max() ?? 1)
        isGrouped = shardRows.count > Self.maxRows
        guard isGrouped else {
            rows = shardRows
            return
        }
        let size = (shardRows.count + Self.maxRows - 1) / Self.maxRows
        rows = stride(from: 0, to: shardRows.count, by: size).map { first in
            Self.group(shardRows[first..<min(first + size, shardRows.count)])
        }
    }

    /// A shard's bar: each attempt's phases from the times it has.
    private static func row(_ shard: ShardRecord, _ attempts: [AttemptTimes], retries: Int, label: String, start: Date) -> Row {
        var segments: [Segment] = []
        var failures: [Double] = []
        for (position, attempt) in attempts.enumerated() {
            let failed = attempt.outcome == .failed || attempt.outcome == .superseded
            let end = failed ? (attempt.failedAt ?? attempts.dropFirst(position + 1).first?.startedAt ?? attempt.lastKnown) : attempt.lastKnown
            let marks: [(Phase, Date?)] = [(.signing, attempt.startedAt), (.upload, attempt.signedAt), (.execution, attempt.uploadedAt),
                                           (.download, attempt.completedAt)]
            let known = marks.compactMap { phase, time in time.map { (phase, $0.timeIntervalSince(start)) } }
            for (index, mark) in known.enumerated() {
                let stop = index + 1 < known.count ? known[index + 1].1 : end.timeIntervalSince(start)
                if stop > mark.1 {
                    segments.append(Segment(phase: mark.0, start: mark.1, end: stop, attempt: attempt.number, failedAttempt: failed))
                }
            }
            if failed { failures.append(end.timeIntervalSince(start)) }
        }
        let outcome: Outcome = switch shard.state {
        case .downloaded: .done
        case .failed: .failed
        default: .unfinished
        }
        return Row(label: label, shardCount: 1, outcome: outcome, outcomes: [outcome: 1], segments: segments,
                   retries: max(0, attempts.count - 1) + retries, failures: failures)
    }

    /// A group's bar: from its first start to its last end, split into the phases by their summed time; failed if any shard failed.
    private static func group(_ rows: ArraySlice<Row>) -> Row {
        let segments = rows.flatMap(\.segments)
        let first = segments.map(\.start).min() ?? 0
        let last = segments.map(\.end).max() ?? first
        let total = segments.reduce(0) { $0 + ($1.end - $1.start) }
        var cursor = first
        var split: [Segment] = []
        for phase in Phase.allCases {
            let share = segments.filter { $0.phase == phase }.reduce(0) { $0 + ($1.end - $1.start) }
            guard share > 0, total > 0 else { continue }
            let width = (last - first) * share / total
            split.append(Segment(phase: phase, start: cursor, end: cursor + width, attempt: 1, failedAttempt: false))
            cursor += width
        }
        let outcomes = rows.reduce(into: [Outcome: Int]()) { $0[$1.outcome, default: 0] += 1 }
        let outcome: Outcome = outcomes[.failed] != nil ? .failed : outcomes[.unfinished] != nil ? .unfinished : .done
        let labels = (rows.first?.label ?? "", rows.last?.label ?? "")
        return Row(label: labels.0 == labels.1 ? labels.0 : "\(labels.0)–\(labels.1)", shardCount: rows.count, outcome: outcome,
                   outcomes: outcomes, segments: split, retries: rows.reduce(0) { $0 + $1.retries }, failures: [])
    }
}
