import AssemblyLine
import ConfigFormat
import Foundation
import SQLiteLedger
import TestSupport
import Testing

/// One batch split over N partitions (issue 23): each part a run of its own, together the whole plan, no file sent twice.
@Suite struct PartitionRunTests {
    /// 41 small inputs in nested folders (one name twice, in two folders), sent as themselves (`:original`, no image work).
    static func inputs(in directory: TemporaryDirectory) throws -> [String] {
        let names = (0..<40).map { "in/d\($0 % 3)/f-\($0).txt" } + ["in/d1/same.txt"]
        for name in names { _ = try directory.write(name, "input \(name)\n") }
        return names.map { String($0.dropFirst("in/".count)) }
    }

    static func manifest(endpoint: String) -> String {
        """
        version: 1
        name: split
        endpoint: \(endpoint)
        auth: {key: "\(ServiceAssemblyList.key)"}
        signer: {kind: local, secret_env: SPLIT_SECRET}
        inputs: {include: "in/**/*.txt", base: in}
        steps:
          ":original": {robot: /upload/handle, result: true}
        shards: {files: 3}
        poll: {interval: 50ms, max_interval: 50ms}
        output: {dir: out, layout: "{dir}/{name}"}
        state_dir: "state/{partition}"
        """
    }

    /// `serve` on `directory/service` (signatures not checked) and `split.yaml` naming it; the service's base URL.
    static func service(for directory: TemporaryDirectory) async throws -> (ServeCommandTests.ServeProcess, String) {
        let serve = try ServeCommandTests.ServeProcess(["--listen", "127.0.0.1:0", "--data-dir", "service", "--no-signature",
                                                        "--key", ServiceAssemblyList.key], in: directory.url)
        let base = try #require(try await serve.lines(atLeast: 1).first?.split(separator: " ").last.map(String.init))
        _ = try directory.write("split.yaml", manifest(endpoint: base))
        return (serve, base)
    }

    @Test func fourConcurrentPartitionsDoTheWholePlanOnceAndTellTheServiceWhichPartEachAssemblyIs() async throws {
        // Given: a local service, and a manifest whose state directory is per partition
        let directory = try TemporaryDirectory()
        let inputs = try Self.inputs(in: directory)
        let (serve, base) = try await Self.service(for: directory)

        // When: four processes run the four parts at once
        let outcomes = try await withThrowingTaskGroup(of: (Int, BinaryRunner.Outcome).self) { group in
            for index in 0..<4 {
                group.addTask {
                    (index, try await BinaryRunner.run(["run", "split.yaml", "--partition", "\(index)/4", "--batch", "night-1", "--quiet"],
                                                       in: directory.url, environment: ["SPLIT_SECRET": "not-checked"]))
                }
            }
            return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }

        // Then: each part exits 0 with a run of its own, of batch night-1, holding only its part's files
        var partOf: [String: Int] = [:]
        var assemblies: [String: Int] = [:]
        for index in 0..<4 {
            let outcome = try #require(outcomes[index])
            #expect(outcome.status == 0, "part \(index): \(outcome.stderr)")
            try await SQLiteLedger.with(stateDirectory: directory.file("state/\(index)"), mode: .readOnly) { ledger in
                let run = try #require(try await ledger.latestRun())
                #expect(run.batch?.rawValue == "night-1" && run.partition == Partition(index: index, count: 4) && run.state == .finished)
                for file in try await ledger.files(of: run.id, shard: nil, state: nil) {
                    #expect(file.state == .done && partOf.updateValue(index, forKey: file.file.relativePath) == nil,
                            "\(file.file.relativePath) in two parts")
                    #expect(Partition.part(of: file.file.relativePath, among: 4) == index)
                }
                for shard in try await ledger.shards(of: run.id) {
                    for attempt in try await ledger.attempts(of: run.id, shard: shard.index) { assemblies[attempt.assemblyID.rawValue] = index }
                }
            }
        }
        #expect(Set(partOf.keys) == Set(inputs), "together the whole plan")
        #expect(Set(partOf.values).count == 4, "each part had files: \(partOf.values.sorted())")
        for input in inputs {
            #expect(try String(contentsOfFile: directory.file("out/\(input)"), encoding: .utf8) == "input in/\(input)\n")
        }

        // And: the service holds one Assembly per shard, each upload once, each tagged with its batch and part
        var uploaded: [String] = []
        for (id, index) in assemblies {
            let status = try #require(try JSONValue(parsing: Array(try await ServeCommandTests.curl("\(base)/assemblies/\(id)").utf8)).objectValue)
            let fields = status["fields"]?.objectValue
            #expect(fields?["assemblyline_batch"]?.stringValue == "night-1" && fields?["assemblyline_partition"]?.stringValue == "\(index)/4")
            uploaded += status["uploads"]?.arrayValue?.compactMap { $0.objectValue?["name"]?.stringValue } ?? []
        }
        #expect(uploaded.count == inputs.count, "each file sent once: \(uploaded.count) uploads for \(inputs.count) files")

        // And: the batch's report, merged from the four ledgers, counts what one host's run of the same manifest does
        let single = try await BinaryRunner.run(["run", "split.yaml", "--state-dir", "single", "--quiet"], in: directory.url,
                                                environment: ["SPLIT_SECRET": "s"])
        #expect(single.status == 0, "\(single.stderr)")
        let merged = try await BinaryRunner.run(["report", "--batch", "night-1", "--manifest", "split.yaml", "--format", "json"], in: directory.url)
        let alone = try await BinaryRunner.run(["report", "latest", "--state-dir", "single", "--format", "json"], in: directory.url)
        let mergedReport = try #require(try JSONValue(parsing: Array(merged.stdout.utf8)).objectValue, "\(merged.stderr)")
        let aloneReport = try #require(try JSONValue(parsing: Array(alone.stdout.utf8)).objectValue, "\(alone.stderr)")
        #expect(mergedReport["files_by_state"] == aloneReport["files_by_state"] && mergedReport["missing"] == .array([]))
        #expect(mergedReport["runs"]?.arrayValue?.count == 4 && mergedReport["unfinished"] == .array([]))
        let rows = { (report: [String: JSONValue]) in Set((report["files"]?.arrayValue ?? []).compactMap { file -> [String]? in
            guard let object = file.objectValue else { return nil }
            return [object["relative_path"], object["state"], object["outputs"]].map { $0?.serialized ?? "" }
        }) }
        #expect(rows(mergedReport) == rows(aloneReport) && rows(aloneReport).count == inputs.count)
        let csv = try await BinaryRunner.run(["report", "--batch", "night-1", "--state-dir", "state/*", "--format", "csv"], in: directory.url)
        #expect(csv.stdout.hasPrefix("partition,file,shard,state,") && csv.stdout.components(separatedBy: "\r\n").count == inputs.count + 2)

        // And: with two ledgers of the four, the report and runs name the parts missing
        let half = try await BinaryRunner.run(["report", "--batch", "night-1", "--state-dir", "state/0", "--state-dir", "state/1"], in: directory.url)
        #expect(half.status == 0 && half.stdout.hasPrefix("batch     night-1: 4 partitions, 2 finished, 2 missing (2, 3)\n"), "\(half.stdout)\(half.stderr)")
        let runs = try await BinaryRunner.run(["runs", "--batch", "night-1", "--state-dir", "state/*"], in: directory.url)
        let listed: [String] = runs.stdout.split(separator: "\n").dropFirst().map { line in String(line.prefix { $0 != " " }) }
        #expect(listed == ["0/4", "1/4", "2/4", "3/4"], "\(runs.stdout)\(runs.stderr)")

        // And: check --batch finds the whole plan taken once, each file by its own part; three ledgers of four leave files untaken
        let covered = try await BinaryRunner.run(["check", "split.yaml", "--batch", "night-1"], in: directory.url)
        #expect(covered.status == 0 && covered.stdout.hasPrefix("batch night-1: 4 partitions (4 with a run), 41 files planned: each taken by exactly one partition, its own\n"),
                "\(covered.stdout)\(covered.stderr)")
        let partial = try await BinaryRunner.run(["check", "split.yaml", "--batch", "night-1", "--state-dir", "state/0", "--state-dir", "state/1",
                                                  "--state-dir", "state/3"], in: directory.url)
        let untaken = inputs.filter { Partition.part(of: $0, among: 4) == 2 }.count
        #expect(partial.status == 1 && partial.stdout.contains("\(untaken) in no partition, 0 in two or more, 0 in another's")
                && partial.stdout.contains("no run of partitions 2"), "\(partial.stdout)\(partial.stderr)")

        // And: the next night's parts skip every file, and still took the whole plan once (their done indexes)
        for index in 0..<4 {
            let again = try await BinaryRunner.run(["run", "split.yaml", "--partition", "\(index)/4", "--batch", "night-2", "--quiet"],
                                                   in: directory.url, environment: ["SPLIT_SECRET": "s"])
            #expect(again.status == 0, "\(again.stderr)")
        }
        let skipped = try await BinaryRunner.run(["check", "split.yaml", "--batch", "night-2"], in: directory.url)
        #expect(skipped.status == 0 && skipped.stdout.contains("each taken by exactly one partition, its own"), "\(skipped.stdout)\(skipped.stderr)")
        #expect(await serve.stop() == 0)
    }

    @Test func aPartKilledMidRunAndStartedAgainResumesItsRun() async throws {
        // Given: part 1 of 2 killed after its first shard's Assembly was created
        let directory = try TemporaryDirectory()
        let inputs = try Self.inputs(in: directory)
        let (serve, base) = try await Self.service(for: directory)
        let arguments = ["run", "split.yaml", "--partition", "1/2", "--batch", "night-2", "--quiet"]
        let killed = try await BinaryRunner.run(arguments, in: directory.url,
                                                environment: ["SPLIT_SECRET": "s", "ASSEMBLYLINE_KILL_AT": "after-created:1"])
        #expect(killed.status != 0)

        // When: the scheduler starts the same part again
        let again = try await BinaryRunner.run(arguments, in: directory.url, environment: ["SPLIT_SECRET": "s"])

        // Then: one run, resumed to its end, with every file of the part done
        #expect(again.status == 0, "\(again.stderr)")
        try await SQLiteLedger.with(stateDirectory: directory.file("state/1"), mode: .readOnly) { ledger in
            let runs = try await ledger.recentRuns(limit: 10, matching: RunFilter())
            #expect(runs.count == 1 && runs.first?.state == .finished, "\(runs.map(\.state))")
            let files = try await ledger.files(of: try #require(runs.first).id, shard: nil, state: nil)
            #expect(Set(files.map(\.file.relativePath)) == Set(inputs.filter { Partition.part(of: $0, among: 2) == 1 }))
            #expect(files.allSatisfy { $0.state == .done })
        }
        // And: the Assembly created before the kill was taken up, not made again: each file of the part reached the service once
        var uploads = 0
        for item in try await AssemblyListing(baseURL: base, key: ServiceAssemblyList.key, secret: "s").items() {
            let status = try JSONValue(parsing: Array(try await ServeCommandTests.curl("\(base)/assemblies/\(item.id)").utf8)).objectValue
            uploads += status?["uploads"]?.arrayValue?.count ?? 0
        }
        #expect(uploads == inputs.filter { Partition.part(of: $0, among: 2) == 1 }.count)
        #expect(await serve.stop() == 0)
    }

    @Test func theCommandsGivenAPartitionedManifestFindItsRunsInEachPartsLedger() async throws {
        // Given: parts 0 and 1 of a manifest whose state_dir names {partition}, run one after the other
        let directory = try TemporaryDirectory()
        let inputs = try Self.inputs(in: directory)
        let (serve, _) = try await Self.service(for: directory)
        var runIDs: [String] = []
        for index in 0..<2 {
            let part = try await BinaryRunner.run(["run", "split.yaml", "--partition", "\(index)/2", "--batch", "night-1"], in: directory.url,
                                                  environment: ["SPLIT_SECRET": "s"])
            #expect(part.status == 0, "\(part.stderr)")
            runIDs.append(String(part.stdout.prefix { $0 != "\n" }))
        }
        #expect(await serve.stop() == 0)

        // When: runs, report, resume, check and prune are given the manifest
        let runs = try await BinaryRunner.run(["runs", "--manifest", "split.yaml"], in: directory.url)
        let latest = try await BinaryRunner.run(["report", "latest", "--manifest", "split.yaml", "--format", "json"], in: directory.url)
        let first = try await BinaryRunner.run(["report", runIDs[0], "--manifest", "split.yaml", "--format", "json"], in: directory.url)
        let unknown = try await BinaryRunner.run(["report", "20260101T000000Z-000000", "--manifest", "split.yaml"], in: directory.url)
        let resume = try await BinaryRunner.run(["resume", runIDs[0], "--manifest", "split.yaml"], in: directory.url)
        let check = try await BinaryRunner.run(["check", "split.yaml"], in: directory.url)
        let prune = try await BinaryRunner.run(["prune", "--older-than", "1000d", "--dry-run", "--manifest", "split.yaml"], in: directory.url)

        // Then: each reads every part's ledger: the runs with their parts newest first, latest the newest part's run,
        // a run by its ID in its own part, every part's outputs checked, each part's state directory pruned
        let rows = runs.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: " ", omittingEmptySubsequences: true).prefix(2).joined(separator: " ") }
        #expect(runs.status == 0 && rows == ["1/2 \(runIDs[1])", "0/2 \(runIDs[0])"], "\(runs.stdout)\(runs.stderr)")
        #expect(try JSONValue(parsing: Array(latest.stdout.utf8)).objectValue?["id"]?.stringValue == runIDs[1], "\(latest.stderr)")
        let report = try JSONValue(parsing: Array(first.stdout.utf8)).objectValue
        #expect(report?["id"]?.stringValue == runIDs[0] && report?["partition"]?.stringValue == "0/2", "\(first.stderr)")
        #expect(unknown.status == 65 && unknown.stderr.contains("20260101T000000Z-000000"), "\(unknown.stderr)")
        #expect(resume.status == 0 && resume.stdout.contains("run \(runIDs[0]) is finished"), "\(resume.stdout)\(resume.stderr)")
        #expect(check.status == 0 && check.stdout.contains("checked \(inputs.count) outputs: 0 missing, 0 changed"), "\(check.stdout)\(check.stderr)")
        #expect(prune.status == 0 && ["state/0", "state/1"].allSatisfy { part in
            prune.stdout.contains("would prune 0 runs and 0 embedded Assemblies older than 1000d in \(directory.file(part))")
        }, "\(prune.stdout)\(prune.stderr)")
    }

    @Test func thePartComesFromTheSchedulerOrTheCommandIsRefused() async throws {
        let directory = try TemporaryDirectory()
        let inputs = try Self.inputs(in: directory)
        _ = try directory.write("split.yaml", Self.manifest(endpoint: "https://api2.transloadit.com"))

        // A Slurm array --array=1-7:2 (IDs 1, 3, 5, 7): task 5 is part 2 of 4
        let slurm = ["SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_STEP": "2", "SLURM_ARRAY_TASK_COUNT": "4",
                     "SPLIT_SECRET": "s"]
        let plan = try await BinaryRunner.run(["plan", "split.yaml", "--partition", "auto", "--json"], in: directory.url, environment: slurm)
        #expect(plan.status == 0, "\(plan.stderr)")
        let object = try #require(try JSONValue(parsing: Array(plan.stdout.utf8)).objectValue)
        #expect(object["partition"]?.stringValue == "2/4")
        let planned = object["shards"]?.arrayValue?.flatMap { $0.objectValue?["files"]?.arrayValue ?? [] }
            .compactMap { $0.objectValue?["relative_path"]?.stringValue } ?? []
        #expect(Set(planned) == Set(inputs.filter { Partition.part(of: $0, among: 4) == 2 }))

        // A Kubernetes Indexed Job's index, N given
        let indexed = try await BinaryRunner.run(["plan", "split.yaml", "--partition", "auto/3"], in: directory.url,
                                                 environment: ["JOB_COMPLETION_INDEX": "2", "SPLIT_SECRET": "s"])
        #expect(indexed.status == 0 && indexed.stdout.hasPrefix("plan of 'split' (partition 2/3): "), "\(indexed.stdout)\(indexed.stderr)")

        // Refused with 64, naming what is missing, before anything is written
        let refusals: [([String], [String: String], String)] = [
            (["--partition", "auto"], [:], "neither JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) nor SLURM_ARRAY_TASK_ID (a Slurm array) is set"),
            (["--partition", "auto"], ["JOB_COMPLETION_INDEX": "1"], "N is not known"),
            (["--partition", "auto/2"], ["JOB_COMPLETION_INDEX": "2"], "part 2 of 2 does not exist"),
            (["--partition", "4/4"], [:], "part 4 of 4 does not exist"),
            (["--partition", "1"], [:], "expected I/N"),
            ([], [:], "state_dir names {partition}: give --partition I/N"),
            (["--partition", "0/2", "--batch", "no spaces"], [:], "--batch: expected 1 to 96 letters"),
        ]
        for (options, environment, message) in refusals {
            let refused = try await BinaryRunner.run(["run", "split.yaml"] + options, in: directory.url,
                                                     environment: environment.merging(["SPLIT_SECRET": "s"]) { first, _ in first })
            #expect(refused.status == 64 && refused.stderr.contains(message), "\(options) \(environment): \(refused.status) \(refused.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.file("state")), "nothing written")
    }
}
