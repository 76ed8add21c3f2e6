package import Foundation

/// The runs `runs` lists: the newest of one ledger, of a partitioned manifest's parts, or every part's runs of a batch.
package struct RunListing: Sendable {
    /// A run with the state directory whose ledger holds it.
    package struct Entry: Sendable {
        package var run: RunRecord
        package var stateDirectory: String
    }

    package var entries: [Entry]
    /// Whether the runs come from several ledgers (a batch's or a partitioned manifest's parts): each then shows its
    /// partition and state directory.
    package var fromSeveralLedgers: Bool
    /// Where the runs were looked for: the ledger's path, or the parts' state directories.
    package var place: String

    /// The newest `limit` runs the locator's scope means (in `state`, started at or after `since`, when given), each as it
    /// stands (a run whose process is gone is `interrupted`: ``RunRecord/seen(in:)``).
    package static func recent(limit: Int, state: RunState?, since: Date?, at locator: LedgerLocator) async throws -> RunListing {
        var filter = locator.filter
        filter.since = since
        // A run the ledger says running may be interrupted as it stands: those two states are told apart once seen.
        let seenApart = state == .running || state == .interrupted
        filter.state = seenApart ? nil : state
        let listing = try await recent(limit: seenApart ? Int(Int32.max) : limit, matching: filter, at: locator)
        guard seenApart else { return listing }
        var kept = listing
        kept.entries = Array(listing.entries.filter { $0.run.state == state }.prefix(limit))
        return kept
    }

    /// The newest `limit` runs of `filter` in the state directories the locator's scope means.
    private static func recent(limit: Int, matching filter: RunFilter, at locator: LedgerLocator) async throws -> RunListing {
        let (directories, parts) = locator.stateDirectories()
        if parts {
            var entries: [Entry] = []
            for directory in directories {
                entries += try await locator.store.withExistingLedger(in: directory) { ledger in
                    try await ledger?.recentRuns(limit: limit, matching: filter).map { Entry(run: $0.seen(in: directory), stateDirectory: directory) } ?? []
                }
            }
            let newest = entries.sorted { ($0.run.createdAt, $0.run.id) > ($1.run.createdAt, $1.run.id) }.prefix(limit)
            return RunListing(entries: Array(newest), fromSeveralLedgers: true, place: directories.joined(separator: ", "))
        }
        let directory = try await locator.locate(nil).stateDirectory
        let entries = try await locator.store.withExistingLedger(in: directory) { ledger in
            try await ledger?.recentRuns(limit: limit, matching: filter).map { Entry(run: $0.seen(in: directory), stateDirectory: directory) } ?? []
        }
        return RunListing(entries: entries, fromSeveralLedgers: false, place: locator.store.ledgerPath(inStateDirectory: directory))
    }

    /// Every partition's runs of `batch` in `ledgers` (in `state`, when given), by partition, the newest first within one.
    package static func runs(of batch: BatchID, state: RunState?, in ledgers: LedgerSet) async throws -> RunListing {
        let entries = try await ledgers.withEach { opened in
            var entries: [Entry] = []
            for part in opened {
                entries += try await part.ledger.recentRuns(limit: 1_000, matching: RunFilter(state: state, batch: batch))
                    .map { Entry(run: $0.seen(in: part.stateDirectory), stateDirectory: part.stateDirectory) }
            }
            return entries.sorted { ($0.run.partition.index, $1.run.id.rawValue) < ($1.run.partition.index, $0.run.id.rawValue) }
        }
        return RunListing(entries: entries, fromSeveralLedgers: true, place: CountText.of(ledgers.stateDirectories.count, "ledger"))
    }
}
