import AssemblyLine
import Foundation
import TestSupport
import Testing

/// The incremental skip trusts the disk, not only the ledger; `check` lists what the disk lost.
@Suite struct OutputCheckTests {
    @Test func missingOrChangedOutputsAreListedByCheckAndMadeAgainByTheNextRun() throws {
        let directory = try RunCommandTests.job()
        let first = try BinaryRunner.run(["run", "job/m.yaml", "--quiet"], in: directory.url)
        #expect(first.status == 0, "\(first.stderr)")
        let runID = try #require(first.stdout.split(separator: "\n").first.map(String.init))
        let output = directory.url.appendingPathComponent("job/state/output/resize")
        let deleted = output.appendingPathComponent("landscapes/sample-00.jpg")
        let truncated = output.appendingPathComponent("portraits/sample-01.jpg")
        let altered = output.appendingPathComponent("squares/sample-02.jpg")
        try FileManager.default.removeItem(at: deleted)
        try Data(try Data(contentsOf: truncated).prefix(100)).write(to: truncated)
        var bytes = try [UInt8](Data(contentsOf: altered))
        bytes[bytes.count / 2] ^= 0xFF
        try Data(bytes).write(to: altered)

        let bySize = try BinaryRunner.run(["check", runID, "--state-dir", "job/state"], in: directory.url)
        #expect(bySize.status == 1, "\(bySize.stderr)")
        #expect(bySize.stdout.contains("missing  \(deleted.path)  landscapes/sample-00.png  not on disk"), "\(bySize.stdout)")
        #expect(bySize.stdout.contains("changed  \(truncated.path)"))
        #expect(bySize.stdout.hasSuffix("checked 12 outputs: 1 missing, 1 changed\n"), "\(bySize.stdout)")
        let byManifest = try BinaryRunner.run(["check", "job/m.yaml", "--checksum"], in: directory.url)
        #expect(byManifest.status == 1)
        #expect(byManifest.stdout.contains("changed  \(altered.path)") && byManifest.stdout.contains("MD5 "), "\(byManifest.stdout)")
        #expect(byManifest.stdout.hasSuffix("checked 12 outputs with MD5s: 1 missing, 2 changed\n"), "\(byManifest.stdout)")

        let second = try BinaryRunner.run(["run", "job/m.yaml"], in: directory.url)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("skipped 10 files an earlier run already did"), "\(second.stdout)")
        #expect(second.stdout.contains("running 2 files again whose outputs are missing or changed"))
        #expect(FileManager.default.fileExists(atPath: deleted.path))
        let third = try BinaryRunner.run(["run", "job/m.yaml", "--checksum", "--quiet"], in: directory.url)
        #expect(third.status == 0 && third.stdout.contains("files 1 done, 0 failed, 11 skipped"), "\(third.stdout)")

        let clean = try BinaryRunner.run(["check", "job/m.yaml", "--checksum"], in: directory.url)
        #expect(clean.status == 0 && clean.stdout == "checked 12 outputs with MD5s: 0 missing, 0 changed\n", "\(clean.stdout)")
    }
}
