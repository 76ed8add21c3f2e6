import AssemblyLine
import ConfigFormat
import Foundation
import SQLiteLedger
import TestSupport
import Testing

/// `runs` and `report` read a real ledger file written through the ledger's own API.
@Suite(.timeLimit(.minutes(3))) struct LedgerCommandsTests {
    static let start = Date(timeIntervalSince1970: 1_796_072_701)
    static let older = RunID("20261130T210501Z-aaaaaa")!
    static let newer = RunID("20261130T220000Z-bbbbbb")!

    /// A state directory `runs/` with two runs: an older finished one and a newer one with a failed shard.
    static func stateDirectory() async throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        let ledger = try await SQLiteLedger.open(stateDirectory: directory.url.appendingPathComponent("runs").path)
        let files = (0..<3).map { PlannedFile(path: "/in/p\($0).jpg", relativePath: "p\($0).jpg", size: 1_000, modifiedNanoseconds: 0) }
        let plan = Plan(shards: [Shard(index: 0, files: Array(files[0..<2])), Shard(index: 1, files: [files[2]])])
        for (id, offset) in [(older, 0.0), (newer, 3_299.0)] {
            _ = try await ledger.createRun(NewRun(id: id, manifestPath: "/jobs/nightly.yaml", manifestName: "nightly",
                                                  recipeFingerprint: "r", plan: plan, createdAt: start + offset))
        }
        let reason = FailureReason(code: "IMAGE_RESIZE_ERROR", message: "p2.jpg could not be decoded", isRetryable: false)
        try await ledger.transition(newer, shard: 1, .failed(reason), at: start + 3_300)
        try await ledger.updateRunState(newer, to: .failed, at: start + 3_301)
        await ledger.close()
        return directory
    }

    @Test func runsListsNewestFirst() async throws {
        let directory = try await Self.stateDirectory()
        let outcome = try await BinaryRunner.run(["runs"], in: directory.url)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout == """
            RUN                      STATE        SHARDS  FILES  SKIPPED    BYTES  STARTED               NAME
            20261130T220000Z-bbbbbb  failed            2      3        0  2.9 KiB  2026-11-30 22:00:00Z  nightly
            20261130T210501Z-aaaaaa  interrupted       2      3        0  2.9 KiB  2026-11-30 21:05:01Z  nightly

            """)
    }

    @Test func runsHonoursLimitAndJSON() async throws {
        let directory = try await Self.stateDirectory()
        let outcome = try await BinaryRunner.run(["runs", "--limit=1", "--json", "--state-dir", "runs"], in: directory.url)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let runs = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [[String: Any]])
        #expect(runs.map { $0["id"] as? String } == [Self.newer.rawValue])
        #expect(runs.first?["state"] as? String == "failed")
    }

    @Test func runsAndLatestOfAManifestAreItsOwnAmongOthersSharingTheStateDirectory() async throws {
        let directory = try await RunCommandTests.job()
        let manifest = try String(contentsOf: directory.url.appendingPathComponent("job/m.yaml"), encoding: .utf8)
        try directory.write("job/other.yaml", manifest.replacingOccurrences(of: "name: thumbs", with: "name: other")
            .replacingOccurrences(of: "width: 160", with: "width: 80"))
        let mine = try await BinaryRunner.run(["run", "job/m.yaml"], in: directory.url)
        let theirs = try await BinaryRunner.run(["run", "job/other.yaml"], in: directory.url)
        #expect(mine.status == 0 && theirs.status == 0, "\(mine.stderr)\(theirs.stderr)")
        let mineID = try #require(mine.stdout.split(separator: "\n").first.map(String.init))
        let theirsID = try #require(theirs.stdout.split(separator: "\n").first.map(String.init))

        let runs = try await BinaryRunner.run(["runs", "--manifest", "job/m.yaml"], in: directory.url)
        #expect(runs.stdout.contains(mineID) && !runs.stdout.contains(theirsID), "\(runs.stdout)")
        let latest = try await BinaryRunner.run(["report", "latest", "--manifest", "job/m.yaml", "--format", "json"], in: directory.url)
        #expect(latest.stdout.contains(mineID) && !latest.stdout.contains(theirsID), "\(latest.stdout)")
        let both = try await BinaryRunner.run(["runs", "--state-dir", "job/state", "--state", "finished", "--since", "1h"], in: directory.url)
        #expect(both.stdout.contains(mineID) && both.stdout.contains(theirsID), "\(both.stdout)")
        let failed = try await BinaryRunner.run(["runs", "--manifest", "job/other.yaml", "--state", "failed", "--since", "24h"], in: directory.url)
        #expect(failed.status == 0 && failed.stdout.hasPrefix("no runs"), "\(failed.stdout)")
        let wrong = try await BinaryRunner.run(["runs", "--state", "lost"], in: directory.url)
        #expect(wrong.status == 64 && wrong.stderr.contains("--state expects one of running, finished, failed, interrupted, canceled, superseded, found 'lost'"))
    }

    /// The older run's process is gone (no lock held): it is recorded interrupted and goes; the newest run of the job stays.
    @Test func pruneDeletesOldRunsButTheNewestOfTheJobAndTheEmbeddedServicesOldAssemblies() async throws {
        let directory = try await Self.stateDirectory()
        let assemblies = directory.url.appendingPathComponent("runs/embedded-service/assemblies")
        let old = assemblies.appendingPathComponent(String(repeating: "a", count: 32))
        let fresh = assemblies.appendingPathComponent(String(repeating: "b", count: 32))
        for folder in [old, fresh] {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("files"), withIntermediateDirectories: true)
            try Data("{}".utf8).write(to: folder.appendingPathComponent("assembly.json"))
        }
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3 * 86_400)],
                                              ofItemAtPath: old.appendingPathComponent("assembly.json").path)

        let dry = try await BinaryRunner.run(["prune", "--older-than", "1d", "--dry-run"], in: directory.url)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.hasPrefix("would prune run \(Self.older) (nightly, interrupted)\nwould prune 1 run and 1 embedded Assembly older than 1d"),
                "\(dry.stdout)")
        #expect(FileManager.default.fileExists(atPath: old.path))
        let keepingBoth = try await BinaryRunner.run(["prune", "--older-than", "1d", "--keep-last", "2", "--dry-run"], in: directory.url)
        #expect(keepingBoth.stdout.hasPrefix("would prune 0 runs and 1 embedded Assembly"), "\(keepingBoth.stdout)")

        let pruned = try await BinaryRunner.run(["prune", "--older-than", "1d"], in: directory.url)
        #expect(pruned.status == 0 && pruned.stdout.contains("pruned 1 run and 1 embedded Assembly"), "\(pruned.stdout)\(pruned.stderr)")
        let runs = try await BinaryRunner.run(["runs"], in: directory.url)
        #expect(runs.stdout.contains(Self.newer.rawValue) && !runs.stdout.contains(Self.older.rawValue), "the newest run stays: \(runs.stdout)")
        #expect(!FileManager.default.fileExists(atPath: old.path) && FileManager.default.fileExists(atPath: fresh.path))

        try directory.write("runs/locks/nightly-1.lock", "run \(Self.older), PID 1\n")
        let holder = try await FlockHolder(directory.url.appendingPathComponent("runs/locks/nightly-1.lock").path)
        let refused = try await BinaryRunner.run(["prune", "--older-than", "1d"], in: directory.url)
        holder.release()
        #expect(refused.status == 75, "\(refused.stderr)")
        #expect(try await BinaryRunner.run(["prune"], in: directory.url).status == 64)
    }

    @Test func pruneFindsTheManifestsStateDirectoryAndSaysWhenThereIsNoLedger() async throws {
        let directory = try await RunCommandTests.job()
        #expect(try await BinaryRunner.run(["run", "job/m.yaml", "--quiet"], in: directory.url).status == 0)
        let mine = try await BinaryRunner.run(["prune", "--older-than", "1d", "--manifest", "job/m.yaml"], in: directory.url)
        #expect(mine.status == 0 && mine.stdout.contains("older than 1d in \(directory.url.path)/job/state,") && !mine.stdout.contains("no ledger"),
                "\(mine.stdout)\(mine.stderr)")
        let elsewhere = try await BinaryRunner.run(["prune", "--older-than", "1d"], in: directory.url)
        #expect(elsewhere.status == 0 && elsewhere.stdout.hasPrefix("no ledger in \(directory.url.path)/runs"), "./runs holds none: \(elsewhere.stdout)")
        #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("runs").path), "and it is not made")
    }

    @Test func runsWithoutALedgerSaysSoAndCreatesNothing() async throws {
        let directory = try TemporaryDirectory()
        let outcome = try await BinaryRunner.run(["runs", "--state-dir", "state"], in: directory.url)
        #expect(outcome.status == 0)
        #expect(outcome.stdout == "no runs recorded in \(directory.url.path)/state/ledger.sqlite\n")
        #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("state").path))
    }

    @Test func reportLatestShowsStatesAndFailuresByCode() async throws {
        let directory = try await Self.stateDirectory()
        let outcome = try await BinaryRunner.run(["report", "latest"], in: directory.url)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout == """
            run       20261130T220000Z-bbbbbb (nightly)
            manifest  /jobs/nightly.yaml
            state     failed, started 2026-11-30 22:00:00Z, ended 2026-11-30 22:00:02Z
            shards    2: 1 planned, 1 failed
            files     3: 2 pending, 1 failed
            bytes     2.9 KiB planned, 0 B up, 0 B down
            work      0 Assemblies created, 0 retries
            usage     0 B (bytes_usage of the completed Assemblies)
            time      2.0s elapsed; 0 B/s up, 0.0 files/s done

            0 of 2 shards done; failed or unfinished:
            SHARD  STATE    FILES    BYTES  ATTEMPTS  TIME  FAILURE
                0  planned      2  2.0 KiB         0
                1  failed       1   1000 B         0        IMAGE_RESIZE_ERROR: p2.jpg could not be decoded

            failures
            IMAGE_RESIZE_ERROR (1 file):
              p2.jpg: p2.jpg could not be decoded

            """)
    }

    /// A run of four one-file shards: 0 and 2 done (their Assemblies made no result), 1 failed, 3 still planned.
    static func partlyDoneRun() async throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        let ledger = try await SQLiteLedger.open(stateDirectory: directory.url.appendingPathComponent("runs").path)
        let shards = (0..<4).map { Shard(index: $0, files: [PlannedFile(path: "/in/p\($0).jpg", relativePath: "p\($0).jpg", size: 1_000, modifiedNanoseconds: 0)]) }
        _ = try await ledger.createRun(NewRun(id: older, manifestPath: "/jobs/nightly.yaml", manifestName: "nightly",
                                              recipeFingerprint: "r", plan: Plan(shards: shards), createdAt: start))
        for shard in [0, 2] {
            let id = AssemblyID.generate()
            _ = try await ledger.recordAttempt(older, shard: shard, assemblyID: id, at: start)
            try await ledger.transition(older, shard: shard, .signed, at: start)
            try await ledger.transition(older, shard: shard, .created(assemblyURL: "https://api2.test/assemblies/\(id)", tusURL: nil, bytesSent: 1_000),
                                        at: start)
            try await ledger.transition(older, shard: shard, .completed(results: []), at: start + 1)
            try await ledger.transition(older, shard: shard, .downloaded(done: [], noResult: [shard]), at: start + 1)
        }
        try await ledger.transition(older, shard: 1, .failed(FailureReason(code: "IMAGE_RESIZE_ERROR", message: "bad", isRetryable: false)),
                                    at: start + 1)
        try await ledger.updateRunState(older, to: .failed, at: start + 2)
        await ledger.close()
        return directory
    }

    @Test func theTableListsTheShardsNotDoneAfterHowManyAreAndAllOfThemWithShards() async throws {
        let directory = try await Self.partlyDoneRun()
        let report = try await BinaryRunner.run(["report", "latest"], in: directory.url)
        #expect(report.status == 0, "\(report.stderr)")
        #expect(report.stdout.contains("""

            2 of 4 shards done (--shards lists them); failed or unfinished:
            SHARD  STATE    FILES   BYTES  ATTEMPTS  TIME  FAILURE
                1  failed       1  1000 B         0        IMAGE_RESIZE_ERROR: bad
                3  planned      1  1000 B         0

            """), "\(report.stdout)")
        let all = try await BinaryRunner.run(["report", "latest", "--shards"], in: directory.url)
        let rows = all.stdout.components(separatedBy: "SHARD  STATE").last?.split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
            .prefix { !$0.isEmpty } ?? []
        #expect(all.status == 0 && rows.map { $0.split(separator: " ").first ?? "" } == ["0", "1", "2", "3"], "\(all.stdout)")
        #expect(!all.stdout.contains(" of 4 shards done"), "\(all.stdout)")
        for refused in [["--shards", "--format", "json"], ["--shards", "--failed"], ["--shards", "--history"]] {
            #expect(try await BinaryRunner.run(["report"] + (refused.contains("--history") ? [] : ["latest"]) + refused, in: directory.url).status == 64,
                    "\(refused)")
        }
    }

    @Test func aRunWhoseShardsAreAllDoneSaysSoInOneLine() async throws {
        let directory = try await Self.deliveredRun()
        let report = try await BinaryRunner.run(["report", "latest"], in: directory.url)
        #expect(report.status == 0 && report.stdout.contains("\n\n1 of 1 shard done (--shards lists them)\n\n") && !report.stdout.contains("SHARD"),
                "\(report.stdout)")
    }

    /// A state directory with one finished run of three files: one downloaded, one stored by an export Robot, one without a result.
    static func deliveredRun() async throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        let ledger = try await SQLiteLedger.open(stateDirectory: directory.url.appendingPathComponent("runs").path)
        let files = (0..<3).map { PlannedFile(path: "/in/p\($0).jpg", relativePath: "p\($0).jpg", size: 1_000, modifiedNanoseconds: 0) }
        _ = try await ledger.createRun(NewRun(id: older, manifestPath: "/jobs/nightly.yaml", manifestName: "nightly",
                                              recipeFingerprint: "r", plan: Plan(shards: [Shard(index: 0, files: files)]), createdAt: start))
        let id = AssemblyID.generate()
        _ = try await ledger.recordAttempt(older, shard: 0, assemblyID: id, at: start)
        try await ledger.transition(older, shard: 0, .signed, at: start)
        try await ledger.transition(older, shard: 0, .created(assemblyURL: "https://api2.test/assemblies/\(id)", tusURL: nil, bytesSent: 3_000), at: start)
        try await ledger.transition(older, shard: 0, .uploaded, at: start)
        try await ledger.transition(older, shard: 0, .completed(results: [
            NewResult(source: .file(0), step: "thumb", remoteID: nil, name: "p0.jpg", url: "https://tmp.test/p0.jpg", size: 512, md5: "ab",
                      mime: nil, width: nil, height: nil, delivery: .download(to: "/out/thumb/p0.jpg")),
            NewResult(source: .file(1), step: "archive", remoteID: "r1", name: "p1.jpg", url: "https://bucket.test/p1.jpg", size: nil, md5: nil,
                      mime: nil, width: nil, height: nil, isTemporary: false, delivery: .exported),
        ]), at: start + 1)
        let result = try #require(try await ledger.results(of: older, shard: 0).first)
        try await ledger.recordDownloads(older, results: [result.id], at: start + 2)
        try await ledger.transition(older, shard: 0, .downloaded(done: [0, 1], noResult: [2]), at: start + 2)
        try await ledger.updateRunState(older, to: .finished, at: start + 2)
        await ledger.close()
        return directory
    }

    @Test func reportCountsFilesWithoutResultApartAndResultsSayWhereTheyWent() async throws {
        let directory = try await Self.deliveredRun()
        let report = try await BinaryRunner.run(["report", "latest"], in: directory.url)
        #expect(report.status == 0, "\(report.stderr)")
        #expect(report.stdout.contains("files     3: 2 done, 1 no result\n"))
        #expect(report.stdout.hasSuffix("""

            no result (the Assembly made none for 1 file: a filter Step, or a lost result)
              p2.jpg

            """))

        let results = try await BinaryRunner.run(["report", "latest", "--results"], in: directory.url)
        #expect(results.status == 0, "\(results.stderr)")
        #expect(results.stdout == """
            FILE    STEP     STATE        SIZE  CHECKED   WHERE
            p0.jpg  thumb    downloaded  512 B  size+md5  /out/thumb/p0.jpg
            p1.jpg  archive  exported                     https://bucket.test/p1.jpg

            """)
        let perFile = try await BinaryRunner.run(["report", "latest", "--format", "csv"], in: directory.url)
        #expect(perFile.stdout.contains(",p0.jpg,1000,,,,/out/thumb/p0.jpg\r\n") && perFile.stdout.contains(",p1.jpg,1000,,,,https://bucket.test/p1.jpg\r\n"),
                "\(perFile.stdout)")
        let csv = try await BinaryRunner.run(["report", "latest", "--results", "--format", "csv"], in: directory.url)
        #expect(csv.stdout == "file,input,step,state,size,md5,checked,where\r\n0,p0.jpg,thumb,downloaded,512,ab,size+md5,/out/thumb/p0.jpg\r\n"
            + "1,p1.jpg,archive,exported,,,,https://bucket.test/p1.jpg\r\n")
    }

    @Test func aResultOfSeveralInputsIsAnOutputOfEachInTheReport() async throws {
        let directory = try TemporaryDirectory()
        let ledger = try await SQLiteLedger.open(stateDirectory: directory.url.appendingPathComponent("runs").path)
        let files = (0..<2).map { PlannedFile(path: "/in/p\($0).jpg", relativePath: "p\($0).jpg", size: 1_000, modifiedNanoseconds: 0) }
        _ = try await ledger.createRun(NewRun(id: Self.older, manifestPath: "/jobs/zip.yaml", manifestName: "zip", recipeFingerprint: "r",
                                              plan: Plan(shards: [Shard(index: 0, files: files)]), createdAt: Self.start))
        _ = try await ledger.recordAttempt(Self.older, shard: 0, assemblyID: .generate(), at: Self.start)
        try await ledger.transition(Self.older, shard: 0, .signed, at: Self.start)
        try await ledger.transition(Self.older, shard: 0, .created(assemblyURL: "https://api2.test/assemblies/a", tusURL: nil), at: Self.start)
        try await ledger.transition(Self.older, shard: 0, .completed(results: [
            NewResult(source: .file(0), step: "thumb", remoteID: "t0", name: "p0.jpg", url: "https://tmp.test/p0.jpg", size: 5, md5: nil,
                      mime: nil, width: nil, height: nil, delivery: .download(to: "/out/thumb/p0.jpg")),
            NewResult(source: .several([0, 1]), step: "zip", remoteID: "z", name: "archive.zip", url: "https://tmp.test/archive.zip", size: 9,
                      md5: nil, mime: nil, width: nil, height: nil, delivery: .download(to: "/out/zip/archive.zip")),
        ]), at: Self.start + 1)
        for result in try await ledger.results(of: Self.older, shard: 0) { try await ledger.recordDownloads(Self.older, results: [result.id], at: Self.start + 2) }
        try await ledger.transition(Self.older, shard: 0, .downloaded(done: [0, 1], noResult: []), at: Self.start + 2)
        await ledger.close()

        let csv = try await BinaryRunner.run(["report", "latest", "--format", "csv"], in: directory.url)
        let json = try await BinaryRunner.run(["report", "latest", "--format", "json"], in: directory.url)

        #expect(csv.stdout.contains(",p0.jpg,1000,,,,/out/thumb/p0.jpg /out/zip/archive.zip\r\n")
            && csv.stdout.contains(",p1.jpg,1000,,,,/out/zip/archive.zip\r\n"), "\(csv.stdout)")
        let report = try #require(try JSONValue(parsing: Array(json.stdout.utf8)).objectValue, "\(json.stdout)")
        let outputs = report["files"]?.arrayValue?.compactMap { $0.objectValue?["outputs"]?.arrayValue?.compactMap(\.stringValue) }
        #expect(outputs == [["/out/thumb/p0.jpg", "/out/zip/archive.zip"], ["/out/zip/archive.zip"]], "\(json.stdout)")
    }

    @Test func reportFailedListsOnlyTheFailedFilesWithTheirReasons() async throws {
        let directory = try await Self.stateDirectory()
        let table = try await BinaryRunner.run(["report", "latest", "--failed"], in: directory.url)
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout == "FILE    CODE                REASON\np2.jpg  IMAGE_RESIZE_ERROR  p2.jpg could not be decoded\n")
        let csv = try await BinaryRunner.run(["report", Self.older.rawValue, "--failed", "--format", "csv"], in: directory.url)
        #expect(csv.stdout == "file,shard,state,path,relative_path,size,error_code,error_message,retryable,outputs\r\n")
        let json = try await BinaryRunner.run(["report", "latest", "--failed", "--format", "json"], in: directory.url)
        let report = try #require(try JSONValue(parsing: Array(json.stdout.utf8)).objectValue, "\(json.stdout)")
        #expect(report["run_id"]?.stringValue == Self.newer.rawValue)
        let files = try #require(report["failed_files"]?.arrayValue)
        let file = try #require(files.first?.objectValue)
        #expect(files.count == 1 && file["relative_path"]?.stringValue == "p2.jpg")
        let failure = file["failure"]?.objectValue
        #expect(failure?["message"]?.stringValue == "p2.jpg could not be decoded" && failure?["retryable"] == .bool(false))
        #expect(report["failed_shards"]?.arrayValue?.first?.objectValue?["index"] == .integer(1))
    }

    @Test func reportAsCSVHasOneRowPerFile() async throws {
        let directory = try await Self.stateDirectory()
        let outcome = try await BinaryRunner.run(["report", Self.newer.rawValue, "--format", "csv"], in: directory.url)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout == [
            "file,shard,state,path,relative_path,size,error_code,error_message,retryable,outputs",
            "0,0,pending,/in/p0.jpg,p0.jpg,1000,,,,",
            "1,0,pending,/in/p1.jpg,p1.jpg,1000,,,,",
            "2,1,failed,/in/p2.jpg,p2.jpg,1000,IMAGE_RESIZE_ERROR,p2.jpg could not be decoded,false,",
        ].joined(separator: "\r\n") + "\r\n")
    }

    @Test func aLongReportIsWrittenWholeInPiecesWithEachFilesOutputs() async throws {
        // Given: 3,000 files in shards of 50 (the report reads them in pages of shards) and a known bad one in no shard;
        // shard 1's second attempt made each file's thumbnail, shard 50's a zip of its files
        let directory = try TemporaryDirectory()
        let ledger = try await SQLiteLedger.open(stateDirectory: directory.url.appendingPathComponent("runs").path)
        let files = (0..<3_000).map { PlannedFile(path: "/in/photo-\($0).jpg", relativePath: "photo-\($0).jpg", size: 1_000, modifiedNanoseconds: 0) }
        let bad = KnownBadFile(file: PlannedFile(path: "/in/bad.jpg", relativePath: "bad.jpg", size: 9, modifiedNanoseconds: 0),
                               reason: FailureReason(code: "IMAGE_RESIZE_ERROR", message: "bad.jpg could not be decoded", isRetryable: false))
        _ = try await ledger.createRun(NewRun(id: Self.older, manifestPath: "/jobs/big.yaml", manifestName: "big", recipeFingerprint: "r",
                                              plan: Plan(sharding: files, limits: ShardLimits(maxFiles: 50)), knownBad: [bad], createdAt: Self.start))
        func complete(_ shard: Int, results: [NewResult]) async throws {
            let id = AssemblyID.generate()
            _ = try await ledger.recordAttempt(Self.older, shard: shard, assemblyID: id, at: Self.start)
            try await ledger.transition(Self.older, shard: shard, .signed, at: Self.start)
            try await ledger.transition(Self.older, shard: shard, .created(assemblyURL: "https://api2.test/assemblies/\(id)", tusURL: nil), at: Self.start)
            try await ledger.transition(Self.older, shard: shard, .uploaded, at: Self.start)
            try await ledger.transition(Self.older, shard: shard, .completed(results: results), at: Self.start + 1)
        }
        func thumbnail(_ file: Int, attempt: Int) -> NewResult {
            NewResult(source: .file(file), step: "thumb", remoteID: nil, name: "t.jpg", url: "https://tmp.test/\(file)-\(attempt).jpg", size: 5, md5: nil,
                      mime: nil, width: nil, height: nil, delivery: .recorded)
        }
        try await complete(1, results: (50..<100).map { thumbnail($0, attempt: 1) })
        try await ledger.transition(Self.older, shard: 1, .failed(FailureReason(code: "HTTP_503", message: "busy", isRetryable: true)), at: Self.start + 2)
        try await ledger.transition(Self.older, shard: 1, .restarted, at: Self.start + 2)
        try await complete(1, results: (50..<100).map { thumbnail($0, attempt: 2) })
        try await complete(50, results: [NewResult(source: .several(Array(2_500..<2_550)), step: "zip", remoteID: nil, name: "a.zip",
                                                   url: "https://tmp.test/a.zip", size: 5, md5: nil, mime: nil, width: nil, height: nil,
                                                   delivery: .recorded)])
        await ledger.close()

        // When
        let csv = try await BinaryRunner.run(["report", "latest", "--format", "csv"], in: directory.url)
        let json = try await BinaryRunner.run(["report", "latest", "--format", "json"], in: directory.url)

        // Then: every file once, in order, each with its current outputs only, the known bad one last
        #expect(csv.status == 0 && json.status == 0, "\(csv.stderr)\(json.stderr)")
        let rows = csv.stdout.components(separatedBy: "\r\n").dropFirst().filter { !$0.isEmpty }
        #expect(csv.stdout.utf8.count > 1 << 17 && rows.count == 3_001, "\(csv.stdout.utf8.count) bytes, \(rows.count) rows")
        #expect(rows.prefix(3_000).enumerated().allSatisfy { $1.hasPrefix("\($0),\($0 / 50),") && $1.contains(",/in/photo-\($0).jpg,") })
        let outputs = rows.map { $0.components(separatedBy: ",").last ?? "" }
        #expect(outputs[50] == "https://tmp.test/50-2.jpg" && outputs[99] == "https://tmp.test/99-2.jpg" && outputs[100] == "")
        #expect(outputs[2_500] == "https://tmp.test/a.zip" && outputs[2_549] == "https://tmp.test/a.zip" && outputs[2_550] == "")
        #expect(rows.last == "3000,,known_bad,/in/bad.jpg,bad.jpg,9,IMAGE_RESIZE_ERROR,bad.jpg could not be decoded,false,")
        let report = try #require(try JSONValue(parsing: Array(json.stdout.utf8)).objectValue, "\(json.stdout.suffix(200))")
        let entries = try #require(report["files"]?.arrayValue)
        #expect(entries.count == 3_001 && json.stdout.utf8.count > 1 << 17)
        #expect(entries.map { $0.objectValue?["outputs"]?.arrayValue?.compactMap(\.stringValue) ?? [] } == outputs.map { $0.isEmpty ? [] : [$0] })
    }

    @Test func reportAsJSONGroupsFailures() async throws {
        let directory = try await Self.stateDirectory()
        let outcome = try await BinaryRunner.run(["report", "latest", "--format=json"], in: directory.url)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        let failures = try #require(report["failures"] as? [[String: Any]])
        #expect(failures.first?["code"] as? String == "IMAGE_RESIZE_ERROR")
        #expect(failures.first?["files"] as? [String] == ["p2.jpg"])
        #expect((report["files_by_state"] as? [String: Int])?["failed"] == 1)
    }

    @Test(arguments: [
        (["report", "20990101T000000Z-cccccc"], Int32(65), "Error: run 20990101T000000Z-cccccc: not in the ledger\n"),
        (["report", "yesterday"], 64, nil),
        (["report", "latest", "--format", "xml"], 64, nil),
        (["report", "latest", "--state-dir", "a", "--manifest", "b"], 64, nil),
        (["report", "latest", "--failed", "--results"], 64, nil),
    ])
    func reportRefusesWhatItCannotShow(arguments: [String], status: Int32, stderr: String?) async throws {
        let directory = try await Self.stateDirectory()
        let outcome = try await BinaryRunner.run(arguments, in: directory.url)
        #expect(outcome.status == status)
        if let stderr { #expect(outcome.stderr == stderr) }
    }

    @Test func reportWithoutALedgerExits65() async throws {
        let directory = try TemporaryDirectory()
        let outcome = try await BinaryRunner.run(["report", "latest"], in: directory.url)
        #expect(outcome.status == 65)
        #expect(outcome.stderr == "Error: no ledger at \(directory.url.path)/runs/ledger.sqlite; no run has been recorded there\n")
    }
}
