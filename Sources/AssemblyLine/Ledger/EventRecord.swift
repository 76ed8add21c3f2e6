import Foundation

/// One line of a run's history, as the `events` table holds it.
///
/// The ledger writes `run.created`, `run.state`, `shard.state`, `attempt.started` and
/// `files.failed` itself; the pipeline adds its own kinds (retries, rate limits, ...).
public struct EventRecord: Sendable, Hashable, Codable {
    /// The ledger's own number for the event; it grows with time.
    public var id: Int64
    public var shardIndex: Int?
    public var at: Date
    /// A dotted lowercase name such as `shard.state`.
    public var kind: String
    /// One line for people. Never a secret, token or signature.
    public var message: String

    public init(id: Int64, shardIndex: Int?, at: Date, kind: String, message: String) {
        self.id = id
        self.shardIndex = shardIndex
        self.at = at
        self.kind = kind
        self.message = message
    }
}
