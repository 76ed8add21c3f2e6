import AssemblyLine
import ConfigFormat
import Foundation
import TestSupport
import Testing

/// `run` and `resume` against `assemblyline serve` with seeded faults and tight rate limits: every file ends done,
/// every result is verified on disk, and no shard has two completed Assemblies at the service.
@Suite(.timeLimit(.minutes(3))) struct FaultSurvivalTests {
    static let key = "5ca1ab1e0ddba11fee1dc0ffee15600d"

    /// `assemblyline serve` in `directory` with a fixed key, the secret in TL_SECRET, and `options`.
    static func service(_ options: [String], in directory: TemporaryDirectory, secret: String, port: Int = 0,
                        name: String = "serve") throws -> ChildServer {
        try ChildServer(["serve", "--listen", "127.0.0.1:\(port)", "--data-dir", "service", "--key", key,
                         "--secret-env", "TL_SECRET"] + options,
                        in: directory.url, name: name, environment: ["TL_SECRET": secret])
    }

    /// A manifest resizing `include` into 160×120 at `endpoint`, signed locally with TL_SECRET, plus `settings`.
    static func manifest(endpoint: String, include: String = "in/**/*.png", settings: String) -> String {
        """
        version: 1
        name: faulty
        endpoint: \(endpoint)
        auth: {key: \(key)}
        signer: {kind: local, secret_env: TL_SECRET}
        inputs: {include: "\(include)", base: in}
        resize: {width: 160, height: 120, strategy: fit, format: jpg}
        poll: {interval: 50ms, max_interval: 200ms}
        state_dir: state
        \(settings)

        """
    }

    /// The run ID a `run` or `resume` printed first.
    static func runID(_ outcome: BinaryRunner.Outcome) -> RunID? {
        outcome.stdout.split(separator: "\n").first.flatMap { RunID(String($0)) }
    }

    /// True for a failure that `resume` can fix: a new Assembly for an execution error, or a retry that ran out.
    static func resumeCanFix(_ failure: FailureReason?) -> Bool {
        guard let failure else { return false }
        return failure.code == "INTERNAL_COMMAND_ERROR" || failure.isRetryable
    }

    @Test func seededFaultsAndTightLimitsEndWithEveryFileDoneAfterBoundedResumes() async throws {
        let directory = try await RunCommandTests.job()
        let secret = "secret-\(UUID().uuidString)"
        // Creations that fail, status requests that fail, drop or dawdle, downloads cut short or altered, and
        // Assemblies that fail; seed 59 puts faults of each route among its first requests. Creations dropped on a
        // reused connection (which libcurl re-sends) have their own test below.
        try directory.write("faults.yaml", """
            seed: 59
            routes:
              create: {fail: 0.25, statuses: [500, 502, 503]}
              status: {fail: 0.1, statuses: [502], drop: 0.1, slow: 0.1, delay: 300ms}
              download: {truncate: 0.15, corrupt: 0.15}
            assemblies: {fail: 0.25, error: INTERNAL_COMMAND_ERROR}

            """)
        let serve = try Self.service(["--faults", "faults.yaml", "--creations-per-minute", "100", "--status-per-second", "1"],
                                     in: directory, secret: secret)
        defer { serve.stop() }
        let endpoint = try await serve.baseURL()
        try directory.write("job/faulty.yaml", Self.manifest(endpoint: endpoint, settings: """
            shards: {files: 2}
            concurrency: {assemblies: 3}
            retry: {attempts: 10, base_delay: 20ms, max_delay: 200ms}
            limits: {creations_per_minute: 6000, status_per_second: 10}
            """))
        let environment = ["TL_SECRET": secret]
        let state = directory.url.appendingPathComponent("job/state")

        let first = try await BinaryRunner.run(["run", "job/faulty.yaml", "-v"], in: directory.url, environment: environment)
        #expect(first.status == 0 || first.status == 1, "\(first.stdout)\(first.stderr)")
        let runID = try #require(Self.runID(first), "\(first.stdout)\(first.stderr)")
        let afterRun = try await RunInspection.read(stateDirectory: state, runID: runID)
        let unfixable = afterRun.files.filter { $0.state != .done && !($0.state == .failed && Self.resumeCanFix($0.failure)) }
        #expect(unfixable.isEmpty, "\(unfixable.map { "\($0.file.relativePath): \($0.state) \($0.failure?.description ?? "")" })")
        #expect((first.status == 0) == afterRun.files.allSatisfy { $0.state == .done })
        let retryLines = first.stdout.components(separatedBy: ": retrying").count - 1
        let report = try await BinaryRunner.run(["report", runID.rawValue, "--state-dir", "job/state", "--format", "json"], in: directory.url)
        let retries = try JSONValue(parsing: Array(report.stdout.utf8)).objectValue?["retries"]
        #expect(retryLines > 0 && (retries.flatMap { if case .integer(let count) = $0 { Int(count) } else { nil } } ?? -1) >= retryLines,
                "\(retryLines) retrying lines, report says \(String(describing: retries))")

        // A quarter of the Assemblies fail on purpose, each drawn by its random ID, and each run or resume gives a failed
        // shard one new Assembly: a shard still failed after k resumes has odds 4^-(k+1). Five resumes left one such
        // shard in about 700 runs of the test (seen in a fresh clone's CI); twelve, one in eleven million.
        var last = first
        for _ in 0..<12 where last.status == 1 {
            last = try await BinaryRunner.run(["resume", runID.rawValue, "--state-dir", "job/state"], in: directory.url,
                                        environment: environment)
            #expect(last.status == 0 || last.status == 1, "\(last.stdout)\(last.stderr)")
        }
        #expect(last.status == 0, "\(last.stdout)\(last.stderr)")
        #expect(last.stdout.contains("files 12 done, 0 failed, 0 skipped, 0 pending"))

        let inspection = try await RunInspection.read(stateDirectory: state, runID: runID)
        let problems = inspection.resultProblems { RunInspection.fitted($0, into: (160, 120)) }
        #expect(problems.isEmpty, "\(problems)")
        let listing = AssemblyListing(baseURL: endpoint, key: Self.key, secret: secret)
        let atService = inspection.serviceProblems(try await listing.items())
        #expect(atService.isEmpty, "\(atService)")
        for route in ["create", "status", "download"] {
            #expect(serve.errors.contains("fault: \(route) request"), "no \(route) fault was injected")
        }
    }

    @Test func rateLimitsNeverFailAShard() async throws {
        let directory = try await RunCommandTests.job()
        let secret = "secret-\(UUID().uuidString)"
        let limits = ["--creations-per-minute", "3", "--status-per-second", "1"]
        let serve = try Self.service(limits, in: directory, secret: secret)
        defer { serve.stop() }
        let endpoint = try await serve.baseURL()
        // The manifest asks faster than the service allows, and a single attempt: a rate limit that used one up fails.
        try directory.write("job/limited.yaml", Self.manifest(endpoint: endpoint, settings: """
            shards: {files: 3}
            concurrency: {assemblies: 4}
            retry: {attempts: 1}
            limits: {creations_per_minute: 6000, status_per_second: 20}
            """))
        let environment = ["TL_SECRET": secret]
        let state = directory.url.appendingPathComponent("job/state")
        let listing = AssemblyListing(baseURL: endpoint, key: Self.key, secret: secret)

        // The fourth creation waits for the service's minute; --max-duration stops the run rather than the test waiting.
        let stopped = try await BinaryRunner.run(["run", "job/limited.yaml", "--max-duration", "5s", "-v"], in: directory.url, environment: environment)
        #expect(stopped.status == 2, "\(stopped.stdout)\(stopped.stderr)")
        #expect(stopped.stdout.contains("retrying (RATE_LIMIT_REACHED: waiting"), "\(stopped.stdout)")
        #expect(!stopped.stderr.contains("failed"), "\(stopped.stderr)")
        let runID = try #require(Self.runID(stopped))
        let afterRun = try await RunInspection.read(stateDirectory: state, runID: runID)
        #expect(!afterRun.shards.contains { $0.state == .failed } && !afterRun.files.contains { $0.state == .failed })
        let created = try await listing.items()
        #expect(created.count == 3)
        let first = try #require(created.first)
        let twice = try await AssemblyListing.curl(["\(endpoint)/assemblies/\(first.id)", "\(endpoint)/assemblies/\(first.id)"])
        #expect(String(decoding: twice, as: UTF8.self).contains("ASSEMBLY_STATUS_FETCHING_RATE_LIMIT_REACHED"))

        // A restarted service forgets its minute; the same limits then let the last creation through.
        let port = try await serve.port()
        #expect(serve.stop() == 0)
        let restarted = try Self.service(limits, in: directory, secret: secret, port: port, name: "serve-again")
        defer { restarted.stop() }
        #expect(try await restarted.baseURL() == endpoint)
        let resumed = try await BinaryRunner.run(["resume", runID.rawValue, "--state-dir", "job/state"], in: directory.url, environment: environment)
        #expect(resumed.status == 0, "\(resumed.stdout)\(resumed.stderr)")
        #expect(resumed.stdout.contains("files 12 done, 0 failed, 0 skipped, 0 pending"))

        let inspection = try await RunInspection.read(stateDirectory: state, runID: runID)
        let problems = inspection.resultProblems { RunInspection.fitted($0, into: (160, 120)) }
        #expect(problems.isEmpty, "\(problems)")
        let atService = inspection.serviceProblems(try await listing.items())
        #expect(atService.isEmpty, "\(atService)")
    }

    // MARK: - Faults that once broke the pipeline, each reproduced with a seed

    @Test
    func aCreationWhoseAnswerIsLostOnAReusedConnectionIsContinuedNotFailed() async throws {
        let directory = try await RunCommandTests.job()
        let secret = "secret-\(UUID().uuidString)"
        // Seed 16: only the second creation (shard 1's, on a connection kept from shard 0) is dropped after the work.
        try directory.write("faults.yaml", "seed: 16\nroutes:\n  create: {drop: 0.5}\n")
        let serve = try Self.service(["--faults", "faults.yaml"], in: directory, secret: secret)
        defer { serve.stop() }
        let endpoint = try await serve.baseURL()
        try directory.write("job/dropped.yaml", Self.manifest(endpoint: endpoint, include: "in/landscapes/*.png", settings: """
            shards: {files: 2}
            concurrency: {assemblies: 1}
            retry: {attempts: 3, base_delay: 50ms, max_delay: 200ms}
            """))
        let outcome = try await BinaryRunner.run(["run", "job/dropped.yaml"], in: directory.url, environment: ["TL_SECRET": secret])
        #expect(serve.errors.contains("fault: create request 2: connection dropped"))
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        let runID = try #require(Self.runID(outcome))
        let inspection = try await RunInspection.read(stateDirectory: directory.url.appendingPathComponent("job/state"), runID: runID)
        let atService = inspection.serviceProblems(try await AssemblyListing(baseURL: endpoint, key: Self.key, secret: secret).items())
        #expect(atService.isEmpty, "\(atService)")
    }

    @Test
    func aStopWhileTransfersHangLeavesTheirFilesUnfinishedNotFailed() async throws {
        let directory = try await RunCommandTests.job()
        let secret = "secret-\(UUID().uuidString)"
        // Every creation is answered after 20 s: --max-duration stops the run while they hang, its transfers cancelled.
        try directory.write("faults.yaml", "seed: 4\nroutes:\n  create: {slow: 1.0, delay: 20s}\n")
        let serve = try Self.service(["--faults", "faults.yaml"], in: directory, secret: secret)
        defer { serve.stop() }
        let endpoint = try await serve.baseURL()
        try directory.write("job/hanging.yaml", Self.manifest(endpoint: endpoint, settings: "shards: {files: 4}"))
        let environment = ["TL_SECRET": secret]

        let stopped = try await BinaryRunner.run(["run", "job/hanging.yaml", "--max-duration", "2s"], in: directory.url, environment: environment)

        #expect(stopped.status == 2, "interrupted, not failed: \(stopped.stdout)\(stopped.stderr)")
        #expect(!stopped.stdout.contains("TRANSPORT_CANCELLED") && !stopped.stderr.contains("TRANSPORT_CANCELLED"), "\(stopped.stdout)\(stopped.stderr)")
        let runID = try #require(Self.runID(stopped))
        let inspection = try await RunInspection.read(stateDirectory: directory.url.appendingPathComponent("job/state"), runID: runID)
        #expect(!inspection.shards.contains { $0.state == .failed } && !inspection.files.contains { $0.state == .failed })
        #expect(inspection.shards.contains { $0.state == .signed }, "the stop came while creations were sent")
        let failed = try await BinaryRunner.run(["report", runID.rawValue, "--state-dir", "job/state", "--failed"], in: directory.url)
        #expect(failed.stdout == "no failed files in run \(runID)\n", "\(failed.stdout)")
    }

    @Test
    func aShardThatFailedAfterItsAssemblyCompletedResumesWithoutASecondAssembly() async throws {
        let directory = try await RunCommandTests.job()
        let secret = "secret-\(UUID().uuidString)"
        // Every download is corrupted while the run tries (a prefetch and two attempts); two attempts fail the shard.
        try directory.write("faults.yaml", "seed: 10\nroutes:\n  download: {corrupt: 1.0}\n")
        let corrupting = try Self.service(["--faults", "faults.yaml"], in: directory, secret: secret, name: "serve-corrupting")
        let endpoint = try await corrupting.baseURL()
        try directory.write("job/corrupted.yaml", Self.manifest(endpoint: endpoint, include: "in/landscapes/sample-00.png", settings: """
            retry: {attempts: 2, base_delay: 50ms, max_delay: 200ms}
            """))
        let environment = ["TL_SECRET": secret]
        let failed = try await BinaryRunner.run(["run", "job/corrupted.yaml"], in: directory.url, environment: environment)
        #expect(failed.status == 1 && failed.stderr.contains("DOWNLOAD_CHECKSUM_MISMATCH"), "\(failed.stdout)\(failed.stderr)")
        let runID = try #require(Self.runID(failed))
        // The same service, on the same port and data directory, without the faults
        let port = try await corrupting.port()
        #expect(corrupting.stop() == 0)
        let serve = try Self.service([], in: directory, secret: secret, port: port)
        defer { serve.stop() }
        #expect(try await serve.baseURL() == endpoint)
        let resumed = try await BinaryRunner.run(["resume", runID.rawValue, "--state-dir", "job/state"], in: directory.url, environment: environment)
        #expect(resumed.status == 0, "\(resumed.stdout)\(resumed.stderr)")
        let inspection = try await RunInspection.read(stateDirectory: directory.url.appendingPathComponent("job/state"), runID: runID)
        #expect(inspection.resultProblems { RunInspection.fitted($0, into: (160, 120)) }.isEmpty)
        let atService = inspection.serviceProblems(try await AssemblyListing(baseURL: endpoint, key: Self.key, secret: secret).items())
        #expect(atService.isEmpty, "\(atService)")
    }

    @Test
    func resultsGoneAtTheServiceRunTheShardAgainWithinTheRun() async throws {
        let directory = try await RunCommandTests.job()
        let secret = "secret-\(UUID().uuidString)"
        // Seed 29: only the first download is cut short; the retry comes after the results' 500 ms lifetime.
        try directory.write("faults.yaml", "seed: 29\nroutes:\n  download: {truncate: 0.5}\n")
        let serve = try Self.service(["--faults", "faults.yaml", "--result-ttl", "500ms"], in: directory, secret: secret)
        defer { serve.stop() }
        let endpoint = try await serve.baseURL()
        try directory.write("job/expired.yaml", Self.manifest(endpoint: endpoint, include: "in/landscapes/sample-00.png", settings: """
            retry: {attempts: 4, base_delay: 1500ms, max_delay: 1500ms}
            """))
        let outcome = try await BinaryRunner.run(["run", "job/expired.yaml"], in: directory.url, environment: ["TL_SECRET": secret])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        let runID = try #require(Self.runID(outcome))
        let inspection = try await RunInspection.read(stateDirectory: directory.url.appendingPathComponent("job/state"), runID: runID)
        #expect(inspection.resultProblems { RunInspection.fitted($0, into: (160, 120)) }.isEmpty)
        let latest = try #require(inspection.attempts.last)
        #expect(inspection.results.filter { $0.isDownloaded }.allSatisfy { $0.attempt == latest.number },
                "results of an earlier attempt, gone at the service, were fetched again")
    }
}
