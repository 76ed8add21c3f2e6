import AssemblyLine
import Foundation
import TestSupport
import Testing

/// A run ID alone finds its run from any directory, through the run index.
@Suite(.timeLimit(.minutes(3))) struct RunIndexTests {
    @Test func aRunIDIsResumableAndReportableFromAnyDirectory() async throws {
        let directory = try await RunCommandTests.slowJob()
        let elsewhere = try TemporaryDirectory()
        let index = ["XDG_STATE_HOME": directory.url.appendingPathComponent("xdg").path]
        let stopped = try await BinaryRunner.run(["run", "job/m.yaml", "--max-duration", "300ms"], in: directory.url, environment: index)
        #expect(stopped.status == 2, "\(stopped.stderr)")
        let runID = try #require(stopped.stdout.split(separator: "\n").first.map(String.init))
        let recorded = try String(contentsOfFile: directory.url.appendingPathComponent("xdg/assemblyline/runs.tsv").path, encoding: .utf8)
        #expect(recorded == "\(runID)\t\(directory.url.appendingPathComponent("job/state").path)\n")

        let report = try await BinaryRunner.run(["report", runID], in: elsewhere.url, environment: index)
        #expect(report.status == 0 && report.stdout.contains(runID), "\(report.stderr)")
        let resumed = try await BinaryRunner.run(["resume", "latest"], in: elsewhere.url, environment: index)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stdout.contains("run \(runID) finished"), "\(resumed.stdout)")
        let latest = try await BinaryRunner.run(["report", "latest", "--format", "json"], in: elsewhere.url, environment: index)
        #expect(latest.stdout.contains("\"finished\""), "\(latest.stdout)")

        let unknown = try await BinaryRunner.run(["resume", "20200101T000000Z-000000"], in: elsewhere.url, environment: index)
        #expect(unknown.status == 65 && unknown.stderr.contains("the run index does not know the run"), "\(unknown.status) \(unknown.stderr)")
    }

    @Test func anUnwritableStateHomeFallsBackToTheTemporaryDirectory() async throws {
        let directory = try await RunCommandTests.job()
        let elsewhere = try TemporaryDirectory()
        try directory.write("not-a-directory", "")
        let environment = ["XDG_STATE_HOME": directory.url.appendingPathComponent("not-a-directory").path,
                           "TMPDIR": directory.url.appendingPathComponent("tmp").path]
        let run = try await BinaryRunner.run(["run", "job/m.yaml"], in: directory.url, environment: environment)
        #expect(run.status == 0 && !run.stderr.contains("warning"), "\(run.stderr)")
        let runID = try #require(run.stdout.split(separator: "\n").first.map(String.init))
        let fallback = directory.url.appendingPathComponent("tmp/assemblyline-\(getuid())/runs.tsv").path
        #expect(try String(contentsOfFile: fallback, encoding: .utf8).hasPrefix(runID))
        let report = try await BinaryRunner.run(["report", runID], in: elsewhere.url, environment: environment)
        #expect(report.status == 0, "\(report.stderr)")
    }

    @Test func aHomeThatDoesNotExistIsNeverCreated() async throws {
        let directory = try await RunCommandTests.job()
        let home = directory.url.appendingPathComponent("nonexistent").path
        let environment = ["XDG_STATE_HOME": "", "HOME": home, "TMPDIR": directory.url.appendingPathComponent("tmp").path]
        let run = try await BinaryRunner.run(["run", "job/m.yaml"], in: directory.url, environment: environment)
        #expect(run.status == 0 && !run.stderr.contains("warning"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home), "cron as a system user (HOME=/nonexistent) must not get a home made")
        let fallback = directory.url.appendingPathComponent("tmp/assemblyline-\(getuid())/runs.tsv").path
        #expect(FileManager.default.fileExists(atPath: fallback))
    }

    @Test func withNoPlaceToRecordTheRunGoesOnAndSaysHowToFindIt() async throws {
        let directory = try await RunCommandTests.job()
        try directory.write("file", "")
        let blocked = directory.url.appendingPathComponent("file").path
        let run = try await BinaryRunner.run(["run", "job/m.yaml"], in: directory.url,
                                       environment: ["XDG_STATE_HOME": blocked, "TMPDIR": blocked])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("is not in the run index"), "\(run.stderr)")
        #expect(run.stderr.contains("--state-dir \(directory.url.appendingPathComponent("job/state").path)"))
    }
}
