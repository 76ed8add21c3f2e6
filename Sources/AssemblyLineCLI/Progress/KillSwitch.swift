#if DEBUG
import AssemblyLine
#if canImport(Glibc)
import Glibc
#endif

/// Kills the process with SIGKILL at one pipeline checkpoint, for crash tests: `ASSEMBLYLINE_KILL_AT=POINT[:N]`.
///
/// POINT is a `PipelineCheckpoint` name (such as `mid-upload`); N (default 1) picks its N-th passage in
/// this process. Without the variable nothing is ever killed. Only debug builds have it: a release build
/// ignores the variable.
struct KillSwitch: Sendable {
    static let variable = "ASSEMBLYLINE_KILL_AT"

    let point: PipelineCheckpoint
    let passage: Int
    private let passages = PassageCounter()

    /// The switch the environment asks for, nil without one; a malformed value is a usage error.
    static func from(environment: [String: String]) throws -> KillSwitch? {
        guard let text = environment[variable] else { return nil }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        let names = PipelineCheckpoint.allCases.map(\.rawValue).joined(separator: ", ")
        guard (1...2).contains(parts.count), let point = PipelineCheckpoint(rawValue: String(parts[0])) else {
            throw UsageError("\(variable) expects POINT or POINT:N with POINT one of \(names), found '\(text)'")
        }
        guard let passage = parts.count == 2 ? Int(parts[1]) : 1, passage >= 1 else {
            throw UsageError("\(variable) expects a passage count of 1 or more after ':', found '\(text)'")
        }
        return KillSwitch(point: point, passage: passage)
    }

    /// The pipeline's checkpoint handler: counts passages of the point and kills the process at the chosen one.
    var checkpoint: @Sendable (PipelineCheckpoint) -> Void {
        { [point, passage, passages] reached in
            guard reached == point, passages.next() == passage else { return }
            kill(getpid(), SIGKILL)
        }
    }
}
#endif
