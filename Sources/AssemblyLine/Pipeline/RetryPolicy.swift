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
    /// `jitter` is a number from 0 to 1 (``jitter(seed:try:)``). A server's own hint
    /// (`info.retryIn`, `Retry-After`) wins when it is longer.
    package func delay(after attempt: Int, hint: Duration? = nil, jitter: Double) -> Duration {
        let exponent = min(max(attempt - 1, 0), 30)
        let uncapped = Double(baseDelay.milliseconds) * Double(1 << exponent)
        let capped = min(uncapped, Double(maxDelay.milliseconds))
        let jittered = Duration.milliseconds(Int64(capped * (0.5 + min(max(jitter, 0), 1) / 2)))
        guard let hint else { return jittered }
        return max(jittered, hint)
    }

    /// A number from 0 to 1 for the retry after failure number `try`, fixed by `seed` (SplitMix64's mixing
    /// of the two): the same seed always gives the same waits.
    package static func jitter(seed: UInt64, try number: Int) -> Double {
        var value = seed &+ UInt64(truncatingIfNeeded: number) &* 0x9E37_79B9_7F4A_7C15
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return Double((value ^ (value >> 31)) >> 11) / Double(UInt64(1) << 53)
    }
}
