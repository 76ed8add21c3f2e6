import AssemblyLine
import Foundation
import SQLiteLedger
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `run` against `assemblyline serve` in production's shape: machines apart from the API host that go away mid-run.
@Suite(.timeLimit(.minutes(3))) struct ProductionShapeTests {
    /// The sample job against a `serve` whose machines go away after `cycleAfter` requests each.
    struct CycledJob {
        let directory: TemporaryDirectory
        let serve: ChildServer
        let endpoint: String
        let environment: [String: String]
        var state: URL { directory.url.appendingPathComponent("job/state") }

        /// Writes `job/cycled.yaml` with `shards`, `concurrency` and fast retries and limits.
        init(cycleAfter: Int, shards: Int, assemblies: Int) async throws {
            directory = try await RunCommandTests.job()
            let secret = "secret-\(UUID().uuidString)"
            environment = ["TL_SECRET": secret]
            serve = try FaultSurvivalTests.service(["--cycle-machines", "\(cycleAfter)"], in: directory, secret: secret)
            endpoint = try await serve.baseURL()
            try directory.write("job/cycled.yaml", FaultSurvivalTests.manifest(endpoint: endpoint, settings: """
                shards: {files: \(shards)}
                concurrency: {assemblies: \(assemblies)}
                retry: {attempts: 3, base_delay: 20ms, max_delay: 200ms}
                limits: {creations_per_minute: 6000, status_per_second: 20}
                """))
        }

        /// Every file done and fitted, each result fetched once, one Assembly per shard, a machine gone, and the service agreeing.
        func expectEachResultOnceFromOneAssemblyPerShard(_ runID: RunID) async throws -> RunInspection {
            let inspection = try await RunInspection.read(stateDirectory: state, runID: runID)
            #expect(inspection.files.allSatisfy { $0.state == .done })
            #expect(inspection.resultProblems { RunInspection.fitted($0, into: (160, 120)) }.isEmpty)
            #expect(inspection.results.allSatisfy { $0.fetches == 1 }, "\(inspection.results.map(\.fetches))")
            #expect(inspection.attempts.count == inspection.shards.count, "a kill or a cycled machine made a second Assembly")
            #expect(serve.errors.contains("went away;"), "no machine went away")
            let secret = environment["TL_SECRET"] ?? ""
            let atService = inspection.serviceProblems(try await AssemblyListing(baseURL: endpoint, key: FaultSurvivalTests.key, secret: secret).items())
            #expect(atService.isEmpty, "\(atService)")
            return inspection
        }
    }

    @Test func machinesCycledMidRunLeaveEveryFileDoneWithOneAssemblyPerShardAndEachResultFetchedOnce() async throws {
        let job = try await CycledJob(cycleAfter: 2, shards: 2, assemblies: 3)
        defer { job.serve.stop() }

        let run = try await BinaryRunner.run(["run", "job/cycled.yaml"], in: job.directory.url, environment: job.environment)

        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let runID = try #require(FaultSurvivalTests.runID(run))
        let inspection = try await job.expectEachResultOnceFromOneAssemblyPerShard(runID)
        #expect(inspection.attempts.allSatisfy { $0.assemblyURL?.hasPrefix(job.endpoint) == false }, "status URLs name the API host")
        let ledger = try await SQLiteLedger.open(stateDirectory: job.state.path, mode: .readOnly)
        let moves = try await ledger.events(of: runID, shard: nil).filter { $0.kind == .attemptMoved }
        await ledger.close()
        #expect(!moves.isEmpty, "no poll followed a machine")
    }

    @Test func aRunKilledMidPollWhileMachinesCycleIsResumedWithEachResultFetchedOnce() async throws {
        let job = try await CycledJob(cycleAfter: 4, shards: 3, assemblies: 1)
        defer { job.serve.stop() }

        let killed = try await BinaryRunner.run(["run", "job/cycled.yaml"], in: job.directory.url,
                                          environment: job.environment.merging(["ASSEMBLYLINE_KILL_AT": "mid-poll:3"]) { $1 })
        try #require(killed.wasKilled(by: SIGKILL), "\(killed.reason) \(killed.status): \(killed.stderr)")
        let runID = try #require(FaultSurvivalTests.runID(killed))
        let resumed = try await BinaryRunner.run(["resume", runID.rawValue, "--state-dir", "job/state"], in: job.directory.url,
                                           environment: job.environment)

        #expect(resumed.status == 0, "\(resumed.stdout)\(resumed.stderr)")
        _ = try await job.expectEachResultOnceFromOneAssemblyPerShard(runID)
    }
}

/// An export recipe against the service's `/s3/store` stand-in, whose storage URLs answer 403 as a private bucket does.
@Suite(.timeLimit(.minutes(3))) struct ExportRecipeTests {
    /// A manifest that resizes into `thumb` and stores the thumbnails with `/s3/store`, plus `output`.
    static func manifest(endpoint: String, output: String) -> String {
        """
        version: 1
        name: exported
        endpoint: \(endpoint)
        auth: {key: \(FaultSurvivalTests.key)}
        signer: {kind: local, secret_env: TL_SECRET}
        inputs: {include: "in/**/*.png", base: in}
        steps:
          thumb: {robot: /image/resize, use: ":original", width: 160, height: 120, resize_strategy: fit, format: jpg, result: true}
          archive: {robot: /s3/store, use: thumb, credentials: my_bucket}
        poll: {interval: 50ms, max_interval: 200ms}
        shards: {files: 4}
        state_dir: state
        \(output)

        """
    }

    @Test func exportResultsAreRecordedNotFetchedAndTheThumbnailsDownloadedOnce() async throws {
        let directory = try await RunCommandTests.job()
        let secret = "secret-\(UUID().uuidString)"
        let serve = try FaultSurvivalTests.service([], in: directory, secret: secret)
        defer { serve.stop() }
        let endpoint = try await serve.baseURL()
        try directory.write("job/exported.yaml", Self.manifest(endpoint: endpoint, output: ""))
        let environment = ["TL_SECRET": secret]

        let run = try await BinaryRunner.run(["run", "job/exported.yaml"], in: directory.url, environment: environment)

        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let runID = try #require(FaultSurvivalTests.runID(run))
        let inspection = try await RunInspection.read(stateDirectory: directory.url.appendingPathComponent("job/state"), runID: runID)
        #expect(inspection.files.allSatisfy { $0.state == .done })
        let thumbs = inspection.results.filter { $0.result.step == "thumb" }
        let archived = inspection.results.filter { $0.result.step == "archive" }
        #expect(thumbs.count == inspection.files.count && thumbs.allSatisfy { $0.isDownloaded && $0.fetches == 1 })
        #expect(archived.count == inspection.files.count)
        #expect(archived.allSatisfy { $0.result.delivery == .exported && $0.fetches == 0 && $0.result.url?.contains("/storage/") == true })
        #expect(!serve.errors.contains("storage: refused"), "\(serve.errors)")

        let report = try await BinaryRunner.run(["report", runID.rawValue, "--state-dir", "job/state", "--results", "--format", "csv"],
                                          in: directory.url)
        let exportedRows = report.stdout.split(separator: "\r\n").filter { $0.contains(",archive,exported,") }
        #expect(exportedRows.count == inspection.files.count, "\(report.stdout)")
    }

    @Test func askingForAPrivateExportFailsEachFileNamingTheStep() async throws {
        let directory = try await RunCommandTests.job()
        let secret = "secret-\(UUID().uuidString)"
        let serve = try FaultSurvivalTests.service([], in: directory, secret: secret)
        defer { serve.stop() }
        try directory.write("job/exported.yaml", Self.manifest(endpoint: try await serve.baseURL(), output: "output: {steps: [archive]}"))

        let run = try await BinaryRunner.run(["run", "job/exported.yaml"], in: directory.url, environment: ["TL_SECRET": secret])

        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        let runID = try #require(FaultSurvivalTests.runID(run))
        let inspection = try await RunInspection.read(stateDirectory: directory.url.appendingPathComponent("job/state"), runID: runID)
        #expect(inspection.files.allSatisfy { $0.state == .failed && $0.failure?.code == .resultNotDownloadable })
        #expect(inspection.files.first?.failure?.message.contains("step archive (HTTP 403)") == true)
        #expect(inspection.attempts.count == inspection.shards.count, "a private result made a second Assembly")
        #expect(serve.errors.contains("storage: refused"))
    }
}
