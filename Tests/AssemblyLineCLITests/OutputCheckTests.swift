import AssemblyLine
import Foundation
import SQLiteLedger
import TestSupport
import Testing

/// The incremental skip trusts the disk, not only the ledger; `check` lists what the disk lost.
@Suite(.timeLimit(.minutes(3))) struct OutputCheckTests {
    @Test func missingOrChangedOutputsAreListedByCheckAndMadeAgainByTheNextRun() async throws {
        let directory = try await RunCommandTests.job()
        let first = try await BinaryRunner.run(["run", "job/m.yaml"], in: directory.url)
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

        let bySize = try await BinaryRunner.run(["check", runID, "--state-dir", "job/state"], in: directory.url)
        #expect(bySize.status == 1, "\(bySize.stderr)")
        #expect(bySize.stdout.contains("missing  \(deleted.path)  landscapes/sample-00.png  not on disk"), "\(bySize.stdout)")
        #expect(bySize.stdout.contains("changed  \(truncated.path)"))
        #expect(bySize.stdout.hasSuffix("checked 12 outputs: 1 missing, 1 changed\n"), "\(bySize.stdout)")
        let byManifest = try await BinaryRunner.run(["check", "job/m.yaml", "--checksum"], in: directory.url)
        #expect(byManifest.status == 1)
        #expect(byManifest.stdout.contains("changed  \(altered.path)") && byManifest.stdout.contains("MD5 "), "\(byManifest.stdout)")
        #expect(byManifest.stdout.hasSuffix("checked 12 outputs with MD5s: 1 missing, 2 changed\n"), "\(byManifest.stdout)")

        let plan = try await BinaryRunner.run(["plan", "job/m.yaml"], in: directory.url)
        #expect(plan.status == 0 && plan.stdout.hasPrefix("plan of 'thumbs': 2 files, "), "\(plan.stdout)")
        #expect(plan.stdout.contains(" in 1 shard; 10 skipped\n"))
        #expect(plan.stdout.contains("skipped: 10 files an earlier run did it; its outputs are in place (sizes checked); --force runs them"))
        #expect(plan.stdout.contains("again: 2 files done before whose outputs are missing or changed\n"
            + "  landscapes/sample-00.png: \(deleted.path) not on disk\n  portraits/sample-01.png: \(truncated.path) 100 bytes, recorded "))
        let dryRun = try await BinaryRunner.run(["run", "job/m.yaml", "--dry-run"], in: directory.url)
        #expect(dryRun.status == 0 && dryRun.stdout == plan.stdout, "\(dryRun.stdout)")
        let runs = try await BinaryRunner.run(["runs", "--state-dir", "job/state"], in: directory.url)
        #expect(runs.stdout.split(separator: "\n").count == 2, "a dry run records no run: \(runs.stdout)")
        let planJSON = try await BinaryRunner.run(["plan", "job/m.yaml", "--json", "--checksum"], in: directory.url)
        #expect(planJSON.stdout.contains("\"again\":[{\"outputs\":[{\"detail\":\"not on disk\""), "\(planJSON.stdout)")
        #expect(planJSON.stdout.components(separatedBy: "\"reason\":").count == 10, "9 skipped with MD5s checked")

        let second = try await BinaryRunner.run(["run", "job/m.yaml"], in: directory.url)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("skipped 10 files an earlier run already did"), "\(second.stdout)")
        #expect(second.stdout.contains("running 2 files again whose outputs are missing or changed"))
        #expect(FileManager.default.fileExists(atPath: deleted.path))
        let third = try await BinaryRunner.run(["run", "job/m.yaml", "--checksum"], in: directory.url)
        #expect(third.status == 0 && third.stdout.contains("files 1 done, 0 failed, 11 skipped"), "\(third.stdout)")

        let clean = try await BinaryRunner.run(["check", "job/m.yaml", "--checksum"], in: directory.url)
        #expect(clean.status == 0 && clean.stdout == "checked 12 outputs with MD5s: 0 missing, 0 changed\n", "\(clean.stdout)")
    }

    /// An input edited and made again: `check MANIFEST` compares its new outputs only (issue 33: "changed" after every edit
    /// before). An input deleted: its outputs are orphaned, listed without failing, and `prune --orphans` removes them.
    @Test func checkComparesEachInputAsItIsNowAndPruneOrphansRemovesTheOutputsOfInputsGone() async throws {
        let directory = try await RunCommandTests.job()
        #expect(try await BinaryRunner.run(["run", "job/m.yaml", "-q"], in: directory.url).status == 0)
        let inputs = directory.url.appendingPathComponent("job/in")
        let output = directory.url.appendingPathComponent("job/state/output/resize")
        try FileManager.default.removeItem(at: inputs.appendingPathComponent("landscapes/sample-00.png"))
        try FileManager.default.copyItem(at: inputs.appendingPathComponent("landscapes/sample-03.png"), to: inputs.appendingPathComponent("landscapes/sample-00.png"))
        let edited = try await BinaryRunner.run(["run", "job/m.yaml"], in: directory.url)
        #expect(edited.status == 0 && edited.stdout.contains("files 1 done, 0 failed, 11 skipped"), "\(edited.stdout)")

        let ledger = try SQLiteConnection(path: SQLiteLedger.path(inStateDirectory: directory.url.appendingPathComponent("job/state").path), mode: .readOnly)
        let versions = try ledger.rows("SELECT count(*) FROM done_files WHERE path LIKE '%/landscapes/sample-00.png'") { $0.integer(0) ?? 0 }
        #expect(versions == [1], "the done index keeps the version done last: \(versions)")
        let afterEdit = try await BinaryRunner.run(["check", "job/m.yaml"], in: directory.url)
        #expect(afterEdit.status == 0 && afterEdit.stdout == "checked 12 outputs: 0 missing, 0 changed\n", "the edited input's new outputs only: \(afterEdit.stdout)")

        let gone = output.appendingPathComponent("portraits/sample-01.jpg")
        let goneAndChanged = output.appendingPathComponent("squares/sample-02.jpg")
        for name in ["portraits/sample-01.png", "squares/sample-02.png"] { try FileManager.default.removeItem(at: inputs.appendingPathComponent(name)) }
        try Data("edited by hand".utf8).write(to: goneAndChanged)
        let orphaned = try await BinaryRunner.run(["check", "job/m.yaml"], in: directory.url)
        #expect(orphaned.status == 0, "orphans do not fail a check: \(orphaned.stdout)\(orphaned.stderr)")
        #expect(orphaned.stdout.contains("orphaned  \(gone.path)") && orphaned.stdout.contains("its input is gone"), "\(orphaned.stdout)")
        #expect(orphaned.stdout.hasSuffix("checked 10 outputs: 0 missing, 0 changed; 2 done files whose input is gone, 2 outputs orphaned "
            + "(prune --orphans --manifest MANIFEST removes them)\n"), "\(orphaned.stdout)")

        let dry = try await BinaryRunner.run(["prune", "--orphans", "--manifest", "job/m.yaml", "--dry-run"], in: directory.url)
        #expect(dry.status == 0 && dry.stdout.contains("would remove \(gone.path)\n") && dry.stdout.contains("left \(goneAndChanged.path): "),
                "\(dry.stdout)\(dry.stderr)")
        #expect(FileManager.default.fileExists(atPath: gone.path), "a dry run removes nothing")

        // An inputs directory that is gone (an unmounted share) is not every input deleted.
        try FileManager.default.moveItem(at: inputs, to: directory.url.appendingPathComponent("job/elsewhere"))
        let unmounted = try await BinaryRunner.run(["prune", "--orphans", "--manifest", "job/m.yaml"], in: directory.url)
        #expect(unmounted.status == 66 && FileManager.default.fileExists(atPath: gone.path), "\(unmounted.stdout)\(unmounted.stderr)")
        try FileManager.default.moveItem(at: directory.url.appendingPathComponent("job/elsewhere"), to: inputs)

        let pruned = try await BinaryRunner.run(["prune", "--orphans", "--manifest", "job/m.yaml"], in: directory.url)
        #expect(pruned.status == 0 && pruned.stdout.hasSuffix("removed 1 orphaned output and forgot 2 done files whose input is gone\n"),
                "\(pruned.stdout)\(pruned.stderr)")
        #expect(!FileManager.default.fileExists(atPath: gone.path) && FileManager.default.fileExists(atPath: goneAndChanged.path),
                "only what AssemblyLine made, as it made it, goes")
        let clean = try await BinaryRunner.run(["check", "job/m.yaml"], in: directory.url)
        #expect(clean.status == 0 && clean.stdout == "checked 10 outputs: 0 missing, 0 changed\n", "\(clean.stdout)")
    }
}
