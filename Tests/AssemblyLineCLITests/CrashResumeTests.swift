import AssemblyLine
import Foundation
import ImageRobot
import SQLiteLedger
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `run` killed with SIGKILL at each pipeline checkpoint, then `resume`, as built binaries on the embedded service.
///
/// After the resume: every result is on disk once, verified, with the right dimensions; the ledger
/// holds one downloaded result per input and passes `PRAGMA integrity_check`; and the service, asked
/// through its own `GET /assemblies`, holds no shard with two completed Assemblies.
@Suite(.timeLimit(.minutes(3))) struct CrashResumeTests {
    /// The passage of the checkpoint that is killed: the second, so that the run has started and is not yet done.
    static let passage = 2

    /// The inputs RunCommandTests.job() makes: 3 shards of 5, 5 and 2 files.
    static let fileCount = 12
    static let shardCount = 3

    /// Each output below `job/state/output/resize`, with its size once `fit` into 160×120 (as the manifest asks).
    static let expectedOutputs: [String: (width: Int, height: Int)] = {
        let folders = ["landscapes", "portraits", "squares"]
        let sizes = [(160, 120), (90, 120), (160, 90), (120, 120)]
        var outputs: [String: (width: Int, height: Int)] = [:]
        for index in 0..<fileCount {
            let name = "\(folders[index % 3])/sample-\(index < 10 ? "0" : "")\(index).jpg"
            outputs[name] = sizes[index % sizes.count]
        }
        return outputs
    }()

    @Test(arguments: PipelineCheckpoint.allCases)
    func aRunKilledAtACheckpointIsFinishedByResumeWithEachResultOnceAndOneCompletedAssemblyPerShard(point: PipelineCheckpoint) async throws {
        let directory = try await RunCommandTests.job()
        let killed = try await BinaryRunner.run(["run", "job/m.yaml"], in: directory.url,
                                          environment: ["ASSEMBLYLINE_KILL_AT": "\(point.rawValue):\(Self.passage)"])
        try #require(killed.wasKilled(by: SIGKILL), "\(point): \(killed.reason) \(killed.status): \(killed.stderr)")
        let runID = try #require(killed.stdout.split(separator: "\n").first.map(String.init))

        let resumed = try await BinaryRunner.run(["resume", runID, "--state-dir", "job/state"], in: directory.url)
        try #require(resumed.reason == .exit && resumed.status == 0, "\(point): resume \(resumed.status): \(resumed.stderr)")
        #expect(resumed.stdout.contains("files 12 done, 0 failed, 0 skipped, 0 pending"), "\(point): \(resumed.stdout)")

        let state = directory.url.appendingPathComponent("job/state")
        try Self.checkOutputs(in: state.appendingPathComponent("output/resize"), point: point)
        let ledger = try SQLiteConnection(path: SQLiteLedger.path(inStateDirectory: state.path), mode: .readOnly)
        #expect(try ledger.integrityCheck() == ["ok"], "\(point)")
        let completed = try Self.checkLedger(ledger, runID: runID, point: point)
        let assemblies = try Self.attemptShards(ledger, runID: runID)
        let listed = try await ServiceAssemblyList(dataDirectory: state.appendingPathComponent("embedded-service").path, in: directory.url)
        Self.checkService(listed.items, assemblies: assemblies, completed: completed, point: point)
    }

    // MARK: - Checks

    /// Exactly the expected outputs are on disk, no `.part` leftovers of downloads killed in flight, each with the right dimensions.
    static func checkOutputs(in output: URL, point: PipelineCheckpoint) throws {
        let found = try FileManager.default.subpathsOfDirectory(atPath: output.path).filter { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: output.appendingPathComponent(path).path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
        #expect(Set(found) == Set(expectedOutputs.keys), "\(point): \(found.sorted())")
        for (path, size) in expectedOutputs where found.contains(path) {
            let info = try ImageInspector.inspect(output.appendingPathComponent(path).path)
            #expect(info.width == size.width && info.height == size.height, "\(point): \(path) is \(info.width)x\(info.height)")
        }
    }

    /// The run finished with every shard downloaded and every file done, one downloaded result per file from its
    /// shard's completed attempt; returns that attempt's Assembly ID per shard.
    static func checkLedger(_ ledger: SQLiteConnection, runID: String, point: PipelineCheckpoint) throws -> [Int: String] {
        let run: [SQLiteValue] = [.text(runID)]
        let runs = try ledger.rows("SELECT id, state FROM runs") { "\($0.text(0) ?? "") \($0.text(1) ?? "")" }
        #expect(runs == ["\(runID) finished"], "\(point)")
        let shards = try ledger.rows("SELECT state FROM shards WHERE run_id = ? ORDER BY shard_index", run) { $0.text(0) ?? "" }
        #expect(shards == Array(repeating: "downloaded", count: shardCount), "\(point)")

        let files = try ledger.rows("SELECT file_index, state, relative_path FROM files WHERE run_id = ? ORDER BY file_index", run) {
            (index: Int($0.integer(0) ?? -1), state: $0.text(1) ?? "", path: $0.text(2) ?? "")
        }
        #expect(files.map(\.index) == Array(0..<fileCount), "\(point)")
        #expect(files.allSatisfy { $0.state == "done" }, "\(point): \(files.map(\.state))")

        let completedAttempts = try ledger.rows(
            "SELECT shard_index, attempt, assembly_id FROM attempts WHERE run_id = ? AND outcome = 'completed'", run
        ) { (shard: Int($0.integer(0) ?? -1), attempt: Int($0.integer(1) ?? -1), id: $0.text(2) ?? "") }
        #expect(completedAttempts.map(\.shard).sorted() == Array(0..<shardCount), "\(point): completed attempts \(completedAttempts)")
        let completedAttempt = Dictionary(completedAttempts.map { ($0.shard, $0.attempt) }) { first, _ in first }

        let results = try ledger.rows(
            "SELECT file_index, state, output_path, shard_index, attempt FROM results WHERE run_id = ?", run
        ) { (file: $0.integer(0).map(Int.init), state: $0.text(1) ?? "", path: $0.text(2) ?? "",
             shard: Int($0.integer(3) ?? -1), attempt: Int($0.integer(4) ?? -1)) }
        #expect(results.allSatisfy { $0.state == "downloaded" }, "\(point): \(results.map { "\($0.file.map(String.init) ?? "nil") \($0.state)" })")
        #expect(results.allSatisfy { completedAttempt[$0.shard] == $0.attempt }, "\(point): a result from an attempt that did not complete")
        let perFile = Dictionary(grouping: results, by: \.file)
        for file in files {
            let mine = perFile[file.index] ?? []
            #expect(mine.count == 1, "\(point): file \(file.index) has \(mine.count) results")
            let expected = "/output/resize/" + file.path.replacingOccurrences(of: ".png", with: ".jpg")
            #expect(mine.allSatisfy { $0.path.hasSuffix(expected) }, "\(point): file \(file.index) → \(mine.map(\.path))")
        }
        #expect(perFile[nil] == nil, "\(point): results that map to no input")
        return Dictionary(completedAttempts.map { ($0.shard, $0.id) }) { first, _ in first }
    }

    /// Every Assembly ID the ledger wrote for the run (each attempt's), with its shard.
    static func attemptShards(_ ledger: SQLiteConnection, runID: String) throws -> [String: Int] {
        let rows = try ledger.rows("SELECT assembly_id, shard_index FROM attempts WHERE run_id = ?", [.text(runID)]) {
            ($0.text(0) ?? "", Int($0.integer(1) ?? -1))
        }
        return Dictionary(rows) { first, _ in first }
    }

    /// Every Assembly on the service is one of the run's attempts, and each shard has exactly one
    /// `ASSEMBLY_COMPLETED`: the attempt whose results the ledger downloaded.
    static func checkService(_ items: [ServiceAssemblyList.Item], assemblies: [String: Int], completed: [Int: String],
                             point: PipelineCheckpoint) {
        #expect(Set(items.map(\.id)).count == items.count, "\(point): the list repeats an Assembly")
        let unknown = items.filter { assemblies[$0.id] == nil }
        #expect(unknown.isEmpty, "\(point): Assemblies the ledger never chose: \(unknown)")
        let done = items.filter { $0.ok == "ASSEMBLY_COMPLETED" }
        let perShard = Dictionary(grouping: done) { assemblies[$0.id] ?? -1 }
        for shard in 0..<shardCount {
            let ids = perShard[shard]?.map(\.id) ?? []
            #expect(ids.count == 1, "\(point): shard \(shard) has \(ids.count) completed Assemblies \(ids); all: \(items)")
            #expect(ids.first == completed[shard], "\(point): shard \(shard) completed \(ids), the ledger downloaded \(completed[shard] ?? "none")")
        }
    }
}
