/// Where the ledger of a run is, for the commands that read one (`report`, `resume`, `cancel`, `check`, `runs`).
///
/// The scope decides (``LedgerScope``): a state directory named is the one; a manifest's is its `state_dir`,
/// or, when that names `{partition}`, every part's (`{partition}` read as `*`): a run is looked for in each
/// part's ledger, and `latest` is the newest run among them. With neither, a run ID is looked up in the run
/// index, and the newest run is the default state directory's when that holds a ledger, else the index's newest.
package struct LedgerLocator: Sendable {
    package var scope: LedgerScope
    package var store: any LedgerStore

    package init(scope: LedgerScope, store: any LedgerStore) {
        self.scope = scope
        self.store = store
    }

    /// The runs a `latest` or a listing means: with a manifest, its job's only.
    package var filter: RunFilter {
        guard case .manifest(let manifest) = scope else { return RunFilter() }
        return RunFilter(job: manifest.job)
    }

    /// The state directories meant, and whether they are a partitioned manifest's parts: those of its parts that
    /// hold a ledger (the pattern itself when none does, for the message that there is no ledger).
    package func stateDirectories() -> (directories: [String], parts: Bool) {
        switch scope {
        case .stateDirectory(let directory): return ([directory], false)
        case .unnamed(let directory, _): return ([directory], false)
        case .manifest(let manifest):
            guard manifest.namesPartitionStateDir else { return ([manifest.stateDir], false) }
            let parts = PathGlob.expand(manifest.stateDirOfEveryPart).sorted().filter(store.hasLedger(in:))
            return (parts.isEmpty ? [manifest.stateDirOfEveryPart] : parts, true)
        }
    }

    /// The state directory that holds `run` (nil: the newest run), and the run meant when it is known by then.
    ///
    /// - Throws: ``LedgerError/runNotFound(_:)`` for a run no part's ledger holds.
    package func locate(_ run: RunID?) async throws -> (stateDirectory: String, run: RunID?) {
        let (directories, parts) = stateDirectories()
        if parts, directories.count > 1 { return try await locate(run, among: directories) }
        let only = directories[0]
        guard case .unnamed(_, let index) = scope else { return (only, run) }
        if run == nil, store.hasLedger(in: only) { return (only, nil) }
        guard let found = index.find(run) else { return (only, run) }
        return (found.stateDirectory, found.run)
    }

    /// The part's state directory whose ledger holds `run`, or for nil the one with the newest run of the filter.
    private func locate(_ run: RunID?, among directories: [String]) async throws -> (stateDirectory: String, run: RunID?) {
        var newest: (stateDirectory: String, run: RunRecord)?
        for directory in directories {
            let found = try await store.withExistingLedger(in: directory) { [filter] ledger -> RunRecord? in
                guard let ledger else { return nil }
                guard let run else { return try await ledger.latestRun(matching: filter) }
                do {
                    return try await ledger.run(run).record
                } catch LedgerError.runNotFound {
                    return nil
                }
            }
            guard let found else { continue }
            if run != nil { return (directory, run) }
            if newest.map({ ($0.run.createdAt, $0.run.id) < (found.createdAt, found.id) }) ?? true { newest = (directory, found) }
        }
        if let run { throw LedgerError.runNotFound(run) }
        return (newest?.stateDirectory ?? directories[0], newest?.run.id)
    }

    /// Gives `body` the ledger holding `run` (nil: the newest run) opened read-only, with the run's ID and the
    /// state directory it is in, and closes the ledger after.
    ///
    /// - Throws: ``LedgerReadError/noLedger(path:hint:)`` where there is none, ``RunSessionError/noRuns(path:)``
    ///   for the newest run of a ledger without runs.
    package func withRun<T: Sendable>(_ run: RunID?, _ body: (any LedgerQueries, RunID, String) async throws -> T) async throws -> T {
        let (directory, meant) = try await locate(run)
        let path = store.ledgerPath(inStateDirectory: directory)
        return try await store.withExistingLedger(in: directory) { [filter] ledger in
            guard let ledger else { throw LedgerReadError.noLedger(path: "at \(path)", hint: "no run has been recorded there") }
            if let meant { return try await body(ledger, meant, directory) }
            guard let newest = try await ledger.latestRun(matching: filter)?.id else { throw RunSessionError.noRuns(path: path) }
            return try await body(ledger, newest, directory)
        }
    }

    /// Gives `body` a further read-only connection to the ledger of `directory` (none when there is no ledger there): a
    /// CSV or JSON report reads every other page of a run's files on it, on a thread of its own, while the first
    /// connection reads the next (``FilePages/everyFile(_:_:shards:alongside:)``; SQLite's stepping was most of a
    /// million files' report, on one thread).
    package func withSecondReader<T: Sendable>(of directory: String, _ body: ([any LedgerQueries]) async throws -> T) async throws -> T {
        try await store.withExistingLedger(in: directory) { try await body($0.map { [$0] } ?? []) }
    }
}
