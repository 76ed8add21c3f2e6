import AssemblyLine
import Foundation
import TestSupport
import Testing

/// The check of a plan's output paths, rendered on every core a run of shards a thread: what it finds across them.
@Suite struct OutputLayoutCheckTests {
    @Test func twoInputsOfOneOutputInTheFirstAndLastShardsAreRefusedAndTooLongNamesCountedOverAll() async throws {
        // Given: a/x.txt and z/x.txt, one output under {stem}.{ext}, 150 shards apart; a name too long in each half
        let long = String(repeating: "n", count: 240)
        var files = ["a/x.txt": "1\n", "z/x.txt": "2\n", "b/\(long).txt": "3\n", "y/\(long)-2.txt": "4\n"]
        for index in 0..<150 { files[String(format: "m/f%03d.txt", index)] = "\(index)\n" }
        let harness = try SessionHarness(files: files)
        try harness.directory.write("job.yaml", Self.manifest(layout: "{stem}.{ext}"))

        // When
        let clash = await #expect(throws: PlanError.self) { try await harness.manifest().planInputs(remote: harness.remoteInputs) }
        try harness.directory.write("job.yaml", Self.manifest(layout: "{relpath}-thumbnail-of-the-night.{ext}"))
        let planned = try await harness.manifest().planInputs(remote: harness.remoteInputs)

        // Then
        #expect(clash == .sharedOutput(output: "\(harness.outputDirectory)/x.txt", first: "a/x.txt", second: "z/x.txt", others: 0))
        #expect(planned.plan.shards.count == 154 && planned.warnings.count == 1)
        #expect(planned.warnings.first?.path == harness.directory.file("in/b/\(long).txt")
                && planned.warnings.first?.problem.contains("(and 1 more such input)") == true, "\(planned.warnings)")
    }

    /// A manifest of every `.txt` under `in/`, a file a shard, outputs at `layout`.
    private static func manifest(layout: String) -> String {
        """
        version: 1
        name: session
        endpoint: \(SessionHarness.endpoint)
        auth: {key: k}
        signer: {kind: local, secret_env: TL_SECRET}
        inputs: {include: "in/**/*.txt", base: in}
        template: {id: copy}
        shards: {files: 1}
        output: {layout: "\(layout)"}
        state_dir: state

        """
    }
}
