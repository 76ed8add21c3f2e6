/// A run's plan with the files an earlier run already did taken out: what the run sends, and what it skips.
///
/// Nightly runs are incremental: a file done (or skipped as done) by an earlier run of the same
/// manifest under the same recipe is recorded as `skipped` and not sent again, as long as the
/// outputs that run recorded are still on disk as they were made (``OutputCheck``); a file whose
/// outputs are missing or changed runs again. The rest is cut into shards anew, so that the shards
/// of a mostly-done night stay full.
package struct IncrementalPlan: Sendable, Hashable {
    /// The shards to send.
    package let plan: Plan
    /// The files left out, in plan order.
    package let skipped: [PlannedFile]
    /// The files done before whose outputs are missing or changed: they run again, in plan order.
    package let redone: [Redone]

    /// A file done before that runs again, and what is wrong with its outputs.
    package struct Redone: Sendable, Hashable {
        package var file: PlannedFile
        package var findings: [OutputCheck.Finding]
    }

    /// `plan` without the files in `done` whose outputs pass `check`, re-sharded within `limits` when any were taken out.
    package init(_ plan: Plan, done: [FileIdentity: [RecordedOutput]], check: OutputCheck, limits: ShardLimits) {
        // Nothing done before (a first run, --force): the plan as it is, without a second copy of a million files.
        guard !done.isEmpty else {
            self.plan = plan
            skipped = []
            redone = []
            return
        }
        var skipped: [PlannedFile] = [], redone: [Redone] = [], sent: [PlannedFile] = []
        for file in plan.shards.lazy.flatMap(\.files) {
            guard let outputs = done[FileIdentity(file)] else {
                sent.append(file)
                continue
            }
            let findings = check.findings(outputs)
            if findings.isEmpty {
                skipped.append(file)
            } else {
                redone.append(Redone(file: file, findings: findings))
                sent.append(file)
            }
        }
        self.skipped = skipped
        self.redone = redone
        self.plan = skipped.isEmpty ? plan : Plan(sharding: sent, limits: limits)
    }
}
