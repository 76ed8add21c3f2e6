import AssemblyLine
import ConfigFormat
import Digests
import Foundation
import SQLiteLedger
import TestSupport
import Testing

/// `upload.mode: tus` end to end with the built binary: resumable across a SIGKILL, a changed input caught, faults survived.
@Suite(.timeLimit(.minutes(3))) struct TusRunTests {
    static let size: Int64 = 256 << 20
    static let chunk: Int64 = 8 << 20

    /// A directory with `job/in/big.bin` (256 MiB from /dev/urandom) and a manifest keeping `:original` over tus.
    static func bigJob() async throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(at: directory.url.appendingPathComponent("job/in"), withIntermediateDirectories: true)
        let made = try await BinaryRunner.run(["if=/dev/urandom", "of=job/in/big.bin", "bs=1M", "count=\(size >> 20)", "status=none"],
                                        in: directory.url, executable: URL(fileURLWithPath: "/bin/dd"))
        try #require(made.status == 0, "\(made.stderr)")
        try directory.write("job/m.yaml", """
            version: 1
            name: big
            inputs: {include: "in/*.bin", base: in}
            steps:
              ":original": {robot: /upload/handle, result: true}
            upload: {mode: tus, chunk_size: 8MiB}
            poll: {interval: 100ms}
            state_dir: state

            """)
        return directory
    }

    /// The first JSON progress line of `event` a run printed, with its detail.
    static func detail(of event: String, in output: String) -> String? {
        output.split(separator: "\n").lazy
            .compactMap { try? JSONValue(parsing: Array($0.utf8)).objectValue }
            .first { $0["event"]?.stringValue == "shard.\(event)" }?["message"]?.stringValue
    }

    @Test func a256MiBUploadKilledPartWayContinuesFromTheServersOffsetAndIsVerified() async throws {
        let directory = try await Self.bigJob()
        let killed = try await BinaryRunner.run(["run", "job/m.yaml"], in: directory.url,
                                          environment: ["ASSEMBLYLINE_KILL_AT": "mid-upload"])
        try #require(killed.wasKilled(by: SIGKILL), "\(killed.status) \(killed.stderr)")
        let runID = try #require(killed.stdout.split(separator: "\n").first.flatMap { RunID(String($0)) })

        let state = directory.url.appendingPathComponent("job/state")
        let ledger = try await SQLiteLedger.open(stateDirectory: state.path, mode: .readOnly)
        let confirmed = try #require(try await ledger.uploads(of: runID, shard: 0).first).offset
        await ledger.close()
        #expect(confirmed > 0 && confirmed < Self.size, "the kill came half way: \(confirmed) of \(Self.size) confirmed")

        let resumed = try await BinaryRunner.run(["resume", runID.rawValue, "--state-dir", "job/state", "--log-format", "json", "-v"],
                                                 in: directory.url)
        #expect(resumed.status == 0, "\(resumed.stdout)\(resumed.stderr)")
        let uploaded = try #require(Self.detail(of: "uploaded", in: resumed.stdout), "\(resumed.stdout)")
        let words = uploaded.split(separator: " ")
        let sent = try #require(words.firstIndex(of: "bytes").flatMap { Int64(words[$0 - 1]) }, "\(uploaded)")
        #expect(uploaded.hasSuffix("1 resumed"), "\(uploaded)")
        #expect(sent > 0 && sent < Self.size - confirmed + Self.chunk, "sent \(sent) after resuming; \(Self.size - confirmed) remained")

        let output = state.appendingPathComponent("output/:original/big.bin").path
        let input = directory.url.appendingPathComponent("job/in/big.bin").path
        #expect(try Hex.encode(Digest.hashFile(.md5, path: output)) == Hex.encode(Digest.hashFile(.md5, path: input)))
    }

    @Test func aFileChangedAfterThePlanFailsAloneWithItsReasonAndTheOthersAreDone() async throws {
        let directory = try await RunCommandTests.job()
        let manifest = directory.url.appendingPathComponent("job/m.yaml")
        let text = try String(contentsOf: manifest, encoding: .utf8) + "upload: {mode: tus, chunk_size: 64KiB}\n"
        try text.write(to: manifest, atomically: true, encoding: .utf8)
        let killed = try await BinaryRunner.run(["run", "job/m.yaml"], in: directory.url,
                                          environment: ["ASSEMBLYLINE_KILL_AT": "after-created"])
        try #require(killed.wasKilled(by: SIGKILL), "\(killed.status) \(killed.stderr)")
        let runID = try #require(killed.stdout.split(separator: "\n").first.map(String.init))
        let changed = directory.url.appendingPathComponent("job/in/landscapes/sample-00.png")
        let handle = try FileHandle(forWritingTo: changed)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("appended after the plan".utf8))
        try handle.close()

        let resumed = try await BinaryRunner.run(["resume", runID, "--state-dir", "job/state"], in: directory.url)
        #expect(resumed.status == 1, "\(resumed.stdout)\(resumed.stderr)")
        #expect(resumed.stderr.contains("file-failed (landscapes/sample-00.png: INPUT_CHANGED"), "\(resumed.stderr)")
        #expect(resumed.stdout.contains("files 11 done, 1 failed, 0 skipped, 0 pending"))
        let failed = try await BinaryRunner.run(["report", runID, "--state-dir", "job/state", "--failed"], in: directory.url)
        #expect(failed.stdout.contains("landscapes/sample-00.png  INPUT_CHANGED"), "\(failed.stdout)")
        let output = directory.url.appendingPathComponent("job/state/output/resize")
        let results = try FileManager.default.subpathsOfDirectory(atPath: output.path).filter { $0.hasSuffix(".jpg") }
        #expect(results.count == 11 && !results.contains("landscapes/sample-00.jpg"))
    }

    @Test func dropsCutsFailuresAndSlowAnswersOfTheTusRoutesAreSurvived() async throws {
        let directory = try await RunCommandTests.job()
        let secret = "secret-\(UUID().uuidString)"
        try directory.write("faults.yaml", """
            seed: 7
            routes:
              tus_patch: {fail: 0.1, statuses: [500, 503], drop: 0.1, cut: 0.1, slow: 0.1, delay: 200ms}
              tus_head: {fail: 0.1, statuses: [502]}

            """)
        let serve = try FaultSurvivalTests.service(["--faults", "faults.yaml"], in: directory, secret: secret)
        defer { serve.stop() }
        let endpoint = try await serve.baseURL()
        try directory.write("job/tus.yaml", FaultSurvivalTests.manifest(endpoint: endpoint, settings: """
            shards: {files: 4}
            upload: {mode: tus, chunk_size: 64KiB}
            retry: {attempts: 8, base_delay: 20ms, max_delay: 200ms}

            """))
        let outcome = try await BinaryRunner.run(["run", "job/tus.yaml"], in: directory.url, environment: ["TL_SECRET": secret])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.contains("files 12 done, 0 failed, 0 skipped, 0 pending"))
        for fault in ["fault: tus_patch request", "dropped", "cut"] {
            #expect(serve.errors.contains(fault), "no \(fault) was injected: \(serve.errors)")
        }
        let runID = try #require(FaultSurvivalTests.runID(outcome))
        let inspection = try await RunInspection.read(stateDirectory: directory.url.appendingPathComponent("job/state"), runID: runID)
        let problems = inspection.resultProblems { RunInspection.fitted($0, into: (160, 120)) }
        #expect(problems.isEmpty, "\(problems)")
        let atService = inspection.serviceProblems(try await AssemblyListing(baseURL: endpoint, key: FaultSurvivalTests.key, secret: secret).items())
        #expect(atService.isEmpty, "\(atService)")
    }
}
