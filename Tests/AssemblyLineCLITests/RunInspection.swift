import AssemblyLine
import Digests
import Foundation
import ImageRobot
import SQLiteLedger

/// One run as its ledger records it, read-only, for the end-to-end tests to hold against the service and the disk.
struct RunInspection {
    var runID: RunID
    var shards: [ShardRecord]
    var files: [FileRecord]
    /// Every attempt of every shard, oldest first.
    var attempts: [AttemptRecord]
    var results: [ResultRecord]

    /// Reads the run from `<stateDirectory>/ledger.sqlite` without writing to it.
    static func read(stateDirectory: URL, runID: RunID) async throws -> RunInspection {
        let ledger = try await SQLiteLedger.open(stateDirectory: stateDirectory.path, mode: .readOnly)
        do {
            let shards = try await ledger.shards(of: runID)
            var attempts: [AttemptRecord] = []
            var results: [ResultRecord] = []
            for shard in shards {
                attempts += try await ledger.attempts(of: runID, shard: shard.index)
                results += try await ledger.results(of: runID, shard: shard.index)
            }
            let inspection = RunInspection(runID: runID, shards: shards, files: try await ledger.files(of: runID),
                                           attempts: attempts, results: results)
            await ledger.close()
            return inspection
        } catch {
            await ledger.close()
            throw error
        }
    }

    /// The shard of each Assembly ID the run chose.
    var shardOfAssembly: [String: Int] {
        Dictionary(uniqueKeysWithValues: attempts.map { ($0.assemblyID.rawValue, $0.shardIndex) })
    }

    /// What is wrong with the run's outputs: each shard's latest attempt completed, and its results, one per input,
    /// are on disk with the size and MD5 the service gave and decode to the dimensions `expected(input)`.
    func resultProblems(expected: (FileRecord) -> (width: Int, height: Int)) -> [String] {
        var problems: [String] = []
        for shard in shards {
            guard let attempt = attempts.last(where: { $0.shardIndex == shard.index }), attempt.outcome == .completed else {
                problems.append("shard \(shard.index): its latest attempt did not complete")
                continue
            }
            let made = results.filter { $0.shardIndex == shard.index && $0.attempt == attempt.number }
            for file in files where file.shardIndex == shard.index {
                let mine = made.filter { $0.result.fileIndex == file.index }
                guard mine.count == 1, let record = mine.first else {
                    problems.append("\(file.file.relativePath): \(mine.count) results")
                    continue
                }
                problems += Self.check(record, expected: expected(file), input: file.file.relativePath)
            }
        }
        return problems
    }

    /// What the service's Assemblies say against the ledger: each one has an ID the run recorded before creating it,
    /// and no shard has more than `allowed` completed ones (one, unless its results were meant to be made again).
    func serviceProblems(_ items: [AssemblyListing.Item], completedPerShard allowed: Int = 1) -> [String] {
        let shardOf = shardOfAssembly
        var problems = items.filter { shardOf[$0.id] == nil }.map { "Assembly \($0.id) is not in the ledger" }
        let completed = Dictionary(grouping: items.filter(\.isCompleted).compactMap { shardOf[$0.id] }) { $0 }
        for shard in shards {
            let count = completed[shard.index]?.count ?? 0
            if count < 1 || count > allowed {
                problems.append("shard \(shard.index): \(count) completed Assemblies at the service")
            }
        }
        return problems
    }

    private static func check(_ record: ResultRecord, expected: (width: Int, height: Int), input: String) -> [String] {
        let result = record.result
        guard record.isDownloaded, let path = result.outputPath else { return ["\(input): result not downloaded"] }
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let size = (attributes[.size] as? NSNumber)?.int64Value else {
            return ["\(input): \(path) is missing"]
        }
        var problems: [String] = []
        if size != result.size { problems.append("\(input): \(size) bytes on disk, \(result.size.map(String.init) ?? "no size") at the service") }
        if let md5 = result.md5, (try? Hex.encode(Digest.hashFile(.md5, path: path))) != md5.lowercased() {
            problems.append("\(input): MD5 differs from the service's \(md5)")
        }
        do {
            let info = try ImageInspector.inspect(path)
            if info.width != expected.width || info.height != expected.height {
                problems.append("\(input): \(info.width)x\(info.height), expected \(expected.width)x\(expected.height)")
            }
        } catch {
            problems.append("\(input): \(path) does not decode: \(error)")
        }
        return problems
    }

    /// The size of a result of `make-sample-images.py`'s `sample-NN.png` resized to fit `box`.
    static func fitted(_ file: FileRecord, into box: (width: Int, height: Int)) -> (width: Int, height: Int) {
        let sizes = [(640, 480), (480, 640), (800, 450), (512, 512)]
        let stem = PathText.lastComponent(of: file.file.relativePath).dropFirst("sample-".count).prefix(2)
        let (width, height) = sizes[(Int(stem) ?? 0) % sizes.count]
        let scale = min(Double(box.width) / Double(width), Double(box.height) / Double(height))
        return (Int((Double(width) * scale).rounded()), Int((Double(height) * scale).rounded()))
    }
}
