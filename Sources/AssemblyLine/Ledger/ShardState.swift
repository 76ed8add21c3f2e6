/// Where one shard stands in its life, as the ledger records it (DESIGN.md §2).
///
/// ```
/// planned ─► signed ─► created ─► uploaded ─► executing ─► completed ─► downloaded (done)
///    │          │          │          │            │            │
///    └──────────┴──────────┴──► failed(code, message, retryable) ◄──┘
/// ```
///
/// The raw values are what the `shards.state` column holds.
package enum ShardState: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// In the plan; no attempt has been signed yet (or a retry starts over).
    case planned
    /// An attempt has an Assembly ID in the ledger and signed params; nothing is sent yet.
    case signed
    /// The service accepted the Assembly (its URL is known).
    case created
    /// Every file of the shard has reached the service.
    case uploaded
    /// The service reports the Assembly as executing.
    case executing
    /// The Assembly finished and its results are in the ledger, not yet downloaded.
    case completed
    /// Every result is downloaded and verified: the shard is done.
    case downloaded
    /// The shard stopped with an error; `resume` may start it over.
    case failed

    /// The states a shard may move to from this one.
    ///
    /// Forward along the chain, with skips between `created` and `completed` (a multipart
    /// creation uploads the files, and a fast Assembly may already be done when it answers);
    /// to `failed` from any unfinished state; back to `planned` to start a new attempt
    /// (a retry, a resume of a failed shard, or results past their lifetime); and, only by
    /// `ShardTransition.reopened`, from `failed` back to the last attempt's Assembly (`executing`
    /// to poll it again, `completed` to download its results). `downloaded` is final.
    package var successors: Set<ShardState> {
        switch self {
        case .planned: [.signed, .failed]
        case .signed: [.created, .failed, .planned]
        case .created: [.uploaded, .executing, .completed, .failed, .planned]
        case .uploaded: [.executing, .completed, .failed, .planned]
        case .executing: [.completed, .failed, .planned]
        case .completed: [.downloaded, .failed, .planned]
        case .downloaded: []
        case .failed: [.planned, .executing, .completed]
        }
    }

    /// Whether the ledger accepts a move from this state to `next`.
    package func canTransition(to next: ShardState) -> Bool {
        successors.contains(next)
    }

    /// Whether the shard has nothing left to do.
    package var isDone: Bool { self == .downloaded }

    package var description: String { rawValue }
}
