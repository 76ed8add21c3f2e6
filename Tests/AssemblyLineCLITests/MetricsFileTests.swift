import Foundation
import TestSupport
import Testing

/// `run --metrics-file`: the run's figures for node_exporter's textfile collector, as promtool reads them (issue 24).
@Suite struct MetricsFileTests {
    /// `promtool check metrics` of the file at `path` (Debian's `prometheus`; `make deps` installs it): 0 valid, 3 style warnings.
    static func promtool(_ path: String, in directory: URL) async throws -> BinaryRunner.Outcome {
        try await BinaryRunner.run(["-c", "promtool check metrics < \"$0\"", path], in: directory, executable: URL(fileURLWithPath: "/bin/sh"))
    }

    /// The value of the one sample of `name` in `text`.
    static func value(_ name: String, in text: String) -> String? {
        text.split(separator: "\n").first { $0.hasPrefix("assemblyline_\(name){") }.flatMap { $0.split(separator: " ").last.map(String.init) }
    }

    @Test func aRunWritesItsFiguresAndAFailedRunKeepsTheLastSuccess() async throws {
        // Given: a job, and the collector's directory
        let directory = try await RunCommandTests.job()
        try FileManager.default.createDirectory(at: directory.url.appendingPathComponent("collector"), withIntermediateDirectories: true)
        let metrics = directory.file("collector/thumbs.prom")

        // When: a night that does every file
        let first = try await BinaryRunner.run(["run", "job/m.yaml", "--quiet", "--metrics-file", "collector/thumbs.prom"], in: directory.url)

        // Then: a file promtool takes without a warning, with the run's figures
        #expect(first.status == 0, "\(first.stderr)")
        let text = try String(contentsOfFile: metrics, encoding: .utf8)
        let lint = try await Self.promtool(metrics, in: directory.url)
        #expect(lint.status == 0 && lint.stdout.isEmpty && lint.stderr.isEmpty, "\(lint.stdout)\(lint.stderr)\n\(text)")
        #expect(text.contains("# TYPE assemblyline_last_success_timestamp_seconds gauge\n"))
        #expect(text.contains("assemblyline_files{manifest=\"thumbs\",state=\"done\"} 12\n"), "\(text)")
        #expect(Self.value("last_run_exit_status", in: text) == "0" && Self.value("assemblies", in: text) == "3")
        let success = try #require(Self.value("last_success_timestamp_seconds", in: text))
        #expect(Self.value("last_run_end_timestamp_seconds", in: text) == success)
        #expect((Double(Self.value("last_run_duration_seconds", in: text) ?? "") ?? 0) > 0)
        #expect((Int(text.firstMatch(of: /direction="up"\} (\d+)/).map { String($0.1) } ?? "") ?? 0) > 0)
        // the service's bytes_usage, summed: more than the bytes sent, since each resize counts its input and output
        let sent = Int(text.firstMatch(of: /direction="up"\} (\d+)/).map { String($0.1) } ?? "") ?? 0
        #expect((Int(Self.value("usage_bytes", in: text) ?? "") ?? 0) > sent, "\(text)")

        // When: a night whose new input fails
        let sample = directory.url.appendingPathComponent("job/in/landscapes/sample-00.png")
        try Data(contentsOf: sample).prefix(3_000).write(to: directory.url.appendingPathComponent("job/in/landscapes/broken.png"))
        let second = try await BinaryRunner.run(["run", "job/m.yaml", "--quiet", "--metrics-file", "collector/thumbs.prom"], in: directory.url)

        // Then: its exit status and failed file, and the last success still the first night's
        #expect(second.status == 1, "\(second.stderr)")
        let after = try String(contentsOfFile: metrics, encoding: .utf8)
        #expect(Self.value("last_run_exit_status", in: after) == "1" && Self.value("last_success_timestamp_seconds", in: after) == success)
        #expect(after.contains("assemblyline_files{manifest=\"thumbs\",state=\"failed\"} 1\n") && after.contains("state=\"skipped\"} 12\n"), "\(after)")
        #expect(Self.value("last_run_end_timestamp_seconds", in: after) != success)
        #expect(try await Self.promtool(metrics, in: directory.url).status == 0)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.file("collector"))
        #expect(leftovers == ["thumbs.prom"], "written to a temporary name and renamed: \(leftovers)")
    }

    @Test func aMetricsFileThatCannotBeWrittenIsAWarningNotTheRunsFailure() async throws {
        let directory = try await RunCommandTests.job()
        _ = try directory.write("job/m.yaml", try String(contentsOfFile: directory.file("job/m.yaml"), encoding: .utf8)
            + "monitoring: {metrics_file: no-such-directory/thumbs.prom}\n")

        let run = try await BinaryRunner.run(["run", "job/m.yaml", "--quiet"], in: directory.url)

        #expect(run.status == 0)
        #expect(run.stderr.contains("warning: cannot write the metrics file \(directory.file("job/no-such-directory/thumbs.prom")): "), "\(run.stderr)")
    }
}
