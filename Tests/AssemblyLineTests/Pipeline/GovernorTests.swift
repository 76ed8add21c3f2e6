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
