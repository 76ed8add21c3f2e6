import Foundation

/// One line of a run's history, as the `events` table holds it.
///
/// The ledger writes `run.created`, `run.state`, `shard.state`, `attempt.started` and
/// `files.failed` itself; the pipeline adds its own kinds (retries, rate limits, ...).
package struct EventRecord: Sendable, Hashable {
    /// The ledger's own number for the event; it grows with time.
    package var id: Int64
    package var shardIndex: Int?
    package var at: Date
    /// A dotted lowercase name such as `shard.state`.
    package var kind: String
    /// One line for people. Never a secret, token or signature.
    package var message: String

    package init(id: Int64, shardIndex: Int?, at: Date, kind: String, message: String) {
        self.id = id
        self.shardIndex = shardIndex
        self.at = at
        self.kind = kind
        self.message = message
    }
}
