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
package struct IncrementalPlan: Sendable, Hashable {
    /// The shards to send.
    package let plan: Plan
    /// The files left out as done, in plan order.
    package let skipped: [PlannedFile]
    /// The files left out as known bad, in plan order.
    package let knownBad: [KnownBadFile]
    /// The files done before whose outputs are missing or changed: they run again, in plan order.
    package let redone: [Redone]
    /// The done index's entries whose standing this night changes: missed (not skipped) or regained.
    package let review: DoneIndexReview

    /// A file done before that runs again, and what is wrong with its outputs.
    package struct Redone: Sendable, Hashable {
        package var file: PlannedFile
        package var findings: [OutputCheck.Finding]
    }

    /// `plan` without the files in `done` whose outputs pass `check` and without those in `bad`,
    /// re-sharded within `limits` when any were taken out.
    package init(_ plan: Plan, done: [FileIdentity: CompletedFile], bad: [FileIdentity: FailureReason] = [:], check: OutputCheck,
                 limits: ShardLimits) {
        // Nothing done or failed before (a first run, --force): the plan as it is, without a second copy of a million files.
        guard !done.isEmpty || !bad.isEmpty else {
            self.plan = plan
            skipped = []
            knownBad = []
            redone = []
            review = DoneIndexReview()
            return
        }
        var skipped: [PlannedFile] = [], knownBad: [KnownBadFile] = [], redone: [Redone] = []
        let recorded = Array(plan.shards.lazy.flatMap(\.files).map { done[FileIdentity($0)] })
        var isSent = [Bool](repeating: false, count: recorded.count)
        // Every output checked at once, on every core; then the files in plan order.
        let problems = check.findings(ofEach: recorded.map { $0?.outputs ?? [] })
        var review = DoneIndexReview(), skippedEntries = Set<Int64>(minimumCapacity: recorded.count)
        for (position, file) in plan.shards.lazy.flatMap(\.files).enumerated() {
            guard let entry = recorded[position] else {
                if let reason = bad[FileIdentity(file)] {
                    knownBad.append(KnownBadFile(file: file, reason: reason))
                } else {
                    isSent[position] = true
                }
                continue
            }
            let findings = problems[position] ?? []
            if findings.isEmpty {
                skipped.append(file)
                skippedEntries.insert(entry.entry)
                if entry.missed { review.regained.append(entry.entry) }
            } else {
                redone.append(Redone(file: file, findings: findings))
                isSent[position] = true
            }
        }
        self.skipped = skipped
        self.knownBad = knownBad
        self.redone = redone
        // Missed: every entry of the index the night did not skip (redone, changed, or gone from the plan), unless missed already.
        review.missed = done.values.lazy.filter { !$0.missed && !skippedEntries.contains($0.entry) }.map(\.entry).sorted()
        self.review = review
        self.plan = skipped.isEmpty && knownBad.isEmpty ? plan : plan.resharded(limits: limits) { position, _ in isSent[position] }
    }
}
