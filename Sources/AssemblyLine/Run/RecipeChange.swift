/// The recipe of a job's newest run when it is not the manifest's (an edited Template file, resize, steps or fields):
/// the files done under it are made again, unless the operator accepts the change (`--accept-recipe`).
package struct RecipeChange: Sendable, Hashable {
    /// The job's newest run, made under the earlier recipe.
    package var run: RunID
    /// The earlier recipe's fingerprint.
    package var earlierRecipe: String
    /// Whether the files done under the earlier recipe count as done under this one.
    package var accepted: Bool
    /// The files of the plan done under the earlier recipe that this run sends again; none of them when accepted,
    /// unless their outputs are missing or changed.
    package var remade: Int = 0
    /// The files of the plan skipped because the change was accepted.
    package var carried: Int = 0

    package init(run: RunID, earlierRecipe: String, accepted: Bool) {
        self.run = run
        self.earlierRecipe = earlierRecipe
        self.accepted = accepted
    }

    /// This change counted against `incremental`, read with the earlier recipe's sets: which files they hold it sends
    /// again, and which it skips by their entries (carried over by acceptance).
    func counted(in incremental: IncrementalPlan) -> RecipeChange {
        var counted = self
        counted.remade = incremental.remade
        counted.carried = incremental.carried
        return counted
    }
}
