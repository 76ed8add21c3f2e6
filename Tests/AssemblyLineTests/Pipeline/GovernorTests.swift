@testable import AssemblyLine
import TestSupport
import Testing

/// The governor's rates are budgets over a sliding window: a burst up to the budget is never paced.
@Suite struct GovernorTests {
    static let concurrency = ConcurrencyLimits(assemblies: 4, uploads: 4, downloads: 4)

    @Test func creationsUpToTheBudgetGoAtOnceAndTheNextWhenTheOldestLeavesTheWindow() async throws {
        let clock = ManualClock()
        let governor = Governor(limits: RateLimits(creationsPerMinute: 100, statusRequestsPerSecond: 2),
                                concurrency: Self.concurrency, clock: clock)
        // A 100-Assembly batch within the account's budget is never paced
        for _ in 0..<100 {
            try await governor.awaitCreation()
        }
        #expect(clock.waits.isEmpty)
        // The 101st waits for the first to leave the minute, and no longer
        try await governor.awaitCreation()
        #expect(clock.waits == [.seconds(60)])
    }

    @Test func creationsSpreadOverTheWindowRefillOneForOne() async throws {
        let clock = ManualClock()
        let governor = Governor(limits: RateLimits(creationsPerMinute: 3, statusRequestsPerSecond: 2),
                                concurrency: Self.concurrency, clock: clock)
        try await governor.awaitCreation()
        try await clock.sleep(for: .seconds(20))
        try await governor.awaitCreation()
        try await clock.sleep(for: .seconds(20))
        try await governor.awaitCreation()
        // Three in the window (at 0, 20 and 40 s): the fourth goes when the first leaves it, at 60 s
        try await governor.awaitCreation()
        #expect(clock.elapsed == .seconds(60))
        // and the fifth when the second does, at 80 s
        try await governor.awaitCreation()
        #expect(clock.elapsed == .seconds(80))
    }

    @Test func aRateLimitedCreationHoldsTheRestBackThenSpacesThemEvenly() async throws {
        let clock = ManualClock()
        let governor = Governor(limits: RateLimits(creationsPerMinute: 120, statusRequestsPerSecond: 2),
                                concurrency: Self.concurrency, clock: clock)
        try await governor.awaitCreation()
        await governor.backOffCreations(for: .seconds(5))
        try await governor.awaitCreation()
        try await governor.awaitCreation()
        try await governor.awaitCreation()
        // The hint first, then one every 60 s / 120
        #expect(clock.waits == [.seconds(5), .milliseconds(500), .milliseconds(500)])
    }

    @Test func eachCreationHeldBackIsToldWithTheEarliestTheLastAheadCanGo() async throws {
        let clock = ManualClock()
        let waits = Recorder<CreationWait>()
        let governor = Governor(limits: RateLimits(creationsPerMinute: 200, statusRequestsPerSecond: 2), concurrency: Self.concurrency,
                                creationsAhead: 300, clock: clock, waiting: { waits.append($0) })
        let start = clock.instant
        // 300 shards at 200 a minute: 200 at once, the 201st a minute later, and the last 99 with it
        for _ in 0..<201 {
            try await governor.awaitCreation()
        }

        let wait = try #require(waits.all.first)
        #expect(waits.all.count == 1 && wait.cause == .budget(perMinute: 200))
        #expect(wait.asked == start && wait.duration == .seconds(60) && start.duration(to: wait.lastCreation) == .seconds(60), "\(wait)")
        // Past the next burst, the last of 450 more waits one more minute
        let later = Governor(limits: RateLimits(creationsPerMinute: 200, statusRequestsPerSecond: 2), concurrency: Self.concurrency,
                             creationsAhead: 651, clock: clock, waiting: { waits.append($0) })
        for _ in 0..<201 {
            try await later.awaitCreation()
        }
        let second = try #require(waits.all.last)
        #expect(second.duration == .seconds(60) && second.asked.duration(to: second.lastCreation) == .seconds(180), "\(second)")
    }

    @Test func theEmbeddedServiceHasNoCreationsBudgetUnlessTheManifestSetsOne() async throws {
        let clock = ManualClock()
        let waits = Recorder<CreationWait>()
        let limits = RateLimits(creationsPerMinute: 2, statusRequestsPerSecond: 2)
        let embedded = Governor(limits: limits, concurrency: Self.concurrency, embeddedEndpoint: true, clock: clock, waiting: { waits.append($0) })
        for _ in 0..<10 {
            try await embedded.awaitCreation()
        }
        #expect(clock.waits.isEmpty && waits.all.isEmpty, "no account, no budget")

        var set = limits
        set.setsCreationsPerMinute = true
        let budgeted = Governor(limits: set, concurrency: Self.concurrency, embeddedEndpoint: true, clock: clock, waiting: { waits.append($0) })
        for _ in 0..<3 {
            try await budgeted.awaitCreation()
        }
        #expect(clock.waits == [.seconds(60)] && waits.all.map(\.cause) == [.budget(perMinute: 2)], "a budget the manifest sets applies")
    }

    @Test func aCreationHeldBackByTheServicesRateLimitIsToldAsSuch() async throws {
        let clock = ManualClock()
        let waits = Recorder<CreationWait>()
        let governor = Governor(limits: RateLimits(creationsPerMinute: 120, statusRequestsPerSecond: 2), concurrency: Self.concurrency,
                                embeddedEndpoint: true, creationsAhead: 4, clock: clock, waiting: { waits.append($0) })
        try await governor.awaitCreation()
        await governor.backOffCreations(for: .seconds(5))
        try await governor.awaitCreation()

        let wait = try #require(waits.all.first)
        #expect(wait.cause == .serviceRateLimit && wait.duration == .seconds(5), "\(wait)")
        #expect(wait.asked.duration(to: wait.lastCreation) == .seconds(6), "two more, 500 ms apart: \(wait)")
    }

    @Test func statusRequestsOfOneAssemblyKeepTheirBudgetAndOthersAreNotHeldBack() async throws {
        let clock = ManualClock()
        let governor = Governor(limits: RateLimits(creationsPerMinute: 200, statusRequestsPerSecond: 2),
                                concurrency: Self.concurrency, clock: clock)
        try await governor.awaitStatus(of: "a")
        try await governor.awaitStatus(of: "a")
        try await governor.awaitStatus(of: "b")
        try await governor.awaitStatus(of: "b")
        #expect(clock.waits.isEmpty)
        try await governor.awaitStatus(of: "a")
        #expect(clock.waits == [.seconds(1)])
        // Forgotten, an Assembly starts with a full budget again
        await governor.forget("a")
        try await governor.awaitStatus(of: "a")
        try await governor.awaitStatus(of: "a")
        #expect(clock.waits == [.seconds(1)])
    }
}
