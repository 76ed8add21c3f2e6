/// How one attempt (one Assembly ID) of a shard ended; the raw values are what `attempts.outcome` holds.
package enum AttemptOutcome: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The shard's current attempt, still going.
    case open
    /// Its Assembly completed and the results are in the ledger.
    case completed
    /// The shard failed during this attempt.
    case failed
    /// A newer attempt replaced it (a retry, or a restart of the shard).
    case superseded

    package var description: String { rawValue }
}
