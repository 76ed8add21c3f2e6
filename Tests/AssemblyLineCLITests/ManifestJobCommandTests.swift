import AssemblyLine
import ConfigFormat
import Foundation
import TestSupport
import Testing

/// A manifest moved or copied keeps its job; a stranger of its name is refused until it adopts the job (issue 33, item 1).
@Suite(.timeLimit(.minutes(3))) struct ManifestJobCommandTests {
    /// The manifest of ``RunCommandTests/job()`` placed at `file` (under `job/`), its paths adjusted to reach the same inputs
    /// and state, with `output` as its output directory (relative to the new place).
    static func place(_ directory: TemporaryDirectory, at file: String, up: String, output: String) throws {
        try directory.write("job/\(file)", """
            version: 1
            name: thumbs
            inputs: {include: "\(up)in/**/*.png", base: \(up)in}
            resize: {width: 160, height: 120, strategy: fit, format: jpg}
            shards: {files: 5}
            concurrency: {assemblies: 2}
            poll: {interval: 100ms}
            output: {dir: "\(output)"}
            state_dir: \(up)state

            """)
    }

    @Test func aManifestDeployedElsewhereSkipsWhatItsJobDidAndAStrangerOfItsNameIsRefused() async throws {
        let directory = try await RunCommandTests.job()
        let first = try await BinaryRunner.run(["run", "job/m.yaml"], in: directory.url)
        #expect(first.status == 0, "\(first.stderr)")
        try Self.place(directory, at: "etc/assemblyline/m.yaml", up: "../../", output: "../../state/output")

        let plan = try await BinaryRunner.run(["plan", "job/etc/assemblyline/m.yaml", "--json"], in: directory.url)
        let run = try await BinaryRunner.run(["run", "job/etc/assemblyline/m.yaml"], in: directory.url)

        #expect(plan.status == 0, "\(plan.stderr)")
        let forecast = try #require(try JSONValue(parsing: Array(plan.stdout.utf8)).objectValue)
        guard case let .array(skipped)? = forecast["skipped"], case let .array(shards)? = forecast["shards"] else {
            Issue.record("plan --json holds no skipped files or shards: \(plan.stdout)")
            return
        }
        #expect(skipped.count == 12 && shards.isEmpty, "nothing to send again: \(plan.stdout)")
        #expect(run.status == 0 && run.stdout.contains("files 0 done, 0 failed, 12 skipped"), "\(run.stdout)\(run.stderr)")

        try Self.place(directory, at: "copy/m.yaml", up: "../", output: "../elsewhere")
        let stranger = try await BinaryRunner.run(["run", "job/copy/m.yaml"], in: directory.url)
        let copy = directory.url.appendingPathComponent("job/copy/m.yaml").path
        #expect(stranger.status == 65, "\(stranger.stderr)")
        #expect(stranger.stderr.contains("\(copy): the state directory holds runs of a job named thumbs that ")
                    && stranger.stderr.contains("etc/assemblyline/m.yaml ran with other inputs or outputs")
                    && stranger.stderr.contains("--adopt"), "names the other manifest and the way out: \(stranger.stderr)")
        let adopted = try await BinaryRunner.run(["run", "job/copy/m.yaml", "--adopt"], in: directory.url)
        #expect(adopted.status == 0 && adopted.stdout.contains("files 12 done"), "its outputs go elsewhere: made there: \(adopted.stdout)\(adopted.stderr)")
    }
}
