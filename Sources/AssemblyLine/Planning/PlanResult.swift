/// What the planner produced: the plan and the entries it had to leave out.
package struct PlanResult: Sendable, Hashable {
    package var plan: Plan
    /// Unreadable directories, broken symlinks, loops and the like, sorted by path; empty when all went well.
    package var warnings: [PlanWarning]
    /// How the files of a walked plan are asked whether they can be read, once a run knows which it sends; nil for inputs
    /// that are not local files, and once asked (``checkingReadability(of:)``).
    package var readability: ReadabilityCheck?

    package init(plan: Plan, warnings: [PlanWarning], readability: ReadabilityCheck? = nil) {
        self.plan = plan
        self.warnings = warnings
        self.readability = readability
    }

    /// The result with a warning for each file of `sent` (the files of ``plan`` a run sends) this process may not read,
    /// merged into the warnings in path order; unchanged for inputs that are not local files.
    package func checkingReadability(of sent: Plan) -> PlanResult {
        guard let readability else { return self }
        var unread = readability.warnings(for: sent)[...]
        var merged: [PlanWarning] = []
        merged.reserveCapacity(warnings.count + unread.count)
        for warning in warnings {
            while let next = unread.first, PlanWarning.precedes(next, warning) {
                merged.append(next)
                unread = unread.dropFirst()
            }
            merged.append(warning)
        }
        return PlanResult(plan: plan, warnings: merged + unread)
    }
}
