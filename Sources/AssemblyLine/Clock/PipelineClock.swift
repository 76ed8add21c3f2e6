package import Foundation

/// The pipeline's clock: wall time for the ledger and expiries, monotonic time for pacing, and waiting.
///
/// Injected everywhere in the pipeline (the shard driver, the governor, tus retries), so that
/// in-process tests run on a manual clock and never sleep.
package protocol PipelineClock: Sendable {
    /// Wall-clock time, for the ledger's timestamps, signatures' expiry and results' lifetime.
    var now: Date { get }
    /// Monotonic time, for pacing and deadlines within a process.
    var instant: ContinuousClock.Instant { get }
    /// Waits `duration`; throws `CancellationError` when the task is cancelled.
    func sleep(for duration: Duration) async throws
}

/// The system's clocks: `Date()`, `ContinuousClock` and `Task.sleep`.
package struct SystemClock: PipelineClock {
    package init() {}

    package var now: Date { Date() }

    package var instant: ContinuousClock.Instant { ContinuousClock.now }

    package func sleep(for duration: Duration) async throws {
        try await Task.sleep(for: duration)
    }
}

extension PipelineClock {
    /// Waits until `instant` (at once when it has passed).
    package func sleep(until deadline: ContinuousClock.Instant) async throws {
        let left = instant.duration(to: deadline)
        if left > .zero {
            try await sleep(for: left)
        }
    }
}
