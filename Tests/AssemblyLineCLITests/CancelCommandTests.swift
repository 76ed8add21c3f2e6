import AssemblyLine
import Foundation
import TestSupport
import Testing

/// `cancel` stops a live run through its lock holder and cancels the Assemblies it left running.
@Suite(.timeLimit(.minutes(3))) struct CancelCommandTests {
    @Test func aLiveRunIsStoppedItsAssembliesCancelledAndTheRunEndsCanceled() async throws {
        let directory = try await RunCommandTests.job()
        let secret = "secret-\(UUID().uuidString)"
        // Uploads never get through (every tus PATCH is a 503, tried again and again): the Assemblies stay uploading.
        try directory.write("faults.yaml", "seed: 3\nroutes:\n  tus_patch: {fail: 1, statuses: [503]}\n")
        let serve = try FaultSurvivalTests.service(["--faults", "faults.yaml", "--status-per-second", "0"], in: directory, secret: secret)
        defer { serve.stop() }
        let endpoint = try await serve.baseURL()
        try directory.write("job/slow.yaml", FaultSurvivalTests.manifest(endpoint: endpoint, settings: "shards: {files: 4}\nconcurrency: {assemblies: 2}\nupload: {mode: tus}\nretry: {attempts: 100, base_delay: 100ms, max_delay: 300ms}"))
        let run = try ChildServer(["run", "job/slow.yaml"], in: directory.url, name: "run", environment: ["TL_SECRET": secret])
        let listing = AssemblyListing(baseURL: endpoint, key: FaultSurvivalTests.key, secret: secret)
        var created: [AssemblyListing.Item] = []
        for _ in 0..<200 where created.isEmpty {
            try await Task.sleep(for: .milliseconds(50))
            created = (try? await listing.items()) ?? []
        }
        try #require(!created.isEmpty, "the run created no Assembly: \(run.errors)")
        let runID = try #require(run.output.split(separator: "\n").first.map(String.init))

        let cancel = try await BinaryRunner.run(["cancel", runID, "--state-dir", "job/state"], in: directory.url, environment: ["TL_SECRET": secret])

        #expect(cancel.status == 0, "\(cancel.stdout)\(cancel.stderr)")
        #expect(cancel.stdout.contains("run \(runID): stopping its process "), "\(cancel.stdout)")
        #expect(cancel.stdout.contains("run \(runID) canceled: "), "\(cancel.stdout)")
        #expect(run.stop() == 3, "the run stopped in order, canceled: \(run.errors)")
        #expect(run.output.contains("run \(runID) canceled: "), "one word for it: \(run.output)")
        let states = try await listing.items().map(\.ok)
        #expect(states.contains("ASSEMBLY_CANCELED"), "\(states)")
        #expect(!states.contains("ASSEMBLY_EXECUTING") && !states.contains("ASSEMBLY_UPLOADING"), "\(states)")
        let runs = try await BinaryRunner.run(["runs", "--state-dir", "job/state", "--state", "canceled"], in: directory.url)
        #expect(runs.stdout.contains(runID), "\(runs.stdout)")
        let resume = try await BinaryRunner.run(["resume", runID, "--state-dir", "job/state"], in: directory.url, environment: ["TL_SECRET": secret])
        #expect(resume.status == 3 && resume.stderr == "Error: run \(runID) was canceled, which is final; start a new run instead\n",
                "\(resume.stderr)")
        let again = try await BinaryRunner.run(["cancel", runID, "--state-dir", "job/state"], in: directory.url)
        #expect(again.status == 0 && again.stdout == "run \(runID) is canceled; nothing to cancel\n")
    }
}
