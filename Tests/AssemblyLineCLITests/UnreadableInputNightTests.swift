import Foundation
import TestSupport
import Testing

/// Inputs the night's user may not read, the night after: only the files a night sends are asked whether they can be.
@Suite(.timeLimit(.minutes(3))) struct UnreadableInputNightTests {
    @Test func aDoneFileMadeUnreadableIsSkippedUnwarnedAndAnAddedUnreadableOneIsWarnedOfAndFails() async throws {
        // Given: a job done, then one of its files made unreadable and an unreadable one added
        let directory = try await RunCommandTests.job()
        let user = try await NightUser.owning(directory)
        let first = try await user.run(["run", "job/m.yaml"])
        try #require(first.status == 0, "\(first.stderr)")
        let inputs = directory.url.appendingPathComponent("job/in/landscapes")
        try FileManager.default.copyItem(at: inputs.appendingPathComponent("sample-03.png"), to: inputs.appendingPathComponent("added.png"))
        for name in ["sample-00.png", "added.png"] {
            try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: inputs.appendingPathComponent(name).path)
        }

        // When
        let plan = try await user.run(["plan", "job/m.yaml"])
        let night = try await user.run(["run", "job/m.yaml"])
        let forced = try await user.run(["plan", "job/m.yaml", "--force"])

        // Then: the done file is skipped without a word; the added one is warned of and fails (its shard, of it alone)
        for outcome in [plan, night] {
            #expect(outcome.stderr.contains("added.png: cannot be read: Permission denied; a run fails it alone"), "\(outcome.stderr)")
            #expect(!outcome.stderr.contains("sample-00.png"), "\(outcome.stderr)")
        }
        #expect(plan.status == 0 && plan.stdout.contains(": 1 file, ") && plan.stdout.contains("; 12 skipped"), "\(plan.stdout)")
        #expect(night.status == 1 && night.stderr.contains("failed (INPUT_UNREADABLE: ")
                && night.stderr.contains("landscapes/added.png cannot be read: Permission denied)"), "\(night.stderr)")
        #expect(night.stdout.contains("files 0 done, 1 failed, 12 skipped, 0 pending"), "\(night.stdout)")
        #expect(forced.stderr.contains("sample-00.png: cannot be read: Permission denied"), "--force sends it: \(forced.stderr)")
    }
}
