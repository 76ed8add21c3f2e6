import ConfigFormat
import Foundation

/// `prune`: old runs out of the ledgers of state directories, and the embedded service's old Assemblies.
///
/// Every run created before the cutoff that is not running and not among the newest `keepLast` of its job goes with
/// all its rows; the done and known bad files no run confirmed since are forgotten (the next run sends them), but
/// never those the newest runs kept rely on. Nothing is pruned while a run of any of the state directories holds
/// its lock; with none held, runs still `running` are runs whose process is gone: recorded `interrupted` first.
package struct LedgerPrune: Sendable {
    /// What went (or, in a dry run, would go) from one state directory.
    package struct Outcome: Sendable {
        package var stateDirectory: String
        /// Whether the state directory holds a ledger at all.
        package var hadLedger: Bool
        package var runs: [RunRecord]
        /// The done files forgotten: the next run sends them again.
        package var doneFiles: Int
        /// The embedded service's stored Assemblies.
        package var assemblies: [String]
    }

    package var store: any LedgerStore
    package var embedded: any EmbeddedAssemblies
    package var clock: any PipelineClock

    package init(store: any LedgerStore, embedded: any EmbeddedAssemblies, clock: any PipelineClock) {
        self.store = store
        self.embedded = embedded
        self.clock = clock
    }

    /// Prunes what in `stateDirectories` is older than `age`, telling `each` directory's outcome as it is done;
    /// with `dryRun`, changes nothing and tells what would go.
    ///
    /// - Throws: ``RunSessionError/locked(path:holder:)`` before anything is read when a run holds a lock of one of them.
    package func prune(_ stateDirectories: [String], olderThan age: Duration, keepLast: Int, dryRun: Bool,
                       each: (Outcome) -> Void) async throws {
        for directory in stateDirectories {
            if let held = RunLock.heldLock(inStateDirectory: directory) {
                throw RunSessionError.locked(path: held, holder: "a run of this state directory is going; prune when it is done")
            }
        }
        let cutoff = clock.now.addingTimeInterval(-age.timeInterval)
        for directory in stateDirectories {
            let hadLedger = store.hasLedger(in: directory)
            let pruning = !hadLedger ? LedgerPruning(runs: [], doneFiles: 0, badFiles: 0) : try await store.withLedger(in: directory) { ledger in
                let running = try await ledger.recentRuns(limit: Int(Int32.max), matching: RunFilter(state: .running))
                let gone = running.filter { $0.seen(in: directory).state == .interrupted }.map(\.id)
                if !dryRun { try await ledger.recordInterrupted(gone, at: clock.now) }
                return try await ledger.prune(createdBefore: cutoff, keepingLast: keepLast, gone: dryRun ? gone : [], dryRun: dryRun)
            }
            let assemblies = embedded.stored(in: directory, lastChangedBefore: cutoff)
            if !dryRun { assemblies.forEach(embedded.remove) }
            each(Outcome(stateDirectory: directory, hadLedger: hadLedger, runs: pruning.runs.map { $0.seen(in: directory) }, doneFiles: pruning.doneFiles, assemblies: assemblies))
        }
    }
}
