/// Something that happened to a shard, for progress lines and logs; the ledger holds the facts.
///
/// It carries codes and figures, never wording: the CLI words it for a terminal or a JSON line.
package struct ShardEvent: Sendable, Hashable {
    /// What kind of step it was.
    package enum Kind: String, Sendable, Hashable {
        case started, signed, created, uploaded, executing, completed, downloaded, retrying, restarted, failed
        /// One input failed alone (a corrupt file); the shard goes on without it.
        case fileFailed = "file-failed"
    }

    /// What there is to say about the step beyond its kind.
    package enum Detail: Sendable, Hashable {
        case none
        /// A new attempt's Assembly ID, written before anything is sent.
        case intent(AssemblyID)
        /// The Assembly ID the service's answer names (empty when it names none).
        case assembly(String)
        /// A failed shard goes back to this Assembly (`at` is `completed`: its results are downloaded; `executing`: it is polled).
        case reopened(AssemblyID, at: ShardState)
        /// The tus step: files uploaded, bytes sent, files resumed rather than created.
        case uploadedOverTus(TusUploadTotals)
        /// The tus step found every file in the Assembly already.
        case everyFileArrived
        /// A resume found the Assembly completed: every upload had arrived before the stop.
        case completedBeforeRecorded
        /// The Assembly completed with `count` results; `unreadable` entries of its status were left out,
        /// `unmatched` results named no input of the Assembly (recorded, never a file's).
        case results(count: Int, unreadable: Int, unmatched: Int)
        /// The shard's results are in place: `count` were to download.
        case downloads(count: Int)
        /// A failed step is tried again: try `number` of `of`, after `wait`.
        case retry(FailureReason, number: Int, of: Int, wait: Duration)
        /// The service said slow down: creations wait `wait`.
        case rateLimited(FailureCode, wait: Duration)
        /// A new attempt replays the failed Assembly `parent` on the uploads the service stored (nothing is uploaded again).
        case replaying(parent: AssemblyID)
        /// `parent` is not replayed: the service refused (`ASSEMBLY_CANNOT_BE_REPLAYED`, gone, a 4xx), or the Assembly does not
        /// hold every file the shard has pending; the shard creates a new Assembly with its files instead.
        case replayRefused(parent: AssemblyID, FailureReason)
        /// The Assembly's machine does not answer for it: the API host is asked.
        case askingAPIHost(unreachable: String, asking: String)
        /// The shard stopped.
        case failed(FailureReason)
        /// An input failed alone; `othersLeft` files of the shard go on in a new Assembly.
        case inputFailed(file: String, FailureReason, othersLeft: Int)
        /// The result `result` of `file` could not be its output (storage refused it, or its path was taken): the file fails alone.
        case resultRefused(file: String?, result: String, FailureReason)
    }

    package var shard: Int
    package var kind: Kind
    package var detail: Detail

    package init(shard: Int, kind: Kind, detail: Detail = .none) {
        self.shard = shard
        self.kind = kind
        self.detail = detail
    }

    /// The input it is about (its path relative to the base), when it is about one.
    package var file: String? {
        switch detail {
        case let .inputFailed(file, _, _): file
        case let .resultRefused(file, _, _): file
        default: nil
        }
    }

    /// Why it failed, for `failed` and `file-failed`.
    package var failure: FailureReason? {
        switch detail {
        case let .failed(reason), let .inputFailed(_, reason, _), let .resultRefused(_, _, reason): reason
        default: nil
        }
    }
}
