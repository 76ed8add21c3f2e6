import ConfigFormat

/// Capped exponential backoff with jitter: how long to wait before the next try, and whether there is one.
package struct RetryPolicy: Sendable, Hashable {
    package var attempts: Int
    package var baseDelay: Duration
    package var maxDelay: Duration

    package init(attempts: Int, baseDelay: Duration, maxDelay: Duration) {
        self.attempts = attempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
    }

    package init(_ settings: RetrySettings) {
        self.init(attempts: settings.attempts, baseDelay: settings.baseDelay, maxDelay: settings.maxDelay)
    }

    /// True when a failure of try number `attempt` (from 1) may be followed by another.
    package func allowsRetry(after attempt: Int) -> Bool { attempt < attempts }

    /// The wait after try number `attempt` (from 1): base × 2^(attempt−1), capped, times 0.5 + jitter / 2.
    ///
    /// `jitter` is a number from 0 to 1 (random in ``delay(after:hint:)``). A server's own hint
    /// (`info.retryIn`, `Retry-After`) wins when it is longer.
    package func delay(after attempt: Int, hint: Duration? = nil, jitter: Double) -> Duration {
        let exponent = min(max(attempt - 1, 0), 30)
        let uncapped = Double(baseDelay.milliseconds) * Double(1 << exponent)
        let capped = min(uncapped, Double(maxDelay.milliseconds))
        let jittered = Duration.milliseconds(Int64(capped * (0.5 + min(max(jitter, 0), 1) / 2)))
        guard let hint else { return jittered }
        return max(jittered, hint)
    }

    /// The same with a random jitter.
    package func delay(after attempt: Int, hint: Duration? = nil) -> Duration {
        delay(after: attempt, hint: hint, jitter: Double.random(in: 0...1))
    }
}
