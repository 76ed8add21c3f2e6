/// The ledgers of several state directories, read together: a batch's partitions, or the nights of a history.
///
/// Each pattern is a directory or a glob such as `/shared/state/*` (a scheduler's or cron's command line may
/// pass it quoted); each directory it names that holds a ledger counts, the others are passed over.
package struct LedgerSet: Sendable {
    /// The state directories that hold a ledger, sorted.
    package let stateDirectories: [String]
    private let store: any LedgerStore

    /// The ledgers the absolute `patterns` name.
    package init(patterns: [String], store: any LedgerStore) {
        self.store = store
        stateDirectories = Array(Set(patterns.flatMap(PathGlob.expand))).sorted().filter(store.hasLedger(in:))
    }

    /// Gives `body` every ledger opened read-only, in order, and closes them after (a merged report streams from
    /// each in turn); a ledger gone since the set was made is passed over.
    package func withEach<T: Sendable>(_ body: ([OpenedLedger]) async throws -> T) async throws -> T {
        try await open(stateDirectories[...], opened: [], body)
    }

    private func open<T: Sendable>(_ rest: ArraySlice<String>, opened: [OpenedLedger],
                                   _ body: ([OpenedLedger]) async throws -> T) async throws -> T {
        guard let directory = rest.first else { return try await body(opened) }
        return try await store.withExistingLedger(in: directory) { ledger in
            let opened = opened + (ledger.map { [OpenedLedger($0, stateDirectory: directory)] } ?? [])
            return try await open(rest.dropFirst(), opened: opened, body)
        }
    }
}
