/// `cancel`: stops a run that is going and cancels the Assemblies it left running; the run ends canceled, which is final.
///
/// A run whose process holds its lock is recorded canceled first, so that the process, asked to stop,
/// ends it canceled and not interrupted; then the lock is waited for. Then each Assembly of the run that
/// may still be running is cancelled at the endpoint (``RunSession/cancel(_:)``), so that it stops costing
/// and counting against the account.
package struct RunCancel: Sendable {
    /// What a cancel did.
    package enum Outcome: Sendable {
        /// The run had ended in this final state: nothing to cancel.
        case alreadyEnded(RunState)
        /// The run is canceled; `cancelled` Assemblies were, and the endpoint refused `refused`.
        case canceled(cancelled: Int, refused: [RunSession.CancelRefusal])
    }

    package var store: any LedgerStore
    package var clock: any PipelineClock
    /// How long the run's process has to stop once asked.
    package var grace: Duration
    /// Asks the process with this PID to stop in order (the CLI sends SIGTERM).
    package var terminate: @Sendable (Int32) -> Void

    package init(store: any LedgerStore, clock: any PipelineClock, grace: Duration, terminate: @escaping @Sendable (Int32) -> Void) {
        self.store = store
        self.clock = clock
        self.grace = grace
        self.terminate = terminate
    }

    /// Cancels `record`'s run, recorded in `stateDirectory`: `stopping` is told the PID of its process before it is
    /// asked to stop; `session` gives the use case that cancels its Assemblies, once the process is gone.
    ///
    /// - Throws: ``RunSessionError/locked(path:holder:)`` when the process does not stop within ``grace``.
    package func cancel(_ record: RunRecord, in stateDirectory: String, stopping: (Int32) -> Void,
                        session: (RunRecord) throws -> RunSession) async throws -> Outcome {
        guard record.state.canTransition(to: .canceled) else { return .alreadyEnded(record.state) }
        let lockPath = RunLock.path(stateDirectory: stateDirectory, of: record)
        if let pid = RunLock.holder(at: lockPath, of: record.id) {
            stopping(pid)
            _ = try await store.withLedger(in: stateDirectory) { [clock] in try await $0.endRun(record.id, as: .canceled, at: clock.now) }
            terminate(pid)
            let deadline = clock.instant + grace
            while RunLock.holder(at: lockPath, of: record.id) != nil {
                guard clock.instant < deadline else {
                    throw RunSessionError.locked(path: lockPath, holder: "run \(record.id), PID \(pid), still going")
                }
                try await clock.sleep(for: .milliseconds(100))
            }
        }
        let (cancelled, refused) = try await session(record).cancel(record.id)
        return .canceled(cancelled: cancelled, refused: refused)
    }
}
