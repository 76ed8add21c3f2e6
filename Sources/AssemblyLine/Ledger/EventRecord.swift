package import Foundation

/// One line of a run's history, as the `events` table holds it.
///
/// The ledger writes the state changes itself; the pipeline adds its notes (``LedgerNote``: retries,
/// cancelled Assemblies, ended streams).
package struct EventRecord: Sendable, Hashable {
    /// The ledger's own number for the event; it grows with time.
    package var id: Int64
    package var shardIndex: Int?
    package var at: Date
    package var kind: LedgerEventKind
    /// One line for people. Never a secret, token or signature.
    package var message: String

    package init(id: Int64, shardIndex: Int?, at: Date, kind: LedgerEventKind, message: String) {
        self.id = id
        self.shardIndex = shardIndex
        self.at = at
        self.kind = kind
        self.message = message
    }
}
