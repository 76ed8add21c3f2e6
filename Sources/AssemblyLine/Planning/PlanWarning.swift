/// An entry the planner could not read or follow; the plan is still made without it.
///
/// Warnings are part of the planner's result so the CLI can print them and the operator can
/// see which directories or files were left out (e.g. a directory without read permission).
package struct PlanWarning: Sendable, Hashable, CustomStringConvertible {
    /// The path as walked (through symlinks, not resolved).
    package var path: String
    /// What went wrong, e.g. "cannot read directory: Permission denied".
    package var problem: String

    package init(path: String, problem: String) {
        self.path = path
        self.problem = problem
    }

    package var description: String { "\(path): \(problem)" }

    /// The order warnings are told in: by path, byte-wise, then by problem.
    static func precedes(_ lhs: PlanWarning, _ rhs: PlanWarning) -> Bool {
        PathText.same(lhs.path, rhs.path) ? lhs.problem < rhs.problem : PathText.precedes(lhs.path, rhs.path)
    }
}
