import AssemblyLine
import Foundation
import SQLiteLedger
import TestSupport
import Testing

/// "Re-run what failed last night" as one pipe: `report --failed --format paths` into `run --files-from` (issue 24).
@Suite struct FilesFromTests {
    @Test func theFailedFilesOfANightAreTheNextRunsOnlyInputs() async throws {
        // Given: a night whose one corrupt input failed
        let directory = try await RunCommandTests.job()
        let broken = directory.url.appendingPathComponent("job/in/landscapes/broken.png")
        let sample = directory.url.appendingPathComponent("job/in/landscapes/sample-00.png")
        try Data(contentsOf: sample).prefix(3_000).write(to: broken)
        let night = try await BinaryRunner.run(["run", "job/m.yaml", "--quiet"], in: directory.url)
        #expect(night.status == 1)

        // When: its failed files are listed, the input is mended, and a run is given the list
        let paths = try await BinaryRunner.run(["report", "latest", "--state-dir", "job/state", "--failed", "--format", "paths"], in: directory.url)
        let nul = try await BinaryRunner.run(["report", "latest", "--state-dir", "job/state", "--failed", "--format", "paths0"], in: directory.url)
        #expect(paths.stdout == "landscapes/broken.png\n" && nul.stdout == "landscapes/broken.png\0", "\(paths.stdout)\(paths.stderr)")
        _ = try directory.write("failed.txt", paths.stdout + "not/an/input.png\n")
        try FileManager.default.removeItem(at: broken)
        try FileManager.default.copyItem(at: sample, to: broken)
        let again = try await BinaryRunner.run(["run", "job/m.yaml", "--files-from", "failed.txt"], in: directory.url)

        // Then: that run sends the listed input alone, warns of the name that is no input, and finishes
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("not/an/input.png: named by --files-from but no input of the manifest"), "\(again.stderr)")
        try await SQLiteLedger.with(stateDirectory: directory.file("job/state"), mode: .readOnly) { ledger in
            let run = try #require(try await ledger.latestRun())
            let files = try await ledger.files(of: run.id, shard: nil, state: nil)
            #expect(files.map(\.file.relativePath) == ["landscapes/broken.png"] && files.allSatisfy { $0.state == .done })
            #expect(run.skippedCount == 0, "the others are not in the plan at all")
        }
        let refused = try await BinaryRunner.run(["report", "latest", "--state-dir", "job/state", "--format", "paths"], in: directory.url)
        #expect(refused.status == 64 && refused.stderr.contains("--format paths lists the failed files: add --failed"))
    }

    @Test func namesMayBeAbsoluteOrNULSeparatedAndAStrangerIsNamed() async throws {
        let directory = try await RunCommandTests.job()
        let base = directory.file("job/in")
        let inputs = try FileManager.default.subpathsOfDirectory(atPath: base).filter { $0.hasSuffix(".png") }.sorted()
        let chosen = Array(inputs.prefix(2))
        let composed = "landscapes/caf\u{E9}.png"
        // NUL-separated, one absolute under the base, and a name no input has
        _ = try directory.write("list", "\(base)/\(chosen[0])\0\(chosen[1])\0\(composed)\0")
        let plan = try await BinaryRunner.run(["plan", "job/m.yaml", "--json", "--files-from", "list"], in: directory.url)
        #expect(plan.status == 0, "\(plan.stderr)")
        #expect(plan.stdout.contains("\"files\":2,") && plan.stderr.contains(composed), "\(plan.stdout.prefix(300))\(plan.stderr)")
    }
}
