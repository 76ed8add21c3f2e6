import Foundation

extension RunRecord {
    /// From the first run's start to the last one's end (or last change, while one is unfinished): a run's elapsed
    /// time, or a batch's or a night's of several.
    package static func elapsed(of runs: [RunRecord]) -> Duration {
        guard let start = runs.map(\.createdAt).min(), let last = runs.map({ $0.finishedAt ?? $0.updatedAt }).max() else { return .zero }
        return .milliseconds(Int64((max(0, last.timeIntervalSince(start)) * 1000).rounded()))
    }
}
