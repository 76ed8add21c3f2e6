/// A run's plan with the files an earlier run already did, or failed for a reason of their own, taken
/// out: what the run sends, and what it skips.
///
/// Nightly runs are incremental: a file done (or skipped as done) by an earlier run of the same
/// manifest under the same recipe is recorded as `skipped` and not sent again, as long as the
/// outputs that run recorded are still on disk as they were made (``OutputCheck``); a file whose
/// outputs are missing or changed runs again. A file an earlier run failed for a reason of its own
/// and that is unchanged (``KnownBadFile``) is recorded as `known_bad` and not sent. The rest is cut
/// into shards anew, so that the shards of a mostly-done night stay full. What the done index must
/// learn from the night is its ``review``.
///
/// The done index is read a page at a time in path order, merged against the plan (``DoneIndexMerge``):
/// a night of a million unchanged files holds its plan and a byte a file, not the index.
package struct IncrementalPlan: Sendable, Hashable {
    /// The shards to send.
    package let plan: Plan
    /// How many files are left out as done.
    package let skippedCount: Int
    /// The files left out as known bad, in plan order.
    package let knownBad: [KnownBadFile]
    /// The files done before whose outputs are missing or changed: they run again, in plan order.
    package let redone: [Redone]
    /// The done index's entries whose standing this night changes: missed (not skipped) or regained.
    package let review: DoneIndexReview
    /// Of the files skipped, those skipped by an entry of the job's earlier recipe (an accepted recipe change).
    package let carried: Int
    /// Of the files sent, those a set of the job's earlier recipe holds as done.
    package let remade: Int
    /// Whether each file of the plan read is skipped, by position.
    private let isSkipped: [Bool]

    /// A file done before that runs again, and what is wrong with its outputs.
    package struct Redone: Sendable, Hashable {
        package var file: PlannedFile
        package var findings: [OutputCheck.Finding]
    }

    /// `plan` without the files the done index's `sets` hold whose outputs pass `check`, nor those in `bad`,
    /// re-sharded within `limits` when any were taken out. The sets are read in order from `index` (nil: there is no
    /// ledger yet, so nothing was done), `pageSize` files at a time; a file two sets hold keeps the first's entry.
    package static func reading(_ plan: Plan, sets: [DoneIndexSet], from index: (any DoneIndexPages)?,
                                bad: [FileIdentity: FailureReason] = [:], check: OutputCheck, limits: ShardLimits,
                                pageSize: Int = DoneIndexSet.pageSize) async throws -> IncrementalPlan {
        var merge = DoneIndexMerge(plan: plan, check: check)
        for set in sets {
            guard let index else { break }
            try await merge.read(set, from: index, pageSize: pageSize)
        }
        return IncrementalPlan(plan, merge: merge, bad: bad, limits: limits)
    }

    private init(_ plan: Plan, merge: DoneIndexMerge, bad: [FileIdentity: FailureReason], limits: ShardLimits) {
        var knownBad: [KnownBadFile] = [], isSent = [Bool](repeating: false, count: merge.standing.count), remade = 0
        for (position, file) in plan.shards.lazy.flatMap(\.files).enumerated() {
            let standing = merge.standing[position]
            guard !standing.contains(.skipped) else { continue }
            if !standing.contains(.redone), !bad.isEmpty, let reason = bad[FileIdentity(file)] {
                knownBad.append(KnownBadFile(file: file, reason: reason))
                continue
            }
            isSent[position] = true
            if standing.contains(.heldEarlier) { remade += 1 }
        }
        self.knownBad = knownBad
        skippedCount = merge.skippedCount
        carried = merge.carried
        self.remade = remade
        redone = merge.redone.sorted { $0.position < $1.position }.map { Redone(file: merge.file(at: $0.position), findings: $0.findings) }
        review = DoneIndexReview(missed: merge.missed.sorted(), regained: merge.regained.sorted())
        isSkipped = merge.standing.map { $0.contains(.skipped) }
        self.plan = skippedCount == 0 && knownBad.isEmpty ? plan : plan.resharded(limits: limits) { position, _ in isSent[position] }
    }

    /// The files of `planned` (the plan this was read from) left out as done, in plan order.
    package func skipped(from planned: Plan) -> [PlannedFile] {
        planned.shards.lazy.flatMap(\.files).enumerated().filter { isSkipped[$0.offset] }.map(\.element)
    }
}
