import ConfigFormat

/// A line the pipeline adds to a run's history beside its state changes.
package enum LedgerNote: Sendable, Hashable {
    /// A step is tried again (``LedgerEventKind/shardRetrying``).
    case retrying(ShardEvent.Detail)
    /// An Assembly the shard gave up on was cancelled: the state the service answered with, or why the cancel failed.
    case attemptCancelled(AssemblyID, answer: Result<AssemblyState?, TransloaditError>)
    /// The change stream at `url` ended for `reason`.
    case streamEnded(url: String, reason: String)

    /// The kind of line it is.
    package var kind: LedgerEventKind {
        switch self {
        case .retrying: .shardRetrying
        case .attemptCancelled: .attemptCancelled
        case .streamEnded: .streamEnded
        }
    }

    /// The line for people, as the `events.message` column holds it.
    package var message: String {
        switch self {
        case let .retrying(.retry(reason, number, of, wait)):
            "\(reason) (try \(number) of \(of) in \(ConfigUnits.formatDuration(wait)))"
        case let .retrying(.rateLimited(code, wait)):
            "\(code): waiting \(ConfigUnits.formatDuration(wait))"
        case let .retrying(.askingAPIHost(unreachable, asking)):
            "\(unreachable) does not answer; asking \(asking)"
        case let .retrying(.replayRefused(parent, reason)):
            "Assembly \(parent) cannot be replayed (\(reason)); creating a new Assembly with the files"
        case let .retrying(detail):
            "\(detail)"
        case let .attemptCancelled(id, .success(state)):
            "Assembly \(id) abandoned, " + (state.map { "now \($0.code)" } ?? "cancelled")
        case let .attemptCancelled(id, .failure(error)):
            "Assembly \(id) abandoned, the cancel failed: \(error)"
        case let .streamEnded(url, reason):
            "the change stream \(url) ended (\(reason)); polling instead"
        }
    }
}
