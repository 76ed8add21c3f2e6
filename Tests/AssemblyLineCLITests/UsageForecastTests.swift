import AssemblyLine
import ConfigFormat
import Foundation
import SQLiteLedger
import TestSupport
import Testing

/// `plan`'s usage forecast from past runs of the recipe, and `limits.max_usage` refusing a night forecast past it (issue 24).
@Suite(.timeLimit(.minutes(3))) struct UsageForecastTests {
    @Test func aNightForecastPastMaxUsageIsRefusedWithTheFiguresAndRecordsNothing() async throws {
        // Given: a first night (no basis yet: the forecast is unknown, and nothing is refused for it)
        let directory = try await RunCommandTests.job()
        let manifest = directory.url.appendingPathComponent("job/m.yaml")
        try (try String(contentsOf: manifest, encoding: .utf8) + "limits: {max_usage: 1MiB}\n").write(to: manifest, atomically: true, encoding: .utf8)
        let before = try await BinaryRunner.run(["plan", "job/m.yaml"], in: directory.url)
        let first = try await BinaryRunner.run(["run", "job/m.yaml", "--quiet"], in: directory.url)
        #expect(before.stdout.contains("usage: unknown (1.2 MiB to send; no recent run of this recipe said its usage), limits.max_usage 1.0 MiB"),
                "\(before.stdout)")
        #expect(first.status == 0, "\(first.stderr)")
        let json = try await BinaryRunner.run(["report", "latest", "--state-dir", "job/state", "--format", "json"], in: directory.url)
        let usage = try #require(try JSONValue(parsing: Array(json.stdout.utf8)).objectValue?["usage_bytes"]?.integerValue)
        #expect(usage > 1 << 20, "the service counted each resize's input and output: \(usage)")

        // When: the same files are forced through again
        let plan = try await BinaryRunner.run(["plan", "job/m.yaml", "--force", "--json"], in: directory.url)
        let forced = try await BinaryRunner.run(["run", "job/m.yaml", "--force"], in: directory.url)

        // Then: plan forecasts it from the first night, and the run is refused with the figures before anything is recorded
        let forecast = try #require(try JSONValue(parsing: Array(plan.stdout.utf8)).objectValue?["usage"]?.objectValue, "\(plan.stdout)")
        #expect(forecast["expected_usage_bytes"]?.integerValue == usage, "the same bytes at the same ratio: \(forecast)")
        #expect(forecast["basis"]?.objectValue?["runs"]?.integerValue == 1 && forecast["max_usage_bytes"]?.integerValue == 1 << 20)
        #expect(forced.status == 65, "\(forced.stdout)\(forced.stderr)")
        #expect(forced.stderr.contains("Error: the run would cost about ") && forced.stderr.contains("as the last run of this recipe cost")
                && forced.stderr.hasSuffix("past limits.max_usage 1.0 MiB; nothing was sent\n"), "\(forced.stderr)")
        let runs = try await SQLiteLedger.with(stateDirectory: directory.file("job/state"), mode: .readOnly) { try await $0.recentRuns(limit: 10) }
        #expect(runs.count == 1, "the refused night left no run")
    }
}
