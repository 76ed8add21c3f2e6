import AssemblyLine
import Foundation
import ImageRobot
import Testing

/// `run` as a built binary against the embedded local service: real uploads, real resizing, real downloads.
@Suite struct RunCommandTests {
    /// Twelve generated PNGs below `job/in/` (640×480, 480×640, 800×450, 512×512) and a manifest resizing them.
    static func job() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let generator = Process()
        generator.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        generator.arguments = ["python3", root.appendingPathComponent("scripts/make-sample-images.py").path,
                               directory.url.appendingPathComponent("job/in").path]
        try generator.run()
        generator.waitUntilExit()
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

    @Test func aCleanRunDownloadsEveryResultWithTheRightDimensionsThenANightlyRunSkipsThem() throws {
        let directory = try Self.job()
        let first = try BinaryRunner.run(["run", "job/m.yaml", "--quiet"], in: directory.url)
        #expect(first.status == 0, "\(first.stderr)")
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
        #expect(!results.contains { $0.contains(".part-") })

        let second = try BinaryRunner.run(["run", "job/m.yaml"], in: directory.url)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("skipped 12 files an earlier run already did"))
        #expect(second.stdout.contains("files 0 done, 0 failed, 12 skipped, 0 pending"))
    }

    @Test func noMatchingInputIsRefusedBeforeAnythingIsRecorded() throws {
        let directory = try TemporaryDirectory()
        try directory.write("m.yaml", "version: 1\nname: none\ninputs: {include: \"in/*.png\"}\nresize: {width: 10}\n")
        let outcome = try BinaryRunner.run(["run", "m.yaml"], in: directory.url)
        #expect(outcome.status == 65)
        #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("runs").path))
    }
}
