import AssemblyLine
import Foundation
import Synchronization
import TestSupport
import Testing

/// README's table of exit codes, row by row, each from the built binary.
@Suite struct ExitCodeTableTests {
    /// The codes README's table lists.
    static func readmeCodes() throws -> [Int32] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let table = readme.components(separatedBy: "### Exit codes")[1].components(separatedBy: "\n\n")[1]
        return table.split(separator: "\n").compactMap { line in
            Int32(line.split(separator: "|").first?.trimmingCharacters(in: .whitespaces) ?? "")
        }
    }

    /// The sample job with `replacing` applied to its manifest, run with `arguments` (default `run job/m.yaml --quiet`).
    static func outcome(_ replacing: [(String, String)] = [], prepare: (TemporaryDirectory) throws -> Void = { _ in },
                        arguments: [String] = ["run", "job/m.yaml", "--quiet"], environment: [String: String] = [:]) throws -> BinaryRunner.Outcome {
        let directory = try RunCommandTests.job()
        let path = directory.url.appendingPathComponent("job/m.yaml")
        var manifest = try String(contentsOf: path, encoding: .utf8)
        for (old, new) in replacing { manifest = manifest.replacingOccurrences(of: old, with: new) }
        try manifest.write(to: path, atomically: true, encoding: .utf8)
        try prepare(directory)
        return try BinaryRunner.run(arguments, in: directory.url, environment: environment)
    }

    static let unreachable = [("state_dir: state", "state_dir: state\nendpoint: http://127.0.0.1:9\nauth: {key: k}\n"
                                   + "signer: {kind: local, secret_env: TL_SECRET}\nretry: {attempts: 1}\n")]

    /// Every row below has a test of its own here, but 70 (a bug, never made on purpose).
    @Test func theTableListsTheCodesTestedHere() throws {
        #expect(try Self.readmeCodes() == [0, 1, 2, 64, 65, 69, 70, 73, 74, 75, 77, 78])
    }

    @Test func zeroWhenEverythingIsDone() throws {
        #expect(try Self.outcome().status == 0)
    }

    @Test func oneWhenAFileFails() throws {
        let outcome = try Self.outcome(prepare: { directory in
            try Data("not a png".utf8).write(to: directory.url.appendingPathComponent("job/in/landscapes/broken.png"))
        })
        #expect(outcome.status == 1, "\(outcome.stderr)")
        let lines = outcome.stdout.split(separator: "\n")
        #expect(lines.count == 2 && RunID(String(lines[0])) != nil && lines[1].contains(" failed: "), "quiet: the run ID and the summary")
    }

    @Test func twoWhenInterrupted() throws {
        #expect(try Self.outcome([("poll: {interval: 100ms}", "poll: {interval: 100ms, stream: false}")],
                                 arguments: ["run", "job/m.yaml", "--max-duration", "100ms", "--quiet"]).status == 2)
    }

    @Test func sixtyFourForAWrongCommandLine() throws {
        #expect(try Self.outcome(arguments: ["run", "job/m.yaml", "--bogus"]).status == 64)
    }

    @Test func sixtyFiveForAnInvalidManifest() throws {
        #expect(try Self.outcome([("width: 160", "width: wide")]).status == 65)
    }

    @Test func sixtyNineWhenTheEndpointDoesNotAnswerAndNothingIsSent() throws {
        let outcome = try Self.outcome(Self.unreachable, environment: ["TL_SECRET": "s"])
        #expect(outcome.status == 69, "\(outcome.stderr)")
        #expect(outcome.stderr.hasPrefix("Error: the endpoint http://127.0.0.1:9 does not answer: ") && outcome.stderr.hasSuffix("; nothing was sent\n"),
                "\(outcome.stderr)")
        #expect(outcome.stdout.isEmpty, "no run was recorded: \(outcome.stdout)")
    }

    @Test func sixtyNineWhenTheSignerDoesNotAnswer() throws {
        let directory = try RunCommandTests.job()
        let serve = try FaultSurvivalTests.service([], in: directory, secret: "s")
        defer { serve.stop() }
        try directory.write("job/signed.yaml", FaultSurvivalTests.manifest(endpoint: try serve.baseURL(), settings: "retry: {attempts: 1}")
            .replacingOccurrences(of: "signer: {kind: local, secret_env: TL_SECRET}",
                                  with: "signer: {kind: backend, url: https://127.0.0.1:9/sign, token_env: SIGNER_TOKEN}"))
        let outcome = try BinaryRunner.run(["run", "job/signed.yaml"], in: directory.url, environment: ["SIGNER_TOKEN": "t"])
        #expect(outcome.status == 69, "\(outcome.stderr)")
        #expect(outcome.stderr.hasPrefix("Error: the signer https://127.0.0.1:9/sign does not answer: "), "\(outcome.stderr)")
    }

    @Test func sixtyNineWhenTheEndpointAnswersEveryCreationWith503() throws {
        let directory = try RunCommandTests.job()
        try directory.write("faults.yaml", "seed: 1\nroutes:\n  create: {fail: 1, statuses: [503]}\n")
        let serve = try FaultSurvivalTests.service(["--faults", "faults.yaml"], in: directory, secret: "s")
        defer { serve.stop() }
        try directory.write("job/down.yaml", FaultSurvivalTests.manifest(endpoint: try serve.baseURL(),
                                                                         settings: "retry: {attempts: 1, base_delay: 10ms, max_delay: 20ms}"))
        let outcome = try BinaryRunner.run(["run", "job/down.yaml", "--quiet"], in: directory.url, environment: ["TL_SECRET": "s"])
        #expect(outcome.status == 69, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("SERVICE_UNAVAILABLE"), "\(outcome.stderr)")
    }

    @Test func seventyThreeWhenAnOutputCannotBeCreated() throws {
        let outcome = try Self.outcome([("state_dir: state", "state_dir: state\noutput: {dir: blocker/out}")], prepare: { directory in
            try directory.write("job/blocker", "a file where a directory should be")
        })
        #expect(outcome.status == 73, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("Error: cannot write the output directory ") && outcome.stderr.hasSuffix("; nothing was sent\n"),
                "\(outcome.stderr)")
    }

    @Test func seventyFourWhenTheLedgerCannotBeRead() throws {
        let outcome = try Self.outcome(prepare: { directory in
            try directory.write("job/state/ledger.sqlite", String(repeating: "not a database ", count: 100))
        })
        #expect(outcome.status == 74, "\(outcome.reason) \(outcome.stderr)")
    }

    @Test func seventyFourInOneLineForAStateDirectoryThatCannotBeMade() throws {
        let outcome = try Self.outcome([("state_dir: state", "state_dir: blocker/state")], prepare: { directory in
            try directory.write("job/blocker", "a file where a directory should be")
        })
        #expect(outcome.status == 74, "\(outcome.stderr)")
        #expect(outcome.stderr.hasSuffix("/job/blocker/state: " + outcome.stderr.components(separatedBy: ": ").dropFirst(2).joined(separator: ": ")))
        #expect(outcome.stderr.contains("Error: cannot use the state directory ") && outcome.stderr.contains("blocker is not a directory\n"))
        #expect(outcome.stderr.split(separator: "\n").count == 1, "\(outcome.stderr)")
    }

    @Test func seventyFourForAnotherProgramsDatabaseWhichIsLeftUntouched() throws {
        let directory = try RunCommandTests.job()
        let ledger = directory.url.appendingPathComponent("job/state/ledger.sqlite").path
        try FileManager.default.createDirectory(atPath: directory.url.appendingPathComponent("job/state").path, withIntermediateDirectories: true)
        let sqlite = try BinaryRunner.run(["python3", "-c", "import sqlite3; c = sqlite3.connect('\(ledger)'); c.execute('CREATE TABLE photos (id)'); c.commit()"],
                                          in: directory.url, executable: URL(fileURLWithPath: "/usr/bin/env"))
        try #require(sqlite.status == 0, "\(sqlite.stderr)")
        let before = try #require(FileManager.default.contents(atPath: ledger))

        let outcome = try BinaryRunner.run(["run", "job/m.yaml"], in: directory.url)

        #expect(outcome.status == 74, "\(outcome.stderr)")
        #expect(outcome.stderr == "Error: the ledger: \(ledger): not an AssemblyLine ledger (tables photos); left untouched\n")
        #expect(FileManager.default.contents(atPath: ledger) == before)
    }

    /// Runs that end early, many at once, each exit with its code: none crashes in the libraries' exit handlers.
    @Test func seventyFourOrSeventyFiveFromManyRunsAtOnceAndNoneCrashes() throws {
        let directory = try RunCommandTests.job()
        try directory.write("job/state/ledger.sqlite", String(repeating: "not a database ", count: 100))
        let outcomes = Mutex<[BinaryRunner.Outcome]>([])
        DispatchQueue.concurrentPerform(iterations: 24) { _ in
            if let outcome = try? BinaryRunner.run(["run", "job/m.yaml", "--quiet"], in: directory.url) {
                outcomes.withLock { $0.append(outcome) }
            }
        }
        let all = outcomes.withLock { $0 }
        #expect(all.count == 24)
        #expect(all.allSatisfy { $0.reason == .exit && [74, 75].contains($0.status) }, "\(all.map { "\($0.reason) \($0.status)" })")
    }

    @Test func seventyFiveWhenTheLockIsHeld() throws {
        let directory = try RunCommandTests.job()
        let first = try BinaryRunner.run(["run", "job/m.yaml", "--quiet"], in: directory.url,
                                         environment: ["ASSEMBLYLINE_KILL_AT": "after-signed:1"])
        #expect(first.status != 0)
        let lockDirectory = directory.url.appendingPathComponent("job/state/locks")
        let lock = try #require(try FileManager.default.contentsOfDirectory(atPath: lockDirectory.path).first)
        let holder = try FlockHolder(lockDirectory.appendingPathComponent(lock).path)
        let held = try holder.run(["run", "job/m.yaml", "--quiet"], in: directory.url, until: 75)
        #expect(held.status == 75, "\(held.stderr)")
    }

    @Test func seventyFiveWhenAnotherRunWritesIntoTheSameOutputFromAnotherStateDirectory() throws {
        let directory = try RunCommandTests.job()
        let output = directory.url.appendingPathComponent("job/state/output")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let holder = try FlockHolder(output.path)
        let beside = try holder.run(["run", "job/m.yaml", "--state-dir", "other"], in: directory.url, until: 75)
        #expect(beside.status == 75, "\(beside.stderr)")
        #expect(beside.stderr == "Error: another run holds the lock \(output.path) (a run of another state directory writes into it)\n")
    }

    @Test func seventyFiveWhenAnotherServeUsesTheDataDirectory() throws {
        let directory = try TemporaryDirectory()
        let first = try FaultSurvivalTests.service([], in: directory, secret: "s")
        defer { first.stop() }
        _ = try first.baseURL()
        let second = try BinaryRunner.run(["serve", "--listen", "127.0.0.1:0", "--data-dir", "service", "--no-signature"], in: directory.url)
        #expect(second.status == 75, "\(second.stderr)")
        #expect(second.stderr == "Error: another serve uses the data directory \(directory.url.appendingPathComponent("service").path)\n")
    }

    @Test func seventySevenWhenTheSignatureIsRefused() throws {
        let directory = try RunCommandTests.job()
        let serve = try FaultSurvivalTests.service([], in: directory, secret: "the service's secret")
        defer { serve.stop() }
        try directory.write("job/wrong.yaml", FaultSurvivalTests.manifest(endpoint: try serve.baseURL(), settings: "retry: {attempts: 1}"))
        let outcome = try BinaryRunner.run(["run", "job/wrong.yaml", "--quiet"], in: directory.url, environment: ["TL_SECRET": "another secret"])
        #expect(outcome.status == 77, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("INVALID_SIGNATURE"), "\(outcome.stderr)")
    }

    @Test func seventyEightWhenASecretIsMissing() throws {
        let outcome = try Self.outcome(Self.unreachable)
        #expect(outcome.status == 78, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("TL_SECRET"), "\(outcome.stderr)")
    }
}
