import AssemblyLine
import ConfigFormat
import Foundation
@testable import LocalTransloadit
import TestSupport
import Testing

/// The service takes the time from ``LocalServiceConfiguration/clock``: an Assembly's times and its files' lifetime follow it.
@Suite(.timeLimit(.minutes(3))) struct ServiceClockTests {
    /// 1_800_000_000, where a ``ManualClock`` starts, as the status JSON writes it.
    static let manualStart = "2027/01/15 08:00:00 GMT"

    @Test func assemblyTimesAndResultLifetimeFollowTheInjectedClock() async throws {
        let clock = ManualClock()
        let harness = try ServiceHarness {
            $0.clock = clock
            $0.resultTTL = .seconds(3_600)
        }
        let file = try harness.textFile("a.txt", "on a manual clock")
        let params = harness.params(AssemblyLifecycleTests.original, expires: ServiceHarness.expiry(in: 300, after: clock.now))
        let created = try await harness.create(params: params, files: [("f", file)])
        #expect(created.status == 200)
        let done = try await harness.waitForEnd(try #require(created["assembly_id"]?.stringValue))
        #expect(done["ok"]?.stringValue == "ASSEMBLY_COMPLETED")
        for field in ["start_date", "created", "execution_start", "last_job_completed"] {
            #expect(done[field]?.stringValue == Self.manualStart, "\(field)")
        }
        #expect(done["upload_duration"]?.intValue == 0 && done["execution_duration"]?.intValue == 0)

        let url = try #require(done["results"]?[":original"]?[0]?["url"]?.stringValue)
        try await clock.sleep(for: .seconds(3_599))
        #expect(try await harness.download(url).response.status == 200)
        try await clock.sleep(for: .seconds(1))
        let expired = try await harness.get(url)
        #expect(expired.status == 404 && expired["error"]?.stringValue == "FILE_EXPIRED")
    }
}
