/// Paces a whole run: Assembly creations per minute, status requests per Assembly, uploads and downloads in flight.
///
/// One governor serves every shard of a run, so that the limits of the manifest hold across the run
/// and not per shard.
package actor Governor {
    package let uploads: AsyncSemaphore
    package let downloads: AsyncSemaphore
    private let creationInterval: Duration
    private let statusInterval: Duration
    private var nextCreation: ContinuousClock.Instant
    private var nextStatus: [String: ContinuousClock.Instant] = [:]
    private let clock: any PipelineClock

    package init(limits: RateLimits, concurrency: ConcurrencyLimits, clock: any PipelineClock = SystemClock()) {
        self.clock = clock
        creationInterval = .milliseconds(60_000 / Int64(max(limits.creationsPerMinute, 1)))
        statusInterval = .milliseconds(1_000 / Int64(max(limits.statusRequestsPerSecond, 1)))
        uploads = AsyncSemaphore(limit: concurrency.uploads)
        downloads = AsyncSemaphore(limit: concurrency.downloads)
        nextCreation = clock.instant
    }

    /// Waits until one more Assembly may be created; creations are spaced evenly across the minute.
    package func awaitCreation() async throws {
        let slot = max(nextCreation, clock.instant)
        nextCreation = slot + creationInterval
        try await clock.sleep(until: slot)
    }

    /// Waits until the status of `assembly` may be asked again.
    package func awaitStatus(of assembly: String) async throws {
        let slot = max(nextStatus[assembly] ?? clock.instant, clock.instant)
        nextStatus[assembly] = slot + statusInterval
        try await clock.sleep(until: slot)
    }

    /// Pushes every later creation back, after the service said the rate limit was reached.
    package func backOffCreations(for duration: Duration) {
        nextCreation = max(nextCreation, clock.instant + duration)
    }

    /// Forgets an Assembly that will not be polled again.
    package func forget(_ assembly: String) {
        nextStatus[assembly] = nil
    }
}
