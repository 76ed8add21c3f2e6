import AssemblyLine
import Foundation
import SQLiteLedger
import TestSupport
import Testing

/// A manifest's identity is what it does (its name, `output.dir` and layout), not where its file lies (issue 33, item 1).
@Suite struct ManifestJobTests {
    /// `job.yaml` copied to `etc/job.yaml` with its paths adjusted to the new place, and `settings` added.
    static func copy(_ harness: SessionHarness, to file: String = "etc/job.yaml", include: String = "../in/*.txt",
                     output: String = "../state/output", settings: String = "") throws {
        try harness.directory.write(file, """
            version: 1
            name: session
            endpoint: \(SessionHarness.endpoint)
            auth: {key: k}
            signer: {kind: local, secret_env: TL_SECRET}
            inputs: {include: "\(include)", base: ../in}
            template: {id: copy}
            shards: {files: 2}
            retry: {attempts: 3, base_delay: 1s, max_delay: 4s}
            output: {dir: "\(output)", layout: "{relpath}.{ext}"}
            state_dir: ../state
            \(settings)

            """)
    }

    @Test func aMovedOrCopiedManifestOfTheSameJobSkipsWhatWasDone() async throws {
        let harness = try SessionHarness()
        let first = try await harness.run()
        #expect(first.summary.filesByState[.done] == 3)
        try Self.copy(harness)
        try await harness.clock.sleep(for: .seconds(60))

        let forecast = try await harness.session(manifest: "etc/job.yaml").forecast(force: false, checksums: false)
        let moved = try await harness.run(manifest: "etc/job.yaml")

        #expect(try harness.manifest(at: "etc/job.yaml").job.key == harness.manifest().job.key, "same name, outputs and layout: one job")
        #expect(forecast.incremental.skippedCount == 3 && forecast.incremental.plan.shards.isEmpty, "nothing would be sent again")
        #expect(moved.state == .finished && moved.summary.filesByState[.skipped] == 3 && harness.service.created.count == 2)
        let locks = try FileManager.default.contentsOfDirectory(atPath: "\(harness.stateDirectory)/locks")
        #expect(locks.count == 1, "one job, one lock, wherever its manifest lies: \(locks)")
    }

    @Test func aCopyOfTheNameWithOtherOutputsOrInputsIsRefusedUnlessItAdoptsTheJob() async throws {
        let harness = try SessionHarness()
        _ = try await harness.run()
        try Self.copy(harness, to: "elsewhere/job.yaml", output: "../other-output")
        try Self.copy(harness, to: "narrower/job.yaml", include: "../in/a*.txt")
        let original = try harness.manifest().file

        for file in ["elsewhere/job.yaml", "narrower/job.yaml"] {
            let copy = harness.directory.file(file)
            await #expect(throws: RunSessionError.nameTaken("session", by: original, manifest: copy)) {
                _ = try await harness.session(manifest: file).forecast(force: false, checksums: false)
            }
            await #expect(throws: RunSessionError.nameTaken("session", by: original, manifest: copy)) { _ = try await harness.run(manifest: file) }
        }
        #expect(harness.service.created.count == 2, "a refused run sends nothing")

        try await harness.clock.sleep(for: .seconds(60))
        let adopted = try await harness.run(manifest: "narrower/job.yaml", adopts: true)
        #expect(adopted.state == .finished && adopted.summary.filesByState[.skipped] == 1, "it took the job over: a.txt was done")
        try await harness.clock.sleep(for: .seconds(60))
        await #expect(throws: RunSessionError.nameTaken("session", by: harness.directory.file("narrower/job.yaml"), manifest: original),
                      "now the original is the stranger of its name") {
            _ = try await harness.run()
        }
    }

    @Test func aLedgerFromBeforeJobsIsTakenOverByItsManifestsFirstRun() async throws {
        let harness = try SessionHarness()
        _ = try await harness.run()
        // The rows as a ledger before version 13 held them: keyed by the manifest's path.
        let manifest = try harness.manifest()
        let connection = try SQLiteConnection(path: SQLiteLedger.path(inStateDirectory: harness.stateDirectory), mode: .readWrite)
        for table in ["runs", "done_sets", "bad_files"] {
            try connection.execute("UPDATE \(table) SET job_key = ?", [.text(ManifestJob.legacyKey(of: manifest.file))])
        }
        try connection.execute("UPDATE runs SET inputs_key = ''")

        let forecast = try await harness.session().forecast(force: false, checksums: false)
        let next = try await harness.run()
        let runs = try await harness.ledger { try await $0.recentRuns(limit: 9, matching: RunFilter(job: manifest.job)) }

        #expect(forecast.incremental.skippedCount == 3, "plan reads the rows of the manifest's path before they are taken")
        #expect(next.summary.filesByState[.skipped] == 3 && harness.service.created.count == 2)
        #expect(runs.count == 2 && runs.allSatisfy { $0.jobKey == manifest.job.key && $0.inputsKey == manifest.inputsKey }, "both runs are the job's now")
    }

    @Test func aRunOfTheJobTakesOverARunWhoseProcessIsGoneAndSendsItsFiles() async throws {
        let harness = try SessionHarness()
        let manifest = try harness.manifest()
        let killed = try #require(RunID("20990101T000000Z-0c0c0c"))
        _ = try await SQLiteLedger.with(stateDirectory: harness.stateDirectory) { ledger in
            try await ledger.createRun(NewRun(id: killed, manifestPath: manifest.file, manifestName: manifest.name,
                                              recipeFingerprint: manifest.recipe.fingerprint, plan: try await manifest.planInputs(remote: harness.remoteInputs).plan, createdAt: harness.clock.now,
                                              job: manifest.job, inputsKey: manifest.inputsKey))
        }

        let next = try await harness.run()

        let record = try await harness.ledger { try await $0.run(killed).record }
        #expect(record.state == .superseded && record.supersededBy == next.runID, "the lock was free: its process is gone, and this run took it over")
        #expect(next.summary.filesByState[.done] == 3, "it had sent nothing: every file is this run's")
    }
}
