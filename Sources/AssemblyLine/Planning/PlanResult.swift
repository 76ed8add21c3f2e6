/// What the planner produced: the plan and the entries it had to leave out.
public struct PlanResult: Sendable, Hashable {
    public var plan: Plan
    /// Unreadable directories, broken symlinks, loops and the like, sorted by path; empty when all went well.
    public var warnings: [PlanWarning]

    public init(plan: Plan, warnings: [PlanWarning]) {
        self.plan = plan
        self.warnings = warnings
    }
}
