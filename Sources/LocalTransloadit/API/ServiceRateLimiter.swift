import Synchronization

/// Sliding-window request limits: at most `limit` admissions per key within `window`.
///
/// The service keeps one for Assembly creations (one key, per minute) and one for status
/// requests (one key per Assembly, per second). A limit of 0 admits everything.
final class ServiceRateLimiter: Sendable {
    let limit: Int
    let window: Duration
    /// The time, read under the lock: read before it, a request that took the lock after a later one made the window
    /// look as if it began in the future, and answered a wait longer than the window (`Retry-After: 2` of a 1 s window,
    /// seen in the unit suite).
    private let now: @Sendable () -> ContinuousClock.Instant
    private let admissions = Mutex<[String: [ContinuousClock.Instant]]>([:])

    init(limit: Int, window: Duration, now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }) {
        self.limit = limit
        self.window = window
        self.now = now
    }

    /// Admits one request under `key`; returns nil when admitted, or how long until one would be.
    func admit(_ key: String = "") -> Duration? {
        guard limit > 0 else { return nil }
        return admissions.withLock { admissions -> Duration? in
            let now = self.now()
            if admissions.count > 4_096 {
                admissions = admissions.filter { $0.value.last.map { now - $0 < window } ?? false }
            }
            var times = admissions[key, default: []]
            times.removeAll { now - $0 >= window }
            defer { admissions[key] = times }
            guard times.count < limit else {
                return window - (now - times[0])
            }
            times.append(now)
            return nil
        }
    }
}

extension Duration {
    /// The duration in seconds, rounded up to the millisecond, as `info.retryIn` gives it.
    var retrySeconds: Double {
        let milliseconds = Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
        return max(0.001, (milliseconds.rounded(.up)) / 1000)
    }
}
