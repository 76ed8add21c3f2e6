import AssemblyLine
import Synchronization
import TestSupport
import Testing

/// A run paced by its creations budget says so as it waits, and its time left counts the wait: in-process, on a manual clock.
@Suite struct PacingTests {
    @Test func aCreationThatWaitsForTheBudgetIsToldAndTheTimeLeftCountsTheWait() async throws {
        // Three shards of two, one at a time, one creation a minute: the second waits a minute, the third two.
        let files = Dictionary(uniqueKeysWithValues: (1...6).map { ("f\($0).txt", "file \($0)\n") })
        let harness = try SessionHarness(files: files, extra: "concurrency: {assemblies: 1}\nlimits: {creations_per_minute: 1}")
        let observer = PacedObserver(clock: harness.clock)

        let outcome = try await harness.session().run(force: false, checksums: false, maxDuration: nil, observer: observer, stop: RunStop())

        #expect(outcome.state == .finished && outcome.summary.filesByState[.done] == 6)
        let told = observer.told.all
        #expect(told.map(\.wait.cause) == [.budget(perMinute: 1), .budget(perMinute: 1)] && told.map(\.wait.duration) == [.seconds(60), .seconds(60)],
                "\(told)")
        // At the first wait no rate is known yet (under a second): the last shard starts two minutes on.
        // At the second, four of six files are done in a minute, a rate that says 30 s: the budget says 60.
        #expect(told.map(\.timeLeft) == [.seconds(120), .seconds(60)], "\(told.map(\.timeLeft))")
    }

    @Test func theEmbeddedServiceIsNotHeldToTheAccountsDefaultBudget() async throws {
        // 201 shards of two: one past the default budget of 200 a minute, which is the account's.
        let files = Dictionary(uniqueKeysWithValues: (1...402).map { ("f\($0).txt", "\($0)\n") })
        let embedded = try SessionHarness(files: files)
        let remote = try SessionHarness(files: files)

        let local = try await embedded.run(embedded: true)
        let account = try await remote.run(embedded: false)

        #expect(local.state == .finished && account.state == .finished)
        #expect(embedded.observer.waits.all.isEmpty && embedded.clock.elapsed < .seconds(60), "no account, no budget")
        #expect(remote.observer.waits.all.map(\.cause) == [.budget(perMinute: 200)], "\(remote.observer.waits.all)")
    }
}

/// An observer that keeps the run's tally as a progress bar does, and the time left it says at each creation wait.
final class PacedObserver: RunObserver {
    let clock: ManualClock
    let told = Recorder<(wait: CreationWait, timeLeft: Duration?)>()
    private let tally: Mutex<RunTally>

    init(clock: ManualClock) {
        self.clock = clock
        tally = Mutex(RunTally(at: clock.instant))
    }

    func planned(_ warnings: [PlanWarning]) {}
    func started(_ run: StartedRun) { tally.withLock { $0 = RunTally(shards: run.shards, at: clock.instant) } }
    func report(_ event: ShardEvent) { tally.withLock { $0.record(event) } }
    func waiting(_ wait: CreationWait) {
        told.append((wait, tally.withLock { tally in
            tally.record(wait)
            return tally.timeLeft(at: wait.asked)
        }))
    }
    func sent(_ bytes: Int64) {}
    func stopping(_ reason: RunStop.Reason) {}
    func ended(_ outcome: RunOutcome) {}
}
