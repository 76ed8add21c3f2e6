import AssemblyLine
import Foundation
import Synchronization
import TestSupport
import Testing

/// README's table of exit codes, row by row, each from the built binary.
@Suite(.timeLimit(.minutes(3))) struct ExitCodeTableTests {
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
    static func outcome(_ replacing: [(String, String)] = [], prepare: (TemporaryDirectory) async throws -> Void = { _ in },
                        arguments: [String] = ["run", "job/m.yaml", "--quiet"], environment: [String: String] = [:]) async throws -> BinaryRunner.Outcome {
        let directory = try await RunCommandTests.job()
        let path = directory.url.appendingPathComponent("job/m.yaml")
        var manifest = try String(contentsOf: path, encoding: .utf8)
        for (old, new) in replacing { manifest = manifest.replacingOccurrences(of: old, with: new) }
        try manifest.write(to: path, atomically: true, encoding: .utf8)
        try await prepare(directory)
        return try await BinaryRunner.run(arguments, in: directory.url, environment: environment)
    }

    static let unreachable = [("state_dir: state", "state_dir: state\nendpoint: http://127.0.0.1:9\nauth: {key: k}\n"
                                   + "signer: {kind: local, secret_env: TL_SECRET}\nretry: {attempts: 1}\n")]

    /// Every row below has a test of its own here, but 70 (a bug, never made on purpose).
    @Test func theTableListsTheCodesTestedHere() async throws {
        #expect(try Self.readmeCodes() == [0, 1, 2, 3, 64, 65, 66, 69, 70, 73, 74, 75, 77, 78])
    }

    @Test func zeroWhenEverythingIsDone() async throws {
        #expect(try await Self.outcome().status == 0)
    }

    @Test func oneWhenAFileFails() async throws {
        let outcome = try await Self.outcome(prepare: { directory in
            try Data("not a png".utf8).write(to: directory.url.appendingPathComponent("job/in/landscapes/broken.png"))
        })
        #expect(outcome.status == 1, "\(outcome.stderr)")
        let lines = outcome.stdout.split(separator: "\n")
        #expect(lines.count == 2 && RunID(String(lines[0])) != nil && lines[1].contains(" failed: "), "quiet: the run ID and the summary")
    }

    @Test func twoWhenInterrupted() async throws {
        #expect(try await Self.outcome([("poll: {interval: 100ms}", "poll: {interval: 100ms, stream: false}")],
                                 arguments: ["run", "job/m.yaml", "--max-duration", "100ms", "--quiet"]).status == 2)
    }

    @Test func threeWhenResumingACanceledRun() async throws {
        let directory = try await RunCommandTests.job()
        let path = directory.url.appendingPathComponent("job/m.yaml")
        try String(contentsOf: path, encoding: .utf8).replacingOccurrences(of: "poll: {interval: 100ms}", with: "poll: {interval: 100ms, stream: false}")
            .write(to: path, atomically: true, encoding: .utf8)
        let run = try await BinaryRunner.run(["run", "job/m.yaml", "--max-duration", "100ms", "--quiet"], in: directory.url)
        let runID = try #require(run.stdout.split(separator: "\n").first.map(String.init))
        let cancel = try await BinaryRunner.run(["cancel", runID, "--state-dir", "job/state"], in: directory.url)
        #expect(run.status == 2 && cancel.status == 0, "\(run.stderr)\(cancel.stderr)")

        let resume = try await BinaryRunner.run(["resume", runID, "--state-dir", "job/state"], in: directory.url)

        #expect(resume.status == 3, "\(resume.stdout)\(resume.stderr)")
        #expect(resume.stderr == "Error: run \(runID) was canceled, which is final; start a new run instead\n")
    }

    @Test func sixtyFourForAWrongCommandLine() async throws {
        #expect(try await Self.outcome(arguments: ["run", "job/m.yaml", "--bogus"]).status == 64)
    }

    @Test func sixtyFiveForAnInvalidManifest() async throws {
        #expect(try await Self.outcome([("width: 160", "width: wide")]).status == 65)
    }

    @Test func sixtySixWhenTheInputsDirectoryIsMissingApartFromABaseThatHoldsNoMatch() async throws {
        let missing = try await Self.outcome([("base: in", "base: gone")])
        #expect(missing.status == 66, "\(missing.stderr)")
        #expect(missing.stderr.hasPrefix("Error: the input directory '") && missing.stderr.hasSuffix("/job/gone' (inputs.base) does not exist\n"),
                "\(missing.stderr)")
        let file = try await Self.outcome([("base: in", "base: m.yaml")])
        #expect(file.status == 66 && file.stderr.hasSuffix("/job/m.yaml' (inputs.base) is a file, not a directory\n"), "\(file.stderr)")
        let plan = try await Self.outcome([("base: in", "base: gone")], arguments: ["plan", "job/m.yaml"])
        #expect(plan.status == 66, "\(plan.stderr)")
        let noMatch = try await Self.outcome([("in/**/*.png", "in/**/*.tif")])
        #expect(noMatch.status == 65 && noMatch.stderr.contains("no file matches the include patterns"), "\(noMatch.stderr)")
    }

    @Test func sixtyFiveForAURLListThatCannotBeReadNamingItsLine() async throws {
        let urls = [(#"inputs: {include: "in/**/*.png", base: in}"#, "inputs: {urls: {file: urls.csv}}")]
        let outcome = try await Self.outcome(urls, prepare: { directory in
            _ = try directory.write("job/urls.csv", "url,etag\nhttps://cdn.example.com/a.png,e1,extra\n")
        }, arguments: ["plan", "job/m.yaml"])
        #expect(outcome.status == 65, "\(outcome.stderr)")
        #expect(outcome.stderr.hasPrefix("Error: /") && outcome.stderr.hasSuffix("/job/urls.csv:2:1: 3 cells; expected 2, one for each column of the header\n"),
                "\(outcome.stderr)")
    }

    @Test func sixtyNineWhenTheEndpointDoesNotAnswerAndNothingIsSent() async throws {
        let outcome = try await Self.outcome(Self.unreachable, environment: ["TL_SECRET": "s"])
        #expect(outcome.status == 69, "\(outcome.stderr)")
        #expect(outcome.stderr.hasPrefix("Error: the endpoint http://127.0.0.1:9 does not answer: ") && outcome.stderr.hasSuffix("; nothing was sent\n"),
                "\(outcome.stderr)")
        #expect(outcome.stdout.isEmpty, "no run was recorded: \(outcome.stdout)")
    }

    @Test func anEndpointThatTakesTheConnectionButNeverAnswersIsGivenUpAfterTenSeconds() async throws {
        // A listening socket nobody accepts on: the kernel completes the connection, no answer ever comes.
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var size = socklen_t(MemoryLayout<sockaddr_in>.size)
        try #require(withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, size) == 0 && listen(listener, 8) == 0
                && getsockname(listener, $0, &size) == 0 }
        })
        let port = UInt16(bigEndian: address.sin_port)
        let directory = try await RunCommandTests.job()
        let manifest = directory.url.appendingPathComponent("job/m.yaml")
        try String(contentsOf: manifest, encoding: .utf8)
            .replacingOccurrences(of: "state_dir: state", with: "state_dir: state\nendpoint: http://127.0.0.1:\(port)\nauth: {key: k}\n"
                                      + "signer: {kind: local, secret_env: TL_SECRET}\nretry: {attempts: 1}\n")
            .write(to: manifest, atomically: true, encoding: .utf8)
        let outcome = try await BinaryRunner.run(["run", "job/m.yaml", "--quiet"], in: directory.url, environment: ["TL_SECRET": "s"])
        #expect(outcome.status == 69, "\(outcome.stderr)")
        // libcurl says how long it waited; docs/pipeline.md says 10 s (it was 20).
        #expect(outcome.stderr.contains("timed out after 10"), "\(outcome.stderr)")
    }

    @Test func sixtyNineWhenTheSignerDoesNotAnswer() async throws {
        let directory = try await RunCommandTests.job()
        let serve = try FaultSurvivalTests.service([], in: directory, secret: "s")
        defer { serve.stop() }
        try directory.write("job/signed.yaml", FaultSurvivalTests.manifest(endpoint: try await serve.baseURL(), settings: "retry: {attempts: 1}")
            .replacingOccurrences(of: "signer: {kind: local, secret_env: TL_SECRET}",
                                  with: "signer: {kind: backend, url: https://127.0.0.1:9/sign, token_env: SIGNER_TOKEN}"))
        let outcome = try await BinaryRunner.run(["run", "job/signed.yaml"], in: directory.url, environment: ["SIGNER_TOKEN": "t"])
        #expect(outcome.status == 69, "\(outcome.stderr)")
        #expect(outcome.stderr.hasPrefix("Error: the signer https://127.0.0.1:9/sign does not answer: "), "\(outcome.stderr)")
    }

    @Test func sixtyNineWhenTheEndpointAnswersEveryCreationWith503() async throws {
        let directory = try await RunCommandTests.job()
        try directory.write("faults.yaml", "seed: 1\nroutes:\n  create: {fail: 1, statuses: [503]}\n")
        let serve = try FaultSurvivalTests.service(["--faults", "faults.yaml"], in: directory, secret: "s")
        defer { serve.stop() }
        try directory.write("job/down.yaml", FaultSurvivalTests.manifest(endpoint: try await serve.baseURL(),
                                                                         settings: "retry: {attempts: 1, base_delay: 10ms, max_delay: 20ms}"))
        let outcome = try await BinaryRunner.run(["run", "job/down.yaml", "--quiet"], in: directory.url, environment: ["TL_SECRET": "s"])
        #expect(outcome.status == 69, "\(outcome.stderr)")
        // The service answers before it has read the body: the client reads the 503, or, when the
        // service closed the connection first, sees its upload cut (both are the endpoint's failing).
        #expect(outcome.stderr.contains("SERVICE_UNAVAILABLE") || outcome.stderr.contains("TRANSPORT_RESET"), "\(outcome.stderr)")
    }

    @Test func seventyThreeWhenAnOutputCannotBeCreated() async throws {
        let outcome = try await Self.outcome([("state_dir: state", "state_dir: state\noutput: {dir: blocker/out}")], prepare: { directory in
            try directory.write("job/blocker", "a file where a directory should be")
        })
        #expect(outcome.status == 73, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("Error: cannot write the output directory ") && outcome.stderr.hasSuffix("; nothing was sent\n"),
                "\(outcome.stderr)")
    }

    @Test func seventyFourWhenTheLedgerCannotBeRead() async throws {
        let outcome = try await Self.outcome(prepare: { directory in
            try directory.write("job/state/ledger.sqlite", String(repeating: "not a database ", count: 100))
        })
        #expect(outcome.status == 74, "\(outcome.reason) \(outcome.stderr)")
    }

    @Test func seventyFourInOneLineForAStateDirectoryThatCannotBeMade() async throws {
        let outcome = try await Self.outcome([("state_dir: state", "state_dir: blocker/state")], prepare: { directory in
            try directory.write("job/blocker", "a file where a directory should be")
        })
        #expect(outcome.status == 74, "\(outcome.stderr)")
        #expect(outcome.stderr.hasSuffix("/job/blocker/state: " + outcome.stderr.components(separatedBy: ": ").dropFirst(2).joined(separator: ": ")))
        #expect(outcome.stderr.contains("Error: cannot use the state directory ") && outcome.stderr.contains("blocker is not a directory; "
            + "give the run a state directory this user can write: state_dir in the manifest, or --state-dir DIR "
            + "(the systemd unit passes --state-dir /var/lib/assemblyline/INSTANCE)\n"), "the fix is named: \(outcome.stderr)")
        #expect(outcome.stderr.split(separator: "\n").count == 1, "\(outcome.stderr)")
    }

    @Test func seventyFourForAnotherProgramsDatabaseWhichIsLeftUntouched() async throws {
        let directory = try await RunCommandTests.job()
        let ledger = directory.url.appendingPathComponent("job/state/ledger.sqlite").path
        try FileManager.default.createDirectory(atPath: directory.url.appendingPathComponent("job/state").path, withIntermediateDirectories: true)
        let sqlite = try await BinaryRunner.run(["python3", "-c", "import sqlite3; c = sqlite3.connect('\(ledger)'); c.execute('CREATE TABLE photos (id)'); c.commit()"],
                                          in: directory.url, executable: URL(fileURLWithPath: "/usr/bin/env"))
        try #require(sqlite.status == 0, "\(sqlite.stderr)")
        let before = try #require(FileManager.default.contents(atPath: ledger))

        let outcome = try await BinaryRunner.run(["run", "job/m.yaml"], in: directory.url)

        #expect(outcome.status == 74, "\(outcome.stderr)")
        #expect(outcome.stderr == "Error: the ledger: \(ledger): not an AssemblyLine ledger (tables photos); left untouched\n")
        #expect(FileManager.default.contents(atPath: ledger) == before)
    }

    /// Runs that end early, many at once, each exit with its code: none crashes in the libraries' exit handlers.
    @Test func seventyFourOrSeventyFiveFromManyRunsAtOnceAndNoneCrashes() async throws {
        let directory = try await RunCommandTests.job()
        try directory.write("job/state/ledger.sqlite", String(repeating: "not a database ", count: 100))
        let all = try await withThrowingTaskGroup(of: BinaryRunner.Outcome.self) { group in
            for _ in 0..<24 {
                group.addTask { try await BinaryRunner.run(["run", "job/m.yaml", "--quiet"], in: directory.url) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(all.count == 24)
        #expect(all.allSatisfy { $0.reason == .exit && [74, 75].contains($0.status) }, "\(all.map { "\($0.reason) \($0.status)" })")
    }

    @Test func seventyFiveWhenTheLockIsHeld() async throws {
        let directory = try await RunCommandTests.job()
        let first = try await BinaryRunner.run(["run", "job/m.yaml", "--quiet"], in: directory.url,
                                         environment: ["ASSEMBLYLINE_KILL_AT": "after-signed:1"])
        #expect(first.status != 0)
        let lockDirectory = directory.url.appendingPathComponent("job/state/locks")
        let lock = try #require(try FileManager.default.contentsOfDirectory(atPath: lockDirectory.path).first)
        let holder = try await FlockHolder(lockDirectory.appendingPathComponent(lock).path)
        let held = try await BinaryRunner.run(["run", "job/m.yaml", "--quiet"], in: directory.url)
        holder.release()
        #expect(held.status == 75, "\(held.stderr)")
        #expect(held.stdout == "")
        #expect(held.stderr.hasPrefix("Error: another run holds the lock \(lockDirectory.appendingPathComponent(lock).path) (run ")
                && held.stderr.contains(", PID "), "the holder the killed run wrote: \(held.stderr)")
    }

    @Test func seventyFiveWhenAnotherRunWritesIntoTheSameOutputFromAnotherStateDirectory() async throws {
        let directory = try await RunCommandTests.job()
        // A named output.dir: the default one would follow --state-dir.
        try directory.write("job/m.yaml", try String(contentsOf: directory.url.appendingPathComponent("job/m.yaml"), encoding: .utf8)
            + "output: {dir: state/output}\n")
        let output = directory.url.appendingPathComponent("job/state/output")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let holder = try await FlockHolder(output.path)
        let beside = try await BinaryRunner.run(["run", "job/m.yaml", "--state-dir", "other"], in: directory.url)
        holder.release()
        #expect(beside.status == 75, "\(beside.stderr)")
        #expect(beside.stderr == "Error: another run holds the lock \(output.path) (a run of another state directory writes into it)\n")
    }

    @Test func seventyFiveWhenAnotherServeUsesTheDataDirectory() async throws {
        let directory = try TemporaryDirectory()
        let first = try FaultSurvivalTests.service([], in: directory, secret: "s")
        defer { first.stop() }
        _ = try await first.baseURL()
        let second = try await BinaryRunner.run(["serve", "--listen", "127.0.0.1:0", "--data-dir", "service", "--no-signature"], in: directory.url)
        #expect(second.status == 75, "\(second.stderr)")
        #expect(second.stderr == "Error: another serve uses the data directory \(directory.url.appendingPathComponent("service").path)\n")
    }

    @Test func seventySevenWhenTheSignatureIsRefused() async throws {
        let directory = try await RunCommandTests.job()
        let serve = try FaultSurvivalTests.service([], in: directory, secret: "the service's secret")
        defer { serve.stop() }
        try directory.write("job/wrong.yaml", FaultSurvivalTests.manifest(endpoint: try await serve.baseURL(), settings: "retry: {attempts: 1}"))
        let outcome = try await BinaryRunner.run(["run", "job/wrong.yaml", "--quiet"], in: directory.url, environment: ["TL_SECRET": "another secret"])
        #expect(outcome.status == 77, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("INVALID_SIGNATURE"), "\(outcome.stderr)")
    }

    @Test func seventyEightWhenASecretIsMissing() async throws {
        let outcome = try await Self.outcome(Self.unreachable)
        #expect(outcome.status == 78, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("TL_SECRET"), "\(outcome.stderr)")
    }
}
