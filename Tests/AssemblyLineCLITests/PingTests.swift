import AssemblyLine
import ConfigFormat
import Foundation
import TestSupport
import Testing

/// `monitoring.ping_url_env`: a run pings a dead-man's switch at its start and its end (issue 24), and a monitor
/// that is down or hangs costs a warning and at most its timeout, never the run's exit status.
@Suite(.timeLimit(.minutes(3))) struct PingTests {
    /// The check's secret part of the URL: it must appear in no output, ledger or index.
    static let check = "check-5f0c1e7a-secret"

    /// ``RunCommandTests/job()`` whose manifest pings the URL in HC_URL, with `timeout`.
    static func job(timeout: String = "2s") async throws -> TemporaryDirectory {
        let directory = try await RunCommandTests.job()
        let manifest = directory.url.appendingPathComponent("job/m.yaml")
        let text = try String(contentsOf: manifest, encoding: .utf8) + "monitoring: {ping_url_env: HC_URL, ping_timeout: \(timeout)}\n"
        try text.write(to: manifest, atomically: true, encoding: .utf8)
        return directory
    }

    /// Every byte the runs left behind in `directory`, as text, for a look for the secret.
    static func everythingWritten(in directory: TemporaryDirectory) throws -> String {
        let root = directory.url
        var text = ""
        let paths = try FileManager.default.subpathsOfDirectory(atPath: root.path)
        for path in paths {
            let url = root.appendingPathComponent(path)
            guard !path.hasPrefix("job/in"), (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            text += String(decoding: (try? Data(contentsOf: url)) ?? Data(), as: UTF8.self)
        }
        return text
    }

    @Test func startSuccessAndFailureReachTheMonitorWithTheRunAndTheLogsTail() async throws {
        let receiver = try PingReceiver()
        let directory = try await Self.job()
        let environment = ["HC_URL": receiver.url + "/ping/" + Self.check]

        // A night that finishes, then one whose new input is no image, then one that cannot start (its output is locked)
        let good = try await BinaryRunner.run(["run", "job/m.yaml"], in: directory.url, environment: environment)
        try Data("not a png".utf8).write(to: directory.url.appendingPathComponent("job/in/landscapes/broken.png"))
        let bad = try await BinaryRunner.run(["run", "job/m.yaml", "-v"], in: directory.url, environment: environment)
        let output = directory.url.appendingPathComponent("job/state/output")
        let holder = try await FlockHolder(output.path)
        let held = try await BinaryRunner.run(["run", "job/m.yaml"], in: directory.url, environment: environment)
        holder.release()

        #expect(good.status == 0 && bad.status == 1 && held.status == 75, "\(good.stderr)\(bad.stderr)\(held.stderr)")
        let pings = receiver.pings
        #expect(pings.map(\.path) == ["/ping/\(Self.check)/start", "/ping/\(Self.check)", "/ping/\(Self.check)/start", "/ping/\(Self.check)/1",
                                      "/ping/\(Self.check)/75"], "\(pings.map(\.path))")
        #expect(pings.allSatisfy { $0.method == "POST" })
        // rid pairs a start with its end: a UUID of the run, another for the next run, none for a run that never started
        let rids = pings.map { $0.query["rid"] }
        #expect(rids[0] == rids[1] && rids[2] == rids[3] && rids[0] != rids[2] && rids[4] == nil, "\(rids)")
        #expect(rids.prefix(4).allSatisfy { $0.map { UUID(uuidString: $0) != nil } == true }, "\(rids)")
        // the end's body is the log's tail, bounded: the summary of a good night, the failure and summary of a bad one
        #expect(pings[0].body.isEmpty && pings[2].body.isEmpty)
        #expect(pings[1].body.contains("files 12 done, 0 failed"), "\(pings[1].body)")
        #expect(pings[3].body.contains("IMAGE_RESIZE_ERROR") && pings[3].body.contains("files 0 done, 1 failed, 12 skipped"), "\(pings[3].body)")
        #expect(pings[4].body.hasPrefix("Error: another run holds the lock"), "\(pings[4].body)")
        #expect(pings.allSatisfy { $0.body.utf8.count <= 10_000 })
        // the URL holds the check's secret: it is in no output and nothing written
        for outcome in [good, bad, held] {
            #expect(!(outcome.stdout + outcome.stderr).contains(Self.check))
        }
        #expect(!(try Self.everythingWritten(in: directory)).contains(Self.check))
    }

    @Test func aMonitorThatIsDownOrHangsIsAWarningAndCostsAtMostItsTimeout() async throws {
        let silent = try SilentListener()
        let directory = try await Self.job(timeout: "1s")
        let hanging = ["HC_URL": "http://127.0.0.1:\(silent.port)/ping/\(Self.check)"]
        let started = ContinuousClock.now
        let slow = try await BinaryRunner.run(["run", "job/m.yaml", "--quiet"], in: directory.url, environment: hanging)
        let wall = ContinuousClock.now - started

        #expect(slow.status == 0, "\(slow.stderr)")
        #expect(slow.stderr.contains("warning: the ping URL (environment variable HC_URL): the ping was not delivered (transport: timed out"),
                "\(slow.stderr)")
        #expect(!slow.stderr.contains(Self.check))
        // the run's own time, from the ledger, against the process's: a hanging monitor held it about its 1 s timeout, where
        // without one the transfer would wait out the transport's 60 s low-speed limit (the slack is for a loaded machine,
        // where starting and ending a process alone takes seconds)
        let json = try await BinaryRunner.run(["report", "latest", "--state-dir", "job/state", "--format", "json"], in: directory.url)
        let elapsed = try #require(try JSONValue(parsing: Array(json.stdout.utf8)).objectValue?["elapsed_ms"]?.integerValue)
        #expect(wall - .milliseconds(elapsed) < .seconds(20), "the run took \(elapsed) ms, the process \(wall)")

        // a monitor that is down, after a file that fails: the warning, and the run's own status
        try Data("not a png".utf8).write(to: directory.url.appendingPathComponent("job/in/landscapes/broken.png"))
        let down = try await BinaryRunner.run(["run", "job/m.yaml", "--quiet"], in: directory.url,
                                              environment: ["HC_URL": "http://127.0.0.1:9/ping/\(Self.check)"])
        #expect(down.status == 1, "\(down.stderr)")
        #expect(down.stderr.contains("the ping was not delivered (transport: cannot connect to http://127.0.0.1:9"), "\(down.stderr)")
        #expect(!down.stderr.contains(Self.check))
        let unset = try await BinaryRunner.run(["run", "job/m.yaml", "--quiet"], in: directory.url)
        #expect(unset.status == 0 && unset.stderr.contains("warning: the ping URL (environment variable HC_URL) is unusable: "), "\(unset.stderr)")
    }
}
