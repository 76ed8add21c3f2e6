import Foundation
import ImageRobot
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(3))) struct PlanCommandTests {
    /// A job directory with five images of 100..500 bytes below `in/`, and a manifest of shards of two files.
    static func jobDirectory() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        for (index, name) in ["a/1.jpg", "a/2.jpg", "b/3.jpg", "b/c/4.jpg", "5.jpg"].enumerated() {
            try directory.write("job/in/\(name)", String(repeating: "x", count: (index + 1) * 100))
        }
        try directory.write("job/in/skip.txt", "not an image")
        try directory.write("job/m.yaml", """
            version: 1
            name: planned
            inputs: {include: "in/**/*.jpg", base: in}
            resize: {width: 10}
            shards: {files: 2}

            """)
        return directory
    }

    @Test(arguments: [
        ("resize: {width: 10}", "{stem}.{ext}", "x.jpg"),
        ("resize: {width: 10, format: png}", "{step}/{stem}.png", "resize/x.png"),
        ("template: {id: thumbs}\nendpoint: http://127.0.0.1:9\nsigner: {kind: local, secret_env: S}", "{name}", "x.jpg"),
    ])
    func aLayoutGivingTwoInputsOneOutputIsRefusedBeforeAnythingIsSent(recipe: String, layout: String, output: String) async throws {
        let directory = try TemporaryDirectory()
        for name in ["a/x.jpg", "b/x.jpg", "b/y.jpg"] { try directory.write("job/in/\(name)", "image") }
        try directory.write("job/m.yaml", """
            version: 1
            name: clash
            inputs: {include: "in/**/*.jpg", base: in}
            \(recipe)
            auth: {key: k}
            output: {dir: out, layout: "\(layout)"}
            state_dir: state

            """)
        for command in [["plan", "job/m.yaml"], ["run", "job/m.yaml"], ["run", "job/m.yaml", "--dry-run"]] {
            let outcome = try await BinaryRunner.run(command, in: directory.url)
            #expect(outcome.status == 65, "\(command): \(outcome.stderr)")
            #expect(outcome.stderr.contains("output.layout gives the inputs 'a/x.jpg' and 'b/x.jpg' one output, "
                + directory.url.appendingPathComponent("job/out/\(output)").path), "\(command): \(outcome.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("job/state").path))
        try directory.write("job/m.yaml", try String(contentsOf: directory.url.appendingPathComponent("job/m.yaml"), encoding: .utf8)
            .replacingOccurrences(of: layout, with: "{relpath}.{ext}"))
        #expect(try await BinaryRunner.run(["plan", "job/m.yaml"], in: directory.url).status == 0)
    }

    @Test func inputsApartOnlyByTheirExtensionAreAdvisedTheInputExtPlaceholderWhichKeepsThemApart() async throws {
        let directory = try TemporaryDirectory()
        for name in ["photo.jpg", "photo.png"] { try directory.write("job/in/\(name)", "image") }
        try directory.write("job/m.yaml", """
            version: 1
            name: formats
            inputs: {include: ["in/*.jpg", "in/*.png"], base: in}
            resize: {width: 10, format: jpg}
            state_dir: state

            """)
        let refused = try await BinaryRunner.run(["plan", "job/m.yaml"], in: directory.url)
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("such as {step}/{relpath}.{input_ext}.{ext}, which keeps each input's own extension"), "\(refused.stderr)")
        try directory.write("job/m.yaml", try String(contentsOf: directory.url.appendingPathComponent("job/m.yaml"), encoding: .utf8)
            + "output: {layout: \"{step}/{relpath}.{input_ext}.{ext}\"}\n")
        let planned = try await BinaryRunner.run(["plan", "job/m.yaml"], in: directory.url)
        #expect(planned.status == 0, "the advised layout works: \(planned.stderr)")
    }

    @Test func anOutputNameLongerThanAFileNameMayBeIsFoundByThePlanAndFailsAloneInTheRun() async throws {
        let directory = try TemporaryDirectory()
        let long = String(repeating: "n", count: 240) + ".png"
        try FileManager.default.createDirectory(atPath: directory.file("job/in"), withIntermediateDirectories: true)
        for name in [long, "short.png"] { try SampleImage.writeGradient(to: directory.file("job/in/\(name)"), width: 20, height: 20, format: .png) }
        try directory.write("job/m.yaml", """
            version: 1
            name: long
            inputs: {include: "in/*.png", base: in}
            resize: {width: 10}
            output: {layout: "{step}/{relpath}-{step}-thumbnail.{ext}"}
            state_dir: state

            """)

        let plan = try await BinaryRunner.run(["plan", "job/m.yaml"], in: directory.url)
        let run = try await BinaryRunner.run(["run", "job/m.yaml"], in: directory.url)
        let failed = try await BinaryRunner.run(["report", "latest", "--failed", "--state-dir", "job/state"], in: directory.url)

        #expect(plan.status == 0 && plan.stdout.contains("2 files"), "\(plan.stderr)")
        #expect(plan.stderr.contains("warning: \(directory.file("job/in/\(long)")): its output ")
            && plan.stderr.contains("cannot be created: a name in it is over the 255 bytes a file name may have; a run fails it alone, unsent (OUTPUT_NAME_TOO_LONG)"),
            "\(plan.stderr)")
        #expect(run.status == 1, "the night goes on, the file fails alone: \(run.stderr)")
        #expect(run.stdout.contains("files 1 done, 1 failed"), "\(run.stdout)")
        #expect(failed.stdout.contains(long) && failed.stdout.contains("OUTPUT_NAME_TOO_LONG"), "\(failed.stdout)")
        #expect(!failed.stdout.contains("short.png"), "no other file is blamed: \(failed.stdout)")
        #expect(FileManager.default.fileExists(atPath: directory.file("job/state/output/resize/short-resize-thumbnail.png")))
    }

    @Test func tableListsShardsAndTotalsAndWritesNothing() async throws {
        let directory = try Self.jobDirectory()
        let outcome = try await BinaryRunner.run(["plan", "job/m.yaml"], in: directory.url)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout == """
            plan of 'planned': 5 files, 1.5 KiB in 3 shards
              shard   files       bytes
                  0       2       600 B
                  1       2       500 B
                  2       1       400 B
            usage: unknown (1.5 KiB to send; no recent run of this recipe said its usage)
            shards hold at most 2 files and 1.0 GiB; a larger file is a shard of its own

            """)
        #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("job/runs").path))
    }

    @Test func jsonHasEveryFileInExactlyOneShardInPlanOrder() async throws {
        let directory = try Self.jobDirectory()
        let outcome = try await BinaryRunner.run(["plan", "--json", "job/m.yaml"], in: directory.url)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        let shards = try #require(object["shards"] as? [[String: Any]])
        let relativePaths = shards.flatMap { ($0["files"] as? [[String: Any]] ?? []).compactMap { $0["relative_path"] as? String } }
        #expect(relativePaths == ["5.jpg", "a/1.jpg", "a/2.jpg", "b/3.jpg", "b/c/4.jpg"])
        #expect(object["files"] as? Int == 5)
        #expect(object["bytes"] as? Int == 1_500)
    }

    @Test func noMatchNamesThePatternsAndExits65() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("m.yaml", "version: 1\nname: none\ninputs: {include: \"in/**/*.png\"}\nresize: {width: 10}\n")
        let outcome = try await BinaryRunner.run(["plan", "m.yaml"], in: directory.url)
        #expect(outcome.status == 65)
        #expect(outcome.stdout == "")
        #expect(outcome.stderr.contains("no file matches the include patterns"))
        #expect(outcome.stderr.contains("/in/**/*.png"))
    }

    @Test func aDanglingSymlinkIsAWarningNotAFailure() async throws {
        let directory = try Self.jobDirectory()
        try FileManager.default.createSymbolicLink(atPath: directory.url.appendingPathComponent("job/in/gone.jpg").path,
                                                   withDestinationPath: "/nonexistent/target.jpg")
        let outcome = try await BinaryRunner.run(["plan", "job/m.yaml"], in: directory.url)
        #expect(outcome.status == 0)
        #expect(outcome.stderr.hasPrefix("warning: "))
        #expect(outcome.stderr.contains("gone.jpg"))
    }
}
