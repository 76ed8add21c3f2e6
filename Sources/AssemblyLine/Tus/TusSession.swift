/// The bookkeeping of one tus upload call: failures since the last progress, retries, and body bytes sent.
///
/// Failures are counted from the last confirmed progress, so a long upload survives any number of
/// scattered faults while a server that keeps failing at one spot is given up on after
/// `policy.attempts` tries.
struct TusSession: Sendable {
    let policy: RetryPolicy
    let clock: any PipelineClock
    /// Fixes the jitter of the waits.
    let seed: UInt64
    /// Failures since the upload last moved forward.
    private(set) var failures = 0
    /// Every failure recovered from, over the whole call.
    private(set) var retries = 0
    /// Request body bytes sent, re-sent ones included.
    var bytesSent: Int64 = 0

    init(policy: RetryPolicy, clock: any PipelineClock, seed: UInt64) {
        self.policy = policy
        self.clock = clock
        self.seed = seed
    }

    /// Counts a failure and, when another try is allowed, waits for it (when `wait` is set); else throws `error`.
    ///
    /// The wait is the policy's backoff after this many failures, or the server's hint when longer.
    mutating func recover(from error: TransloaditError, wait: Bool) async throws {
        failures += 1
        guard policy.allowsRetry(after: failures) else { throw error }
        retries += 1
        if wait {
            try await clock.sleep(for: policy.delay(after: failures, hint: error.retryIn, jitter: RetryPolicy.jitter(seed: seed, try: retries)))
        }
    }

    /// Notes that the upload moved forward: the failure count starts again.
    mutating func progressed() {
        failures = 0
    }
}
