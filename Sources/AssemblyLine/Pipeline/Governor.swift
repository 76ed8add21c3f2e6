/// Paces a whole run: Assembly creations per minute, status requests per Assembly, uploads and downloads in flight.
///
/// One governor serves every shard of a run, so that the limits of the manifest hold across the run
/// and not per shard. The rates are budgets over a sliding window, not a metronome: at most
/// `creations_per_minute` creations in any 60 s and `status_per_second` status requests of one
/// Assembly in any second, so a batch that stays under them is never slowed. Once the service has
/// answered a creation with a rate limit, creations wait out its hint and from then on are spaced
/// evenly across the minute: the account's budget is shared with others, and a second burst would
/// meet the same refusal.
package actor Governor {
    package let uploads: AsyncSemaphore
    package let downloads: AsyncSemaphore
    private var creations: SlidingWindowBudget
    /// Set by the first rate-limited creation: from then on creations are `evenSpacing` apart.
    private var spacedEvenly = false
    private let evenSpacing: Duration
    private var creationsBlockedUntil: ContinuousClock.Instant
    private var lastCreation: ContinuousClock.Instant?
    private let statusLimit: Int
    private var statusBudgets: [String: SlidingWindowBudget] = [:]
    private let clock: any PipelineClock

    package init(limits: RateLimits, concurrency: ConcurrencyLimits, clock: any PipelineClock = SystemClock()) {
        self.clock = clock
        let perMinute = max(limits.creationsPerMinute, 1)
        creations = SlidingWindowBudget(limit: perMinute, window: .seconds(60))
        evenSpacing = .milliseconds(60_000 / Int64(perMinute))
        statusLimit = max(limits.statusRequestsPerSecond, 1)
        uploads = AsyncSemaphore(limit: concurrency.uploads)
        downloads = AsyncSemaphore(limit: concurrency.downloads)
        creationsBlockedUntil = clock.instant
    }

    /// Waits until one more Assembly may be created within the budget.
    package func awaitCreation() async throws {
        var earliest = max(clock.instant, creationsBlockedUntil)
        if spacedEvenly, let lastCreation {
            earliest = max(earliest, lastCreation + evenSpacing)
        }
        let slot = creations.reserve(at: earliest)
        lastCreation = slot
        try await clock.sleep(until: slot)
    }

    /// Waits until the status of `assembly` may be asked again within its budget.
    package func awaitStatus(of assembly: String) async throws {
        var budget = statusBudgets[assembly] ?? SlidingWindowBudget(limit: statusLimit, window: .seconds(1))
        let slot = budget.reserve(at: clock.instant)
        statusBudgets[assembly] = budget
        try await clock.sleep(until: slot)
    }

    /// Holds every later creation back for `duration`, after the service said the rate limit was
    /// reached, and spaces them evenly from then on.
    package func backOffCreations(for duration: Duration) {
        creationsBlockedUntil = max(creationsBlockedUntil, clock.instant + duration)
        spacedEvenly = true
    }

    /// Forgets an Assembly that will not be polled again.
    package func forget(_ assembly: String) {
        statusBudgets[assembly] = nil
    }
}
