import AssemblyLine
import ConfigFormat
import Foundation
import TestSupport
import Testing

/// `report --format html` of real runs, checked in a real headless Chromium (scripts/check-html.py): nothing
/// outside the file is asked for, the page is drawn, and the timeline and failures say what the ledger says.
@Suite(.timeLimit(.minutes(3))) struct HTMLReportTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// What Chromium measured of the page at `path`: the JSON of scripts/check-html.py, with `count` and `text` selectors.
    static func browse(_ path: String, count: [String], text: [String], lines: [String] = [],
                       in directory: TemporaryDirectory) async throws -> [String: JSONValue] {
        let arguments = [root.appendingPathComponent("scripts/check-html.py").path, path, "--screenshot", directory.file("page.png")]
            + count.flatMap { ["--count", $0] } + text.flatMap { ["--text", $0] } + lines.flatMap { ["--lines", $0] }
        let checked = try await BinaryRunner.run(arguments, in: directory.url, executable: URL(fileURLWithPath: "/usr/bin/python3"))
        #expect(checked.status == 0, "\(checked.stderr)")
        return try #require(try JSONValue(parsing: Array(checked.stdout.utf8)).objectValue, "\(checked.stdout)\(checked.stderr)")
    }

    @Test func aNightWithAFailedFileARetryAndAKnownBadFileRendersInChromium() async throws {
        // Given: a first night of the landscapes in which first.png failed (it is no image) on a plain service
        let directory = try await RunCommandTests.job()
        let secret = "secret-\(UUID().uuidString)"
        let stash = directory.url.appendingPathComponent("stash")
        try FileManager.default.createDirectory(at: stash, withIntermediateDirectories: true)
        for folder in ["portraits", "squares"] {
            try FileManager.default.moveItem(at: directory.url.appendingPathComponent("job/in/\(folder)"), to: stash.appendingPathComponent(folder))
        }
        try Data("not a png".utf8).write(to: directory.url.appendingPathComponent("job/in/landscapes/first.png"))
        let plain = try FaultSurvivalTests.service([], in: directory, secret: secret)
        let endpoint = try await plain.baseURL()
        let port = try await plain.port()
        try directory.write("job/night.yaml", FaultSurvivalTests.manifest(endpoint: endpoint, settings: """
            shards: {files: 2}
            concurrency: {assemblies: 1}
            retry: {attempts: 3, base_delay: 50ms, max_delay: 200ms}
            """))
        let environment = ["TL_SECRET": secret]
        let first = try await BinaryRunner.run(["run", "job/night.yaml"], in: directory.url, environment: environment)
        #expect(first.status == 1, "\(first.stdout)\(first.stderr)")
        #expect(plain.stop() == 0)

        // When: the next night sends the other folders and a second broken file through a service that drops
        // its second creation's answer (seed 16: that shard's creation is tried again), and the report is made
        for folder in ["portraits", "squares"] {
            try FileManager.default.moveItem(at: stash.appendingPathComponent(folder), to: directory.url.appendingPathComponent("job/in/\(folder)"))
        }
        try Data("no image either".utf8).write(to: directory.url.appendingPathComponent("job/in/portraits/second.png"))
        try directory.write("faults.yaml", "seed: 16\nroutes:\n  create: {drop: 0.5}\n")
        let faulty = try FaultSurvivalTests.service(["--faults", "faults.yaml"], in: directory, secret: secret, port: port)
        defer { faulty.stop() }
        #expect(try await faulty.baseURL() == endpoint)
        let second = try await BinaryRunner.run(["run", "job/night.yaml"], in: directory.url, environment: environment)
        #expect(second.status == 1 && second.stdout.contains("1 known bad"), "\(second.stdout)\(second.stderr)")
        let report = try await BinaryRunner.run(["report", "latest", "--state-dir", "job/state", "--format", "html", "--output", "night.html"],
                                                in: directory.url)
        #expect(report.status == 0 && report.stdout.isEmpty, "\(report.stderr)")
        let json = try await BinaryRunner.run(["report", "latest", "--state-dir", "job/state", "--format", "json"], in: directory.url)
        let shards = try #require(try JSONValue(parsing: Array(json.stdout.utf8)).objectValue?["shard_list"]?.arrayValue)
        let failed = try await BinaryRunner.run(["report", "latest", "--state-dir", "job/state", "--failed", "--format", "json"], in: directory.url)
        let failedFile = try JSONValue(parsing: Array(failed.stdout.utf8)).objectValue?["failed_files"]?.arrayValue?.first?.objectValue
        #expect(failedFile?["relative_path"]?.stringValue == "portraits/second.png", "\(failed.stdout)")
        let reason = try #require(failedFile?["failure"]?.objectValue?["message"]?.stringValue)

        // Then: Chromium draws it from the file alone, a bar per shard, the retry marked, both failures with their reasons
        let page = try await Self.browse(directory.file("night.html"), count: ["g.bar", "g.bar text.retries", "g.bar.failed", "tr.known_bad"],
                                         text: ["#failures tr", "#summary dd"], in: directory)
        let counts = page["counts"]?.objectValue ?? [:]
        #expect(page["outside_requests"] == .array([]) && page["console"] == .array([]), "\(page)")
        #expect(page["blank"] == .bool(false), "\(page)")
        #expect(page["csp"]?.stringValue?.hasPrefix("default-src 'none'") == true)
        #expect(counts["g.bar"] == .integer(Int64(shards.count)) && shards.count == 5, "\(counts)")
        #expect(counts["g.bar text.retries"] == .integer(1), "the retried shard: \(counts)")
        #expect(counts["g.bar.failed"] == .integer(0), "second.png failed alone, not its shard")
        #expect(counts["tr.known_bad"] == .integer(1))
        let failures = (page["texts"]?.objectValue?["#failures tr"]?.arrayValue ?? []).compactMap(\.stringValue)
        #expect(failures.contains { $0.contains("portraits/second.png") && $0.contains(reason) } && !reason.isEmpty, "\(failures)")
        #expect(failures.contains { $0.hasPrefix("IMAGE_RESIZE_ERROR ·") } && failures.contains { $0.hasPrefix("IMAGE_RESIZE_ERROR (known bad) ·") },
                "\(failures)")
        #expect(failures.contains { $0.contains("landscapes/first.png") }, "\(failures)")
        let summary = (page["texts"]?.objectValue?["#summary dd"]?.arrayValue ?? []).compactMap(\.stringValue)
        #expect(summary.first == "failed" && summary.dropFirst().first == "1", "state and exit status: \(summary)")
    }

    @Test func longPathsWrapBetweenFoldersAndKeepTheirNamesWholeWithinTheColumn() async throws {
        // Given: a night with one input four long folders deep
        let directory = try await RunCommandTests.job()
        let deep = "landscapes/the-archive-of-the-summer-of-2024-from-the-north-coast/second-camera-of-the-expedition/"
            + "day-three-at-the-lighthouse-before-the-storm"
        try FileManager.default.createDirectory(at: directory.url.appendingPathComponent("job/in/\(deep)"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: directory.url.appendingPathComponent("job/in/landscapes/sample-00.png"),
                                         to: directory.url.appendingPathComponent("job/in/\(deep)/lighthouse-at-dawn-00.png"))
        #expect(try await BinaryRunner.run(["run", "job/m.yaml", "--quiet"], in: directory.url).status == 0)

        // When: its page is drawn
        let report = try await BinaryRunner.run(["report", "latest", "--state-dir", "job/state", "--format", "html", "--output", "night.html"],
                                                in: directory.url)
        #expect(report.status == 0, "\(report.stderr)")
        let page = try await Self.browse(directory.file("night.html"), count: ["#files td.path .name"], text: ["#files td.path"],
                                         lines: ["#files td.path .name", "#files td.path .dir"], in: directory)

        // Then: no path widens the page or leaves its cell, each name is on one line, and the deep folders wrap
        #expect(page["width"] == .integer(1280), "no horizontal scrolling: \(page["width"] ?? .null)")
        #expect(page["counts"]?.objectValue?["#files td.path .name"] == .integer(24), "an input and an output a file: \(page["counts"] ?? .null)")
        #expect(page["overflows"]?.objectValue?["#files td.path .name"] == .integer(0) && page["overflows"]?.objectValue?["#files td.path .dir"] == .integer(0),
                "\(page["overflows"] ?? .null)")
        let nameLines = page["lines"]?.objectValue?["#files td.path .name"]?.arrayValue?.compactMap(\.integerValue) ?? []
        #expect(nameLines.count == 24 && nameLines.allSatisfy { $0 == 1 }, "\(nameLines)")
        #expect((page["lines"]?.objectValue?["#files td.path .dir"]?.arrayValue?.compactMap(\.integerValue).max() ?? 0) > 1, "the deep folders wrap")
        let inputs = (page["texts"]?.objectValue?["#files td.path"]?.arrayValue ?? []).compactMap(\.stringValue)
        #expect(inputs.contains("\(deep)/lighthouse-at-dawn-00.png"), "the text is the whole path: \(inputs)")
    }

    @Test func aNightThatSentNothingSaysSoInsteadOfEmptyChartsAndTable() async throws {
        let directory = try await RunCommandTests.job()
        for _ in 0..<2 { #expect(try await BinaryRunner.run(["run", "job/m.yaml", "--quiet"], in: directory.url).status == 0) }
        let report = try await BinaryRunner.run(["report", "latest", "--state-dir", "job/state", "--format", "html", "--output", "quiet.html"],
                                                in: directory.url)
        #expect(report.status == 0, "\(report.stderr)")
        let page = try await Self.browse(directory.file("quiet.html"), count: ["#nothing-sent", "#timeline", "#throughput", "#files", "svg"],
                                         text: ["#nothing-sent p"], in: directory)
        #expect(page["counts"] == .object(["#nothing-sent": .integer(1), "#timeline": .integer(0), "#throughput": .integer(0),
                                            "#files": .integer(0), "svg": .integer(0)]), "\(page["counts"] ?? .null)")
        let note = page["texts"]?.objectValue?["#nothing-sent p"]?.arrayValue?.first?.stringValue ?? ""
        #expect(note.contains("sent no file") && note.contains("12 skipped"), "\(note)")
        #expect(page["blank"] == .bool(false) && page["console"] == .array([]))
    }
}
