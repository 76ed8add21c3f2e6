import AssemblyLine
import Foundation
import SQLiteLedger
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The ordinary life of a nightly job, as built binaries (issue 33): a killed run taken over, a full output disk, a broken recipe.
@Suite(.timeLimit(.minutes(3))) struct OrdinaryNightTests {
    @Test(arguments: PipelineCheckpoint.allCases)
    func aRunKilledAtACheckpointIsTakenOverByTheNextRunWithEachFileMadeOnce(point: PipelineCheckpoint) async throws {
        let directory = try await RunCommandTests.job()
        let killed = try await BinaryRunner.run(["run", "job/m.yaml"], in: directory.url,
                                                environment: ["ASSEMBLYLINE_KILL_AT": "\(point.rawValue):\(CrashResumeTests.passage)"])
        try #require(killed.wasKilled(by: SIGKILL), "\(point): \(killed.reason) \(killed.status): \(killed.stderr)")
        let first = try #require(killed.stdout.split(separator: "\n").first.map(String.init))

        let listed = try await BinaryRunner.run(["runs", "--state-dir", "job/state", "--json"], in: directory.url)
        #expect(listed.stdout.contains(#""state":"interrupted""#) && !listed.stdout.contains(#""state":"running""#),
                "\(point): its process is gone: interrupted, not running for good: \(listed.stdout)")
        let next = try await BinaryRunner.run(["run", "job/m.yaml"], in: directory.url)
        try #require(next.status == 0, "\(point): \(next.stdout)\(next.stderr)")
        let second = try #require(next.stdout.split(separator: "\n").first.map(String.init))
        #expect(next.stdout.contains("took over run \(first), whose process was gone"), "\(point): \(next.stdout)")

        let state = directory.url.appendingPathComponent("job/state")
        try CrashResumeTests.checkOutputs(in: state.appendingPathComponent("output/resize"), point: point)
        let ledger = try SQLiteConnection(path: SQLiteLedger.path(inStateDirectory: state.path), mode: .readOnly)
        let runs = try ledger.rows("SELECT id, state, coalesce(superseded_by, '') FROM runs ORDER BY created_at") {
            "\($0.text(0) ?? "") \($0.text(1) ?? "") \($0.text(2) ?? "")"
        }
        #expect(runs == ["\(first) superseded \(second)", "\(second) finished "], "\(point): \(runs)")
        let done = try ledger.rows("SELECT relative_path FROM files WHERE state = 'done'") { $0.text(0) ?? "" }
        #expect(done.count == CrashResumeTests.fileCount && Set(done).count == CrashResumeTests.fileCount, "\(point): each file made once: \(done)")
        // Every Assembly that completed at the service is one whose results a run downloaded: none was made twice.
        let downloaded = Set(try ledger.rows("""
            SELECT a.assembly_id FROM attempts a WHERE a.outcome = 'completed' AND a.downloaded_at IS NOT NULL
            """) { $0.text(0) ?? "" })
        let service = try await ServiceAssemblyList(dataDirectory: state.appendingPathComponent("embedded-service").path, in: directory.url)
        let completed = Set(service.items.filter { $0.ok == "ASSEMBLY_COMPLETED" }.map(\.id))
        #expect(completed == downloaded, "\(point): completed at the service \(completed.sorted()), downloaded \(downloaded.sorted())")

        let resumed = try await BinaryRunner.run(["resume", first, "--state-dir", "job/state"], in: directory.url)
        #expect(resumed.status == 0 && resumed.stdout == "run \(first) was taken over by run \(second); nothing to resume\n", "\(point): \(resumed.stdout)")
    }

    @Test func aFullOutputDiskStopsTheCreationsExits73AndAResumeAfterSpaceIsFreedFinishes() async throws {
        let directory = try await RunCommandTests.job()
        let output = directory.url.appendingPathComponent("out").path
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        try Self.mount(output, size: "40k")
        defer { _ = Self.unmount(output) }
        let manifest = directory.url.appendingPathComponent("job/m.yaml")
        try (String(contentsOf: manifest, encoding: .utf8).replacingOccurrences(of: "shards: {files: 5}", with: "shards: {files: 1}")
            + "output: {dir: ../out}\nlimits: {min_free_space: 0}\n").write(to: manifest, atomically: true, encoding: .utf8)

        let full = try await BinaryRunner.run(["run", "job/m.yaml"], in: directory.url)

        #expect(full.status == 73, "an output that cannot be written: \(full.stdout)\(full.stderr)")
        #expect(full.stderr.contains("stopped creating Assemblies") && (full.stderr.contains("(OUTPUT_NOT_WRITABLE)") || full.stderr.contains("(OUTPUT_SPACE_LOW)")), "\(full.stderr)")
        let runID = try #require(full.stdout.split(separator: "\n").first.map(String.init))
        let state = directory.url.appendingPathComponent("job/state")
        let ledger = try SQLiteConnection(path: SQLiteLedger.path(inStateDirectory: state.path), mode: .readOnly)
        let attempted = try ledger.rows("SELECT count(DISTINCT shard_index) FROM attempts WHERE run_id = ?", [.text(runID)]) { $0.integer(0) ?? 0 }
        #expect((attempted.first ?? 12) < 12, "not one Assembly a shard after the disk was full: \(attempted)")
        let before = try ledger.rows("SELECT count(*) FROM attempts WHERE run_id = ? AND created_at IS NOT NULL", [.text(runID)]) { $0.integer(0) ?? 0 }

        try Self.mount(output, size: "100m", options: "remount,")
        let resumed = try await BinaryRunner.run(["resume", runID, "--state-dir", "job/state"], in: directory.url)
        #expect(resumed.status == 0 && resumed.stdout.contains("files 12 done"), "\(resumed.stdout)\(resumed.stderr)")
        let reopened = try ledger.rows("""
            SELECT count(*) FROM attempts a WHERE a.run_id = ? AND a.created_at IS NOT NULL
            AND a.shard_index IN (SELECT shard_index FROM attempts WHERE run_id = ? AND created_at IS NOT NULL GROUP BY shard_index HAVING count(*) > 1)
            """, [.text(runID), .text(runID)]) { $0.integer(0) ?? 0 }
        #expect(reopened == [0], "a shard whose download met the full disk kept its Assembly: \(before) before, \(reopened) made twice")
    }

    @Test func aRecipeThatFailsEveryAssemblyTripsTheBreakerAndNoBreakerTriesEveryShard() async throws {
        let directory = try await RunCommandTests.job()
        let secret = "secret-\(UUID().uuidString)"
        try directory.write("faults.yaml", "seed: 1\nassemblies: {fail: 1.0, error: INVALID_STEP_PARAMETER}\n")
        let serve = try FaultSurvivalTests.service(["--faults", "faults.yaml"], in: directory, secret: secret)
        defer { serve.stop() }
        let endpoint = try await serve.baseURL()
        try directory.write("job/broken.yaml", FaultSurvivalTests.manifest(endpoint: endpoint, settings: "shards: {files: 1}\nconcurrency: {assemblies: 2}"))
        let environment = ["TL_SECRET": secret]
        let listing = AssemblyListing(baseURL: endpoint, key: FaultSurvivalTests.key, secret: secret)

        let broken = try await BinaryRunner.run(["run", "job/broken.yaml"], in: directory.url, environment: environment)

        #expect(broken.status == 1, "\(broken.stdout)\(broken.stderr)")
        #expect(broken.stderr.contains("stopped creating Assemblies: its first 5 shards to end all failed with INVALID_STEP_PARAMETER")
                    && broken.stderr.contains("--no-breaker"), "names the code and the way out: \(broken.stderr)")
        let made = try await listing.items().count
        #expect(made >= 5 && made < 12, "not an Assembly for every shard: \(made)")

        let all = try await BinaryRunner.run(["run", "job/broken.yaml", "--force", "--no-breaker"], in: directory.url, environment: environment)
        #expect(all.status == 1 && !all.stderr.contains("stopped creating"), "\(all.stderr)")
        #expect(try await listing.items().count == made + 12, "--no-breaker: one for every shard")
    }

    /// The state directory fills while the run polls its Assemblies: the next ledger write fails, the run ends at once with
    /// 74 (nothing more can be recorded), and a resume after space is freed finishes the night with no Assembly made twice.
    @Test func aFullStateDirectoryEndsTheRunWith74AndAResumeAfterSpaceIsFreedFinishes() async throws {
        let directory = try await RunCommandTests.job()
        let secret = "secret-\(UUID().uuidString)"
        try directory.write("faults.yaml", "seed: 1\nroutes:\n  status: {slow: 1.0, delay: 2s}\n")
        let serve = try FaultSurvivalTests.service(["--faults", "faults.yaml"], in: directory, secret: secret)
        defer { serve.stop() }
        let endpoint = try await serve.baseURL()
        let state = directory.url.appendingPathComponent("job/state").path
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        try Self.mount(state, size: "8m")
        defer { _ = Self.unmount(state) }
        // Status requests, not the change stream, so that each shard waits on its late answers.
        try directory.write("job/slow.yaml", FaultSurvivalTests.manifest(endpoint: endpoint, settings: "shards: {files: 3}\nconcurrency: {assemblies: 2}\noutput: {dir: ../out}")
            .replacingOccurrences(of: "poll: {", with: "poll: {stream: false, "))
        let environment = ["TL_SECRET": secret]
        let listing = AssemblyListing(baseURL: endpoint, key: FaultSurvivalTests.key, secret: secret)

        async let night = BinaryRunner.run(["run", "job/slow.yaml"], in: directory.url, environment: environment)
        // Once the service holds an Assembly the run waits on (each status answers late), the disk fills: watched from a
        // thread of its own, since the cooperative pool may be busy with other tests' children for longer than the run.
        let filler = "\(state)/filler"
        await Self.fill(filler, once: directory.url.appendingPathComponent("service/assemblies").path)
        let full = try await night

        #expect(full.status == 74, "a state directory that cannot be written: \(full.stdout)\(full.stderr)")
        #expect(full.stderr.contains("ledger") && full.stderr.contains(state) && full.stderr.contains("free space on the state directory's file system"),
                "names the ledger's place and the way out: \(full.stderr)")
        let runID = try #require(full.stdout.split(separator: "\n").first.map(String.init))
        try FileManager.default.removeItem(atPath: filler)
        let resumed = try await BinaryRunner.run(["resume", runID, "--state-dir", "job/state"], in: directory.url, environment: environment)
        #expect(resumed.status == 0 && resumed.stdout.contains("files 12 done"), "\(resumed.stdout)\(resumed.stderr)")
        let completed = try await listing.items().filter(\.isCompleted).count
        #expect(completed == 4, "one Assembly a shard, none made twice: \(completed)")
    }

    /// Writes `filler` until its file system is full, as soon as the folder `watched` holds an entry (or after 60 s).
    static func fill(_ filler: String, once watched: String) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread {
                let deadline = Date(timeIntervalSinceNow: 60)
                while ((try? FileManager.default.contentsOfDirectory(atPath: watched)) ?? []).isEmpty, Date() < deadline {
                    usleep(10_000)
                }
                if FileManager.default.createFile(atPath: filler, contents: nil), let handle = FileHandle(forWritingAtPath: filler) {
                    let block = Data(count: 64 * 1024)
                    while (try? handle.write(contentsOf: block)) != nil {}
                    try? handle.close()
                }
                done.resume()
            }.start()
        }
    }

    /// Mounts a tmpfs of `size` on `path`, or gives the one there that size with `options: "remount,"` (the tests run as root, as CI does).
    static func mount(_ path: String, size: String, options: String = "") throws {
        let mount = Process()
        mount.executableURL = URL(fileURLWithPath: "/bin/mount")
        mount.arguments = ["-t", "tmpfs", "-o", "\(options)size=\(size)", "tmpfs", path]
        try ChildLaunch.run(mount)
        mount.waitUntilExit()
        try #require(mount.terminationStatus == 0, "mount a tmpfs on \(path)")
    }

    /// Unmounts `path`; whether it went.
    static func unmount(_ path: String) -> Bool {
        umount2(path, Int32(MNT_DETACH)) == 0
    }
}
