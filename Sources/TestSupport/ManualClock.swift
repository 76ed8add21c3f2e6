import AssemblyLine
package import Foundation
import Synchronization

/// A pipeline clock that only moves when something waits on it: a wait returns at once and moves time on by its length.
///
/// Tests of the pipeline run on it and never sleep; `waits` says what the pipeline waited for.
package final class ManualClock: PipelineClock, Sendable {
    private let startDate: Date
    private let startInstant = ContinuousClock.now
    private let state = Mutex<(elapsed: Duration, waits: [Duration])>((.zero, []))

    /// A clock whose wall time starts at `start`.
    package init(start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        startDate = start
    }

    package var now: Date {
        let elapsed = state.withLock { $0.elapsed }
        return startDate.addingTimeInterval(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    package var instant: ContinuousClock.Instant {
        startInstant + state.withLock { $0.elapsed }
    }

    /// Every wait so far, in order.
    package var waits: [Duration] { state.withLock { $0.waits } }

    /// Time moved on since the start.
    package var elapsed: Duration { state.withLock { $0.elapsed } }

    package func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        state.withLock {
            $0.elapsed += duration
            $0.waits.append(duration)
        }
        await Task.yield()
    }
}
