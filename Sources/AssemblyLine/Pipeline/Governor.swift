/// Paces a whole run: Assembly creations per minute, status requests per Assembly, uploads and downloads in flight.
///
/// One governor serves every shard of a run, so that the limits of the manifest hold across the run
/// and not per shard. The rates are budgets over a sliding window, not a metronome: at most
/// `creations_per_minute` creations in any 60 s and `status_per_second` status requests of one
/// Assembly in any second, so a batch that stays under them is never slowed. Once the service has
/// answered a creation with a rate limit, creations wait out its hint and from then on are spaced
/// evenly across the minute: the account's budget is shared with others, and a second burst would
/// meet the same refusal.
///
/// The creations budget is the account's: it applies to an endpoint URL, default or not, and to the
/// embedded service, which has no account, only when the manifest sets `limits.creations_per_minute`.
/// Each creation held back is told (`waiting`), with the earliest the last of the run's creations still
/// ahead can go, so that a progress bar says the run waits and counts the wait in its time left.
package actor Governor {
    package let uploads: AsyncSemaphore
    package let downloads: AsyncSemaphore
    /// The creations budget; nil when none applies (the embedded service, unless the manifest sets one).
    private var creations: SlidingWindowBudget?
    /// Set by the first rate-limited creation: from then on creations are `evenSpacing` apart.
    private var spacedEvenly = false
    private let evenSpacing: Duration
    private var creationsBlockedUntil: ContinuousClock.Instant
    private var lastCreation: ContinuousClock.Instant?
    /// The run's shards still to create an Assembly (a retry's new Assembly is not foreseen).
    private var creationsAhead: Int
    private let statusLimit: Int
    private var statusBudgets: [String: SlidingWindowBudget] = [:]
    private let clock: any PipelineClock
    private let waiting: @Sendable (CreationWait) -> Void

    /// - Parameters:
    ///   - embeddedEndpoint: the run's service is the embedded one: no creations budget unless `limits` sets one.
    ///   - creationsAhead: the shards of the run that will create an Assembly.
    ///   - waiting: told of each creation held back, before it waits.
    package init(limits: RateLimits, concurrency: ConcurrencyLimits, embeddedEndpoint: Bool = false, creationsAhead: Int = 0,
                 clock: any PipelineClock = SystemClock(), waiting: @escaping @Sendable (CreationWait) -> Void = { _ in }) {
        self.clock = clock
        self.waiting = waiting
        self.creationsAhead = creationsAhead
        let perMinute = max(limits.creationsPerMinute, 1)
        creations = embeddedEndpoint && !limits.setsCreationsPerMinute ? nil : SlidingWindowBudget(limit: perMinute, window: .seconds(60))
        evenSpacing = .milliseconds(60_000 / Int64(perMinute))
        statusLimit = max(limits.statusRequestsPerSecond, 1)
        uploads = AsyncSemaphore(limit: concurrency.uploads)
        downloads = AsyncSemaphore(limit: concurrency.downloads)
        creationsBlockedUntil = clock.instant
    }

    /// Waits until one more Assembly may be created within the budget, telling the wait when there is one.
    package func awaitCreation() async throws {
        let now = clock.instant
        var earliest = max(now, creationsBlockedUntil)
        if spacedEvenly, let lastCreation {
            earliest = max(earliest, lastCreation + evenSpacing)
        }
        let slot = creations?.reserve(at: earliest) ?? earliest
        lastCreation = slot
        creationsAhead = max(creationsAhead - 1, 0)
        if slot > now {
            var last = creations?.lastSlot(ofNext: creationsAhead, from: slot) ?? slot
            if spacedEvenly { last = max(last, slot + evenSpacing * creationsAhead) }
            let cause: CreationWait.Cause = if let creations, slot > earliest { .budget(perMinute: creations.limit) } else { .serviceRateLimit }
            waiting(CreationWait(cause: cause, asked: now, until: slot, lastCreation: last))
        }
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
