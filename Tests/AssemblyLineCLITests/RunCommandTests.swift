import AssemblyLine
import ConfigFormat
import Foundation
import ImageRobot
import TestSupport
import Testing

/// `run` as a built binary against the embedded local service: real uploads, real resizing, real downloads.
@Suite(.timeLimit(.minutes(3))) struct RunCommandTests {
    /// Twelve generated PNGs below `job/in/` (640×480, 480×640, 800×450, 512×512) and a manifest resizing them.
    static func job() async throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        try await SampleImages.copy(to: directory.url.appendingPathComponent("job/in"))
        try directory.write("job/m.yaml", """
            version: 1
            name: thumbs
            inputs: {include: "in/**/*.png", base: in}
            resize: {width: 160, height: 120, strategy: fit, format: jpg}
            shards: {files: 5}
            concurrency: {assemblies: 2}
            poll: {interval: 100ms}
            state_dir: state

            """)
        return directory
    }

    /// ``job()`` with one file a shard, one shard at a time, polling every 100 ms without the change stream:
    /// a run of more than a second, long enough for a test to stop it or to see its stats lines.
    static func slowJob() async throws -> TemporaryDirectory {
        let directory = try await job()
        let manifest = directory.url.appendingPathComponent("job/m.yaml")
        let text = try String(contentsOf: manifest, encoding: .utf8)
            .replacingOccurrences(of: "poll: {interval: 100ms}", with: "poll: {interval: 100ms, stream: false}")
            .replacingOccurrences(of: "shards: {files: 5}", with: "shards: {files: 1}")
            .replacingOccurrences(of: "concurrency: {assemblies: 2}", with: "concurrency: {assemblies: 1}")
        try text.write(to: manifest, atomically: true, encoding: .utf8)
        return directory
    }

    @Test func aCleanRunDownloadsEveryResultWithTheRightDimensionsThenANightlyRunSkipsThem() async throws {
        let directory = try await Self.job()
        let first = try await BinaryRunner.run(["run", "job/m.yaml", "-v"], in: directory.url)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("shard 0: signed") && first.stdout.contains("shard 0: executing"), "-v shows every step: \(first.stdout)")
        let lines = first.stdout.split(separator: "\n")
        #expect(lines.first.map { RunID(String($0)) != nil } == true)
        #expect(lines.last?.contains("files 12 done, 0 failed, 0 skipped") == true)

        let output = directory.url.appendingPathComponent("job/state/output/resize")
        let expected: [String: (Int, Int)] = ["landscapes/sample-00.jpg": (160, 120), "portraits/sample-01.jpg": (90, 120),
                                              "squares/sample-02.jpg": (160, 90), "landscapes/sample-03.jpg": (120, 120)]
        for (path, size) in expected {
            let info = try ImageInspector.inspect(output.appendingPathComponent(path).path)
            #expect(info.width == size.0 && info.height == size.1, "\(path): \(info.width)x\(info.height)")
        }
        let results = try FileManager.default.subpathsOfDirectory(atPath: output.path).filter { $0.hasSuffix(".jpg") }
        #expect(results.count == 12)
        #expect(!results.contains { $0.hasSuffix(".part") })
        let service = directory.url.appendingPathComponent("job/state/embedded-service/assemblies")
        let kept = try FileManager.default.subpathsOfDirectory(atPath: service.path).filter { $0.contains("/files/") }
        #expect(kept.count == 12, "the embedded service kept the 12 results and dropped the fetched Assemblies' uploads: \(kept.count)")

        let second = try await BinaryRunner.run(["run", "job/m.yaml"], in: directory.url)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(!second.stdout.contains("\u{1B}"), "no progress bar without a terminal")
        #expect(second.stdout.contains("skipped 12 files an earlier run already did"))
        #expect(second.stdout.contains("files 0 done, 0 failed, 12 skipped, 0 pending"))
        let quiet = try await BinaryRunner.run(["run", "job/m.yaml", "-q"], in: directory.url)
        #expect(quiet.status == 0 && quiet.stdout.isEmpty && quiet.stderr.isEmpty, "a quiet success prints nothing: \(quiet.stdout)")
        let both = try await BinaryRunner.run(["run", "job/m.yaml", "-q", "-v"], in: directory.url)
        #expect(both.status == 64 && both.stderr.hasPrefix("Error: --quiet and --verbose cannot be used together"), "\(both.stderr)")
        #expect(try await BinaryRunner.run(["run", "--help"], in: directory.url).stdout.contains("  -q, --quiet "))
    }

    @Test func aQuietNightPrintsNothingWhileThePlanWarningsThatRepeatAreSaidWithoutQuiet() async throws {
        let directory = try await Self.job()
        try directory.write("job/in/IMG_0001.PNG", "not an input: *.png takes no capitals")
        let manifest = directory.url.appendingPathComponent("job/m.yaml")
        let text = try String(contentsOf: manifest, encoding: .utf8)
            .replacingOccurrences(of: "base: in}", with: "base: in, exclude: [\"landscapes/**\"]}")
        try text.write(to: manifest, atomically: true, encoding: .utf8)
        let letterCase = "IMG_0001.PNG: not an input: include pattern 'in/**/*.png' matches it but for letter case"
        let exclude = "landscapes/**: inputs.exclude pattern 'landscapes/**' matches nothing the include patterns reach; "
            + "a relative pattern is read from the manifest's directory, not from inputs.base"

        let plan = try await BinaryRunner.run(["plan", "job/m.yaml"], in: directory.url)
        let first = try await BinaryRunner.run(["run", "job/m.yaml", "-q"], in: directory.url)
        let said = try await BinaryRunner.run(["run", "job/m.yaml"], in: directory.url)
        let quiet = try await BinaryRunner.run(["run", "job/m.yaml", "-q"], in: directory.url)

        #expect(plan.status == 0 && plan.stderr.contains(letterCase) && plan.stderr.contains(exclude), "\(plan.stderr)")
        #expect(first.status == 0 && first.stdout.isEmpty && first.stderr.isEmpty, "a quiet night that sent all: \(first.stdout)\(first.stderr)")
        #expect(said.status == 0 && said.stderr.contains(letterCase) && said.stderr.contains(exclude), "\(said.stderr)")
        #expect(quiet.status == 0 && quiet.stdout.isEmpty && quiet.stderr.isEmpty, "cron mails nothing: \(quiet.stdout)\(quiet.stderr)")
    }

    @Test func withoutVerboseANightOfManyShardsIsAShortMailAndVerboseSaysEveryStep() async throws {
        let directory = try await Self.job()
        let manifest = directory.url.appendingPathComponent("job/m.yaml")
        let text = try String(contentsOf: manifest, encoding: .utf8).replacingOccurrences(of: "shards: {files: 5}", with: "shards: {files: 1}")
        try text.write(to: manifest, atomically: true, encoding: .utf8)
        for index in 1...25 { try directory.write("job/in/broken-\(index).png", "not a png") }

        let night = try await BinaryRunner.run(["run", "job/m.yaml"], in: directory.url)
        let verbose = try await BinaryRunner.run(["run", "job/m.yaml", "--force", "-v"], in: directory.url)

        #expect(night.status == 1, "\(night.stderr)")
        let out = night.stdout.split(separator: "\n"), err = night.stderr.split(separator: "\n")
        let runID = try #require(out.first.map(String.init))
        #expect(out.count == 2 && out.last?.hasPrefix("run \(runID) failed: shards 12 done, 25 failed") == true, "the run ID and the summary: \(night.stdout)")
        #expect(err.count == 21 && err.dropLast().allSatisfy { $0.contains(": failed (IMAGE_RESIZE_ERROR") }, "\(night.stderr)")
        #expect(err.last == "5 more failures not shown; report \(runID) --failed lists the failed files", "\(night.stderr)")
        #expect(verbose.status == 1 && verbose.stdout.split(separator: "\n").count > 37 * 3, "\(verbose.stdout)")
        #expect(verbose.stderr.split(separator: "\n").count == 25 && !verbose.stderr.contains("not shown"), "\(verbose.stderr)")
    }

    @Test func noMatchingInputIsRefusedBeforeAnythingIsRecorded() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("m.yaml", "version: 1\nname: none\ninputs: {include: \"in/*.png\"}\nresize: {width: 10}\n")
        let outcome = try await BinaryRunner.run(["run", "m.yaml"], in: directory.url)
        #expect(outcome.status == 65)
        #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("runs").path))
    }

    @Test func aRunStoppedByMaxDurationExits2AndResumeFinishesIt() async throws {
        let directory = try await Self.slowJob()
        let stopped = try await BinaryRunner.run(["run", "job/m.yaml", "--max-duration", "300ms"], in: directory.url)
        #expect(stopped.status == 2, "\(stopped.stderr)")
        let runID = try #require(stopped.stdout.split(separator: "\n").first.map(String.init))
        #expect(stopped.stderr.contains("--max-duration 300ms reached"))
        #expect(stopped.stdout.contains("run \(runID) interrupted"))
        #expect(stopped.stdout.contains(" 0 failed,") && !stopped.stdout.contains("TRANSPORT_CANCELLED"), "a stop fails nothing: \(stopped.stdout)")
        let failed = try await BinaryRunner.run(["report", runID, "--state-dir", "job/state", "--failed"], in: directory.url)
        #expect(failed.stdout == "no failed files in run \(runID)\n", "\(failed.stdout)")

        let stranger = try await BinaryRunner.run(["resume", runID, "--state-dir", "job/state", "--shard", "99"], in: directory.url)
        #expect(stranger.status == 64 && stranger.stderr.contains("run \(runID) has no shard 99"), "\(stranger.stderr)")
        let resumed = try await BinaryRunner.run(["resume", runID, "--state-dir", "job/state"], in: directory.url)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stdout.contains("files 12 done, 0 failed, 0 skipped, 0 pending"))
        let output = directory.url.appendingPathComponent("job/state/output/resize").path
        let results = try FileManager.default.subpathsOfDirectory(atPath: output).filter { $0.hasSuffix(".jpg") }
        #expect(results.count == 12)

        let again = try await BinaryRunner.run(["resume", runID, "--state-dir", "job/state"], in: directory.url)
        #expect(again.status == 0)
        #expect(again.stdout == "run \(runID) is finished: every shard is done; nothing to resume\n")
    }

    @Test func statsLinesGiveTheFiguresSoFarNowAndThen() async throws {
        let directory = try await Self.slowJob()
        let run = try await BinaryRunner.run(["run", "job/m.yaml", "--stats", "200ms"], in: directory.url)
        #expect(run.status == 0, "\(run.stderr)")
        let stats = run.stdout.split(separator: "\n").filter { $0.hasPrefix("stats: ") }
        #expect(!stats.isEmpty, "\(run.stdout)")
        #expect(stats.allSatisfy { $0.contains(" shards") && $0.contains("/12 files  ") && $0.contains(" up") }, "\(stats)")
        let json = try await BinaryRunner.run(["run", "job/m.yaml", "--force", "--stats", "200ms", "--log-format", "json"], in: directory.url)
        #expect(json.stdout.contains("\"event\":\"run.stats\""), "\(json.stdout)")
        #expect(try await BinaryRunner.run(["run", "job/m.yaml", "--stats", "soon"], in: directory.url).status == 64)
    }

    @Test func jsonLogsAreJSONLinesOnBothStreams() async throws {
        let directory = try await Self.job()
        try Data("not a png".utf8).write(to: directory.url.appendingPathComponent("job/in/landscapes/broken.png"))
        try FileManager.default.createSymbolicLink(atPath: directory.url.appendingPathComponent("job/in/dangling.png").path,
                                                   withDestinationPath: "/nowhere/at/all.png")

        let run = try await BinaryRunner.run(["run", "job/m.yaml", "--log-format", "json"], in: directory.url)

        #expect(run.status == 1, "\(run.stderr)")
        func objects(_ text: String) -> [[String: JSONValue]] {
            text.split(separator: "\n").map { (try? JSONValue(parsing: Array($0.utf8)).objectValue) ?? ["unparsed": .string(String($0))] }
        }
        let out = objects(run.stdout), err = objects(run.stderr)
        #expect(!out.isEmpty && !err.isEmpty && (out + err).allSatisfy { $0["event"]?.stringValue != nil }, "\(run.stdout)\(run.stderr)")
        let runID = try #require(out.first?["run_id"]?.stringValue)
        #expect(out.first?["event"]?.stringValue == "run.started" && RunID(runID) != nil)
        #expect(out.last?["event"]?.stringValue == "run.summary" && out.last?["state"]?.stringValue == "failed")
        #expect(err.contains { $0["event"]?.stringValue == "warning" && ($0["message"]?.stringValue ?? "").contains("dangling.png") }, "\(run.stderr)")
        let failed = try #require(err.first { $0["event"]?.stringValue == "shard.file-failed" }, "\(run.stderr)")
        #expect(failed["file"]?.stringValue == "landscapes/broken.png" && failed["run_id"]?.stringValue == runID)
        #expect(failed["code"]?.stringValue != nil && failed["retryable"] == .bool(false) && failed["shard"] != nil, "\(failed)")

        try directory.write("job/blocker", "a file")
        let refused = try await BinaryRunner.run(["run", "job/m.yaml", "--log-format", "json", "--state-dir", "job/blocker/state"], in: directory.url)
        #expect(refused.status == 74)
        let error = objects(refused.stderr)
        #expect(error.allSatisfy { $0["event"] != nil } && error.last?["event"]?.stringValue == "error"
                && (error.last?["message"]?.stringValue ?? "").hasPrefix("cannot use the state directory "), "\(refused.stderr)")
    }

    @Test func jsonLogsAreAnObjectAnEventWithItsTimeRunAndFigures() async throws {
        let directory = try await Self.job()
        try directory.write("job/in/IMG_0001.PNG", "not an input: *.png takes no capitals")
        try directory.write("job/bad.yaml", "version: 1\nname: bad\ninputs: {include: \"in/*.png\"}\nresize: {width: -1}\nshardz: 3\n")
        func objects(_ text: String) -> [[String: JSONValue]] {
            text.split(separator: "\n").map { (try? JSONValue(parsing: Array($0.utf8)).objectValue) ?? ["unparsed": .string(String($0))] }
        }

        let run = try await BinaryRunner.run(["run", "job/m.yaml", "--log-format", "json"], in: directory.url)
        let invalid = try await BinaryRunner.run(["run", "job/bad.yaml", "--log-format", "json"], in: directory.url)

        #expect(run.status == 0, "\(run.stderr)")
        let lines = objects(run.stdout) + objects(run.stderr)
        let runID = try #require(lines.first?["run_id"]?.stringValue)
        #expect(lines.allSatisfy { $0["time"]?.stringValue.flatMap(UTCDateTime.init(iso8601Text:)) != nil && $0["run_id"]?.stringValue == runID },
                "\(run.stdout)\(run.stderr)")
        let warning = try #require(lines.first { $0["event"]?.stringValue == "warning" }, "\(run.stderr)")
        #expect(warning["path"]?.stringValue?.hasSuffix("/job/in/IMG_0001.PNG") == true
            && warning["problem"]?.stringValue?.hasPrefix("not an input: include pattern 'in/**/*.png' matches it but for letter case") == true,
                "\(warning)")
        let summary = try #require(lines.last { $0["event"]?.stringValue == "run.summary" }, "\(run.stdout)")
        #expect(summary["files_by_state"]?.objectValue?["done"] == .integer(12) && summary["files_by_state"]?.objectValue?["failed"] == .integer(0))
        #expect(summary["shards"] == .integer(3) && summary["shards_by_state"]?.objectValue?["downloaded"] == .integer(3), "\(summary)")
        #expect(summary["files"] == .integer(12) && (summary["bytes"]?.integerValue ?? 0) > 0 && (summary["bytes_sent"]?.integerValue ?? 0) > 0)
        #expect(summary["elapsed_ms"]?.integerValue != nil && summary["state"] == .string("finished"), "\(summary)")

        #expect(invalid.status == 65 && invalid.stdout.isEmpty)
        let errors = objects(invalid.stderr)
        #expect(errors.count == 2 && errors.allSatisfy { $0["event"] == .string("error") && $0["file"] == .string("job/bad.yaml") }, "\(invalid.stderr)")
        #expect(errors.first?["line"] == .integer(4) && errors.first?["column"] == .integer(17) && errors.first?["field"] == .string("resize.width")
            && errors.first?["message"] == .string("job/bad.yaml:4:17: resize.width: out of range; expected a whole number from 1 to 20000"),
                "one object an error, no quoted line or caret: \(invalid.stderr)")
        #expect(errors.last?["line"] == .integer(5) && errors.last?["field"] == .string("shardz"), "\(invalid.stderr)")
    }

    @Test func anUnreadableInputFailsAloneBeforeUploadAndPlanWarns() async throws {
        let directory = try await Self.job()
        let locked = directory.url.appendingPathComponent("job/in/landscapes/sample-00.png")
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: locked.path)
        let user = try await NightUser.owning(directory)

        let plan = try await user.run(["plan", "job/m.yaml"])
        #expect(plan.status == 0 && plan.stderr.contains("sample-00.png: cannot be read: Permission denied; a run fails it alone"),
                "\(plan.stderr)")
        let run = try await user.run(["run", "job/m.yaml"])

        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("file-failed (landscapes/sample-00.png: INPUT_UNREADABLE"), "\(run.stderr)")
        #expect(run.stdout.contains("files 11 done, 1 failed, 0 skipped, 0 pending"), "\(run.stdout)")
        let report = try await user.run(["report", "latest", "--failed", "--state-dir", "job/state"])
        #expect(report.stdout.contains("INPUT_UNREADABLE") && !report.stdout.contains("sample-03"), "\(report.stdout)")
    }

    @Test func aCorruptInputFailsAloneAndTheReportSaysWhichWithWhatTheRunMoved() async throws {
        let directory = try await Self.job()
        let sample = directory.url.appendingPathComponent("job/in/landscapes/sample-00.png")
        let truncated = try Data(contentsOf: sample).prefix(3_000)
        try truncated.write(to: directory.url.appendingPathComponent("job/in/landscapes/broken.png"))

        let run = try await BinaryRunner.run(["run", "job/m.yaml"], in: directory.url)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("file-failed (landscapes/broken.png: IMAGE_RESIZE_ERROR"))
        #expect(!run.stderr.contains("VIPS-WARNING"))
        #expect(run.stdout.contains("files 12 done, 1 failed, 0 skipped, 0 pending"))
        let output = directory.url.appendingPathComponent("job/state/output/resize")
        let results = try FileManager.default.subpathsOfDirectory(atPath: output.path).filter { $0.hasSuffix(".jpg") }
        #expect(Set(results).count == 12 && !results.contains("landscapes/broken.jpg"))

        let failed = try await BinaryRunner.run(["report", "latest", "--state-dir", "job/state", "--failed"], in: directory.url)
        #expect(failed.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: " ", omittingEmptySubsequences: true).prefix(2).joined(separator: " ") }
            == ["landscapes/broken.png IMAGE_RESIZE_ERROR"])
        #expect(failed.stdout.contains("could not resize broken.png.: ") && failed.stdout.contains("libpng read error"),
                "the service's own reason is shown, not only that the step failed: \(failed.stdout)")

        let json = try await BinaryRunner.run(["report", "latest", "--state-dir", "job/state", "--format", "json"], in: directory.url)
        let report = try #require(try JSONValue(parsing: Array(json.stdout.utf8)).objectValue)
        let shards = try #require(report["shard_list"]?.arrayValue)
        #expect(report["assemblies_created"] == .integer(Int64(shards.count + 1)))
        #expect(report["retries"] == .integer(1))
        let planned = try #require(report["bytes"]?.integerValue)
        let sent = try #require(report["bytes_sent"]?.integerValue)
        #expect(sent > planned && sent < 2 * planned)
        let onDisk = try results.reduce(Int64(0)) { total, path in
            total + (try FileManager.default.attributesOfItem(atPath: output.appendingPathComponent(path).path)[.size] as? Int64 ?? 0)
        }
        #expect(report["bytes_received"] == .integer(onDisk))
        #expect(shards.allSatisfy { $0.objectValue?["duration_ms"]?.integerValue.map { $0 > 0 } == true })
    }

    @Test func aRunWaitingForItsCreationsBudgetSaysSoWithVerboseInItsStatsAndOnItsBar() async throws {
        // Three shards, two at a time, one creation a minute set in the manifest (the embedded service has no budget of its own):
        // the second waits a minute, the last two; --max-duration stops the run rather than the test waiting.
        let directory = try await Self.job()
        let manifest = directory.url.appendingPathComponent("job/m.yaml")
        try (String(contentsOf: manifest, encoding: .utf8) + "limits: {creations_per_minute: 1}\n").write(to: manifest, atomically: true, encoding: .utf8)

        let verbose = try await BinaryRunner.run(["run", "job/m.yaml", "-v", "--stats", "300ms", "--max-duration", "2s"], in: directory.url)
        let command = "\(BinaryRunner.binary.path) run job/m.yaml --force --max-duration 1500ms"
        let terminal = try await BinaryRunner.run(["-qec", command, "/dev/null"], in: directory.url, executable: URL(fileURLWithPath: "/usr/bin/script"))

        #expect(verbose.status == 2, "\(verbose.stderr)")
        #expect(verbose.stdout.contains("\ncreations wait 1m for the creations budget (limits.creations_per_minute: 1); "
            + "the last can start in 2m at the earliest\n"), "\(verbose.stdout)")
        // From the first line of the wait on (a loaded machine may tick once before the first shard's creation), each says so.
        let stats = verbose.stdout.split(separator: "\n").filter { $0.hasPrefix("stats: ") }.drop { !$0.contains("  waiting ") }
        #expect(!stats.isEmpty && stats.allSatisfy { $0.contains("  waiting ") && $0.contains(" for the creations budget  ETA ") }, "\(stats)")
        #expect(stats.allSatisfy { $0.hasSuffix("ETA 2m00s") || $0.contains("ETA 1m") }, "the time left counts the wait for the last shard: \(stats)")
        #expect(terminal.stdout.contains(" for the creations budget  ETA "), "\(terminal.stdout)")
        #expect(!terminal.stdout.contains("creations wait"), "the wait's line is for -v: \(terminal.stdout)")
    }

    @Test func onATerminalAProgressBarStaysBelowTheEventLines() async throws {
        let directory = try await Self.job()
        let command = "\(BinaryRunner.binary.path) run job/m.yaml -v"
        let outcome = try await BinaryRunner.run(["-qec", command, "/dev/null"], in: directory.url,
                                           executable: URL(fileURLWithPath: "/usr/bin/script"))
        #expect(outcome.status == 0, "\(outcome.stdout)")
        let erase = "\r\u{1B}[K"
        #expect(outcome.stdout.contains("[........................]  0/3 shards  0/12 files  0 B up" + erase + "shard "))
        let beforeSummary = try #require(outcome.stdout.components(separatedBy: erase + "run ").first)
        let last = try #require(beforeSummary.split(whereSeparator: \.isNewline).last.map(String.init))
        #expect(last.hasPrefix("[########################]  3/3 shards  12/12 files  1.2 MiB up"), "\(last)")
        #expect(!last.contains("ETA"), "nothing is left: \(last)")
        #expect(outcome.stdout.contains("files 12 done, 0 failed, 0 skipped, 0 pending"))
    }
}

/// A file the service cannot make is sent once, then left out as known bad night after night until `--retry-failed`.
@Suite(.timeLimit(.minutes(3))) struct KnownBadRunTests {
    @Test func aBrokenImageIsKnownBadTheNextNightAndSentAgainOnlyWithRetryFailed() async throws {
        let directory = try await RunCommandTests.job()
        try Data("not a png".utf8).write(to: directory.url.appendingPathComponent("job/in/landscapes/broken.png"))
        let first = try await BinaryRunner.run(["run", "job/m.yaml"], in: directory.url)
        #expect(first.status == 1 && first.stdout.contains("files 12 done, 1 failed"), "\(first.stdout)\(first.stderr)")

        let plan = try await BinaryRunner.run(["plan", "job/m.yaml"], in: directory.url)
        let second = try await BinaryRunner.run(["run", "job/m.yaml"], in: directory.url)
        let failed = try await BinaryRunner.run(["report", "latest", "--failed", "--state-dir", "job/state"], in: directory.url)
        let json = try await BinaryRunner.run(["report", "latest", "--failed", "--format", "json", "--state-dir", "job/state"], in: directory.url)

        #expect(plan.status == 0 && plan.stdout.contains("0 files, 0 B in 0 shards; 12 skipped; 1 known bad"), "\(plan.stdout)")
        #expect(plan.stdout.contains("  landscapes/broken.png: IMAGE_RESIZE_ERROR: "), "\(plan.stdout)")
        #expect(second.status == 0, "nothing failed this night: \(second.stdout)\(second.stderr)")
        #expect(second.stdout.contains("left out 1 known bad file an earlier run failed for a reason of its own, unchanged since "
            + "(first: landscapes/broken.png, IMAGE_RESIZE_ERROR); --retry-failed sends them"), "\(second.stdout)")
        #expect(second.stdout.contains("files 0 done, 0 failed, 12 skipped, 1 known bad, 0 pending"), "\(second.stdout)")
        #expect(failed.stdout.hasPrefix("no failed files in run ") && failed.stdout.contains("known bad (1 file left out")
            && failed.stdout.contains("landscapes/broken.png  IMAGE_RESIZE_ERROR"), "\(failed.stdout)")
        let report = try #require(try JSONValue(parsing: Array(json.stdout.utf8)).objectValue, "\(json.stdout)")
        let known = report["known_bad_files"]?.arrayValue?.first?.objectValue
        #expect(known?["relative_path"] == .string("landscapes/broken.png") && known?["state"] == .string("known_bad"), "\(json.stdout)")

        let retried = try await BinaryRunner.run(["run", "job/m.yaml", "--retry-failed"], in: directory.url)

        #expect(retried.status == 1 && retried.stdout.contains("files 0 done, 1 failed, 12 skipped, 0 pending"), "\(retried.stdout)")
    }
}
