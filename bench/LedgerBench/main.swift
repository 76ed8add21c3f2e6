import AssemblyLine
import Foundation
import SQLiteLedger

/// Times recording a run of N files (default 100,000) with its whole plan, in one transaction, in a fresh ledger.
///
/// Usage: ledger-bench [FILES] [FILES_PER_SHARD]; prints the seconds taken and the ledger's size.
let arguments = CommandLine.arguments
let fileCount = arguments.count > 1 ? Int(arguments[1]) ?? 100_000 : 100_000
let perShard = arguments.count > 2 ? Int(arguments[2]) ?? 50 : 50

let files = (0..<fileCount).map { index in
    PlannedFile(path: "/data/in/d\(index / 1_000)/img\(index).jpg", relativePath: "d\(index / 1_000)/img\(index).jpg",
                size: Int64(1 + index % 512), modifiedNanoseconds: 1_700_000_000_000_000_000 + Int64(index))
}
let plan = Plan(sharding: files, limits: ShardLimits(maxFiles: perShard))
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-bench-\(UUID().uuidString)").path
let ledger = try await SQLiteLedger.open(stateDirectory: directory)
let clock = ContinuousClock()
let start = clock.now
_ = try await ledger.createRun(NewRun(id: .generate(at: Date()), manifestPath: "/bench/plan.yaml", manifestName: "bench",
                                      recipeFingerprint: "bench", plan: plan, createdAt: Date()))
let elapsed = clock.now - start
await ledger.close()
let size = (try? FileManager.default.attributesOfItem(atPath: SQLiteLedger.path(inStateDirectory: directory))[.size] as? Int) ?? 0
try? FileManager.default.removeItem(atPath: directory)
print("ledger insert of \(fileCount) files in \(plan.shards.count) shards: \(elapsed.formatted(.units(allowed: [.seconds, .milliseconds]))), ledger \(size / 1_048_576) MiB")
