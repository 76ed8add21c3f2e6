import AssemblyLine
import Foundation
import SQLiteLedger
import TestSupport
import Testing

/// `run` against `assemblyline serve` in production's shape: machines apart from the API host that go away mid-run.
@Suite struct ProductionShapeTests {
    @Test func machinesCycledMidRunLeaveEveryFileDoneWithOneAssemblyPerShardAndEachResultFetchedOnce() async throws {
        let directory = try RunCommandTests.job()
        let secret = "secret-\(UUID().uuidString)"
        let serve = try FaultSurvivalTests.service(["--cycle-machines", "5"], in: directory, secret: secret)
        defer { serve.stop() }
        let endpoint = try serve.baseURL()
        try directory.write("job/cycled.yaml", FaultSurvivalTests.manifest(endpoint: endpoint, settings: """
            shards: {files: 2}
            concurrency: {assemblies: 3}
            retry: {attempts: 3, base_delay: 20ms, max_delay: 200ms}
            limits: {creations_per_minute: 6000, status_per_second: 20}
            """))
        let state = directory.url.appendingPathComponent("job/state")

        let run = try BinaryRunner.run(["run", "job/cycled.yaml", "--quiet"], in: directory.url, environment: ["TL_SECRET": secret])

        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let runID = try #require(FaultSurvivalTests.runID(run))
        let inspection = try await RunInspection.read(stateDirectory: state, runID: runID)
        #expect(inspection.files.allSatisfy { $0.state == .done })
        #expect(inspection.resultProblems { RunInspection.fitted($0, into: (160, 120)) }.isEmpty)
        #expect(inspection.results.allSatisfy { $0.fetches == 1 }, "\(inspection.results.map(\.fetches))")
        #expect(inspection.attempts.count == inspection.shards.count, "a cycled machine made a second Assembly")
        #expect(inspection.attempts.allSatisfy { $0.assemblyURL?.hasPrefix(endpoint) == false }, "status URLs name the API host")
        #expect(serve.errors.contains("went away;"), "no machine went away")
        let ledger = try await SQLiteLedger.open(stateDirectory: state.path, mode: .readOnly)
        let moves = try await ledger.events(of: runID, shard: nil).filter { $0.kind == "attempt.moved" }
        await ledger.close()
        #expect(!moves.isEmpty, "no poll followed a machine")
        let listing = AssemblyListing(baseURL: endpoint, key: FaultSurvivalTests.key, secret: secret)
        let atService = inspection.serviceProblems(try listing.items())
        #expect(atService.isEmpty, "\(atService)")
    }
}
