/// A run's plan with the files an earlier run already did taken out: what the run sends, and what it skips.
///
/// Nightly runs are incremental: a file done (or skipped as done) by an earlier run of the same
/// manifest under the same recipe is recorded as `skipped` and not sent again; the rest is cut
/// into shards anew, so that the shards of a mostly-done night stay full.
package struct IncrementalPlan: Sendable, Hashable {
    /// The shards to send.
    package let plan: Plan
    /// The files left out, in plan order.
    package let skipped: [PlannedFile]

    /// `plan` without the files in `done`, re-sharded within `limits` when any were taken out.
    package init(_ plan: Plan, done: Set<FileIdentity>, limits: ShardLimits) {
        let files = plan.shards.flatMap(\.files)
        skipped = files.filter { done.contains(FileIdentity($0)) }
        self.plan = skipped.isEmpty ? plan : Plan(sharding: files.filter { !done.contains(FileIdentity($0)) }, limits: limits)
    }
}
