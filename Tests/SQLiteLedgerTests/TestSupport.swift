import AssemblyLine
import Foundation
import SQLiteLedger
import TestSupport

extension TemporaryDirectory {
    /// The ledger file of this directory used as a state directory.
    var ledgerPath: String { SQLiteLedger.path(inStateDirectory: path) }
}

enum Fixture {
    /// 2026-11-30T21:05:01.000Z, plus `seconds`.
    static func time(_ seconds: Double = 0) -> Date {
        Date(timeIntervalSince1970: 1_796_072_701 + seconds)
    }

    /// A plan of `shards` shards of `filesPerShard` files each, with sizes 100, 101, ... bytes.
    static func plan(shards: Int, filesPerShard: Int) -> Plan {
        var number = 0
        return Plan(shards: (0..<shards).map { index in
            Shard(index: index, files: (0..<filesPerShard).map { _ in
                defer { number += 1 }
                return PlannedFile(path: "/data/in/photo-\(number).jpg", relativePath: "photo-\(number).jpg",
                                   size: Int64(100 + number), modifiedNanoseconds: 1_700_000_000_000_000_000 + Int64(number))
            })
        })
    }

    static func newRun(_ plan: Plan, id: RunID = RunID.generate(at: time()), skippedCount: Int = 0, review: DoneIndexReview? = nil,
                       knownBad: [KnownBadFile] = [], manifest: String = "/etc/assemblyline/nightly.yaml",
                       recipe: String = "sha256:recipe-a", at created: Date = time()) -> NewRun {
        NewRun(id: id, manifestPath: manifest, manifestName: "nightly", recipeFingerprint: recipe, plan: plan,
               skippedCount: skippedCount, review: review, knownBad: knownBad, createdAt: created)
    }

    static let resizeError = FailureReason(code: "IMAGE_RESIZE_ERROR", message: "the file could not be decoded",
                                           isRetryable: false)
    static let unavailable = FailureReason(code: "HTTP_503", message: "service unavailable", isRetryable: true)
}

/// A ledger on a fresh file holding one run of two shards of three files.
struct LedgerWithRun {
    let directory: TemporaryDirectory
    let ledger: SQLiteLedger
    let run: RunID

    init() async throws {
        directory = try TemporaryDirectory()
        ledger = try await SQLiteLedger.open(path: directory.ledgerPath)
        run = try await ledger.createRun(Fixture.newRun(Fixture.plan(shards: 2, filesPerShard: 3))).id
    }
}
