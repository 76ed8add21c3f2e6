import Synchronization

/// Whether a run still creates Assemblies: open until something says no more, then closed for good, with why.
///
/// A closed gate stops each shard before its next creation (before it records a new attempt, or before the
/// creating request): the shard stays where the ledger has it, its files pending, for a resume. Shards whose
/// Assembly exists go on to their end (``ShardStateMachine`` decides both, on ``ShardStateMachine/Event/creationsStopped``).
package final class CreationGate: Sendable {
    private let reason = Mutex<CreationStop?>(nil)

    /// An open gate, or one closed from the start (a takeover only follows the Assemblies a run made).
    package init(closed stop: CreationStop? = nil) {
        reason.withLock { $0 = stop }
    }

    /// Why creations stopped; nil while they go on.
    package var stop: CreationStop? { reason.withLock { $0 } }

    /// Whether a shard may still replay a failed Assembly: while creations go on, and in a takeover, which follows the
    /// Assemblies a killed run made (a replay uploads nothing and follows one of them); not once the breaker tripped or a
    /// local fault closed the gate, since a replay would meet the same end.
    package var allowsReplays: Bool {
        switch stop {
        case nil, .followingOnly?: true
        case .breaker?, .localFault?: false
        }
    }

    /// Closes the gate; the first reason is the one kept.
    package func close(_ stop: CreationStop) {
        reason.withLock { $0 = $0 ?? stop }
    }
}

/// Why a run stopped creating Assemblies.
package enum CreationStop: Sendable, Hashable {
    /// The failure breaker tripped: the run's first `shards` shards to end all failed with `code`, which a retry does not mend.
    case breaker(FailureCode, shards: Int)
    /// A fault of this host that fails every shard alike (no room, no permission, a read-only file system on the output).
    case localFault(FailureReason)
    /// A takeover follows the Assemblies a killed run made, and makes none of its own.
    case followingOnly
}
