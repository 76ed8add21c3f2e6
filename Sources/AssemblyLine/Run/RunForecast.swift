/// What a run of a manifest would send and skip, and why: what `plan` and `run --dry-run` show, and what `run` records.
package struct RunForecast: Sendable, Hashable {
    /// The inputs as planned, with the warnings of the walk.
    package var planned: PlanResult
    /// The plan without the files an earlier run did.
    package var incremental: IncrementalPlan
    /// Whether outputs of skipped files were checked by MD5 too (else by size).
    package var checksums: Bool
    /// The usage the run is expected to cost, from past runs.
    package var usage: UsageForecast
    /// The job's newest run was made under another recipe: what that makes again, or carries over when accepted.
    package var recipeChange: RecipeChange?

    package init(planned: PlanResult, incremental: IncrementalPlan, checksums: Bool, usage: UsageForecast.Basis? = nil) {
        self.planned = planned
        self.incremental = incremental
        self.checksums = checksums
        self.usage = UsageForecast(bytesToSend: incremental.plan.bytes, basis: usage)
    }
}
