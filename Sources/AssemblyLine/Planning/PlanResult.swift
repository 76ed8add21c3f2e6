/// What the planner produced: the plan and the entries it had to leave out.
package struct PlanResult: Sendable, Hashable {
    package var plan: Plan
    /// Unreadable directories, broken symlinks, loops and the like, sorted by path; empty when all went well.
    package var warnings: [PlanWarning]

    package init(plan: Plan, warnings: [PlanWarning]) {
        self.plan = plan
        self.warnings = warnings
    }
}
