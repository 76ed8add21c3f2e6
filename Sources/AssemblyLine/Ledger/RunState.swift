/// How a run as a whole stands; the raw values are what the `runs.state` column holds.
package enum RunState: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// A process is working on it, or one was killed before it could say otherwise.
    case running
    /// Every shard is done.
    case finished
    /// It ended with at least one failed shard; `resume` may complete it.
    case failed
    /// A signal or `--max-duration` stopped it; `resume` continues it.
    case interrupted
    /// An operator stopped it with `cancel`, and its live Assemblies were cancelled; final.
    case canceled
    /// Its process was killed (or it was interrupted), and a later `run` of its job took it over: that run followed
    /// the Assemblies it had made to their end and sent the rest; final (``RunRecord/supersededBy`` names it).
    case superseded

    /// Whether the ledger accepts a move from this state to `next`.
    ///
    /// A running run may end in any way, or be taken over by a resume after its process died
    /// (`running` to `running`); a failed or interrupted run may run again or be canceled; an interrupted
    /// one may be superseded; a finished, canceled or superseded run is final.
    package func canTransition(to next: RunState) -> Bool {
        switch self {
        case .running: true
        case .failed: next == .running || next == .canceled
        case .interrupted: next == .running || next == .canceled || next == .superseded
        case .finished, .canceled, .superseded: false
        }
    }

    /// Whether the run has stopped (finished, failed, interrupted, canceled or superseded).
    package var hasEnded: Bool { self != .running }

    package var description: String { rawValue }
}
