@testable import AssemblyLineCLI
import Foundation
import TestSupport
import Testing

/// Durations for people: one rule for the summary, `--stats`, the report's table, the history and the pages.
@Suite(.timeLimit(.minutes(3))) struct DurationTextTests {
    @Test(arguments: [(0, "0.0s"), (449, "0.4s"), (1_500, "1.5s"), (9_949, "9.9s"), (9_950, "10s"), (42_400, "42s"),
                      (59_499, "59s"), (59_500, "1m00s"), (62_000, "1m02s"), (90_000, "1m30s"), (3_599_499, "59m59s"),
                      (3_599_500, "1h00m"), (3_723_450, "1h02m"), (96_000_000, "26h40m"), (-5, "0.0s")])
    func eachMagnitudeReadsInItsUnitsRoundedToTheNearest(milliseconds: Int64, expected: String) {
        #expect(DurationText.format(.milliseconds(milliseconds)) == expected)
    }

    @Test func aRunsSummarySaysItsElapsedTimeForPeople() async throws {
        let directory = try await RunCommandTests.job()
        let run = try await BinaryRunner.run(["run", "job/m.yaml"], in: directory.url)
        #expect(run.status == 0, "\(run.stderr)")
        let summary = try #require(run.stdout.split(separator: "\n").last.map(String.init))
        let elapsed = try #require(summary.components(separatedBy: "; ").last)
        #expect(elapsed.wholeMatch(of: /[0-9]\.[0-9]s|[0-9]+s|[0-9]+m[0-9]{2}s/) != nil, "\(summary)")
    }
}
