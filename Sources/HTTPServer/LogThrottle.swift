import Synchronization

/// Passes on at most one log line per interval and counts the rest, so that a flood of refused
/// connections cannot flood the log too.
///
/// The first line after a quiet interval goes out at once; lines within the interval after it
/// are dropped, and the next line that goes out says how many were.
final class LogThrottle: Sendable {
    private struct State {
        var lastSent: ContinuousClock.Instant?
        var dropped = 0
    }

    private let interval: Duration
    private let output: @Sendable (String) -> Void
    private let state = Mutex(State())

    init(interval: Duration = .seconds(1), output: @escaping @Sendable (String) -> Void) {
        self.interval = interval
        self.output = output
    }

    /// Sends `line` now, or counts it when a line went out less than an interval ago.
    func log(_ line: String) {
        let now = ContinuousClock.now
        let dropped = state.withLock { state -> Int? in
            if let last = state.lastSent, last.duration(to: now) < interval {
                state.dropped += 1
                return nil
            }
            state.lastSent = now
            defer { state.dropped = 0 }
            return state.dropped
        }
        guard let dropped else { return }
        output(dropped == 0 ? line : "\(line) (\(dropped) more lines dropped since the previous one)")
    }
}
