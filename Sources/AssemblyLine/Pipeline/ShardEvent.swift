/// Something that happened to a shard, for progress lines and logs; the ledger holds the facts.
package struct ShardEvent: Sendable, Hashable {
    /// What kind of step it was.
    package enum Kind: String, Sendable, Hashable {
        case started, signed, created, uploaded, executing, completed, downloaded, retrying, restarted, failed
        /// One input failed alone (a corrupt file); the shard goes on without it.
        case fileFailed = "file-failed"
    }

    package var shard: Int
    package var kind: Kind
    package var detail: String
    /// The input it is about (its path relative to the base), when it is about one.
    package var file: String?
    /// Why it failed, for `failed` and `file-failed`.
    package var failure: FailureReason?

    package init(shard: Int, kind: Kind, detail: String = "", file: String? = nil, failure: FailureReason? = nil) {
        self.shard = shard
        self.kind = kind
        self.detail = detail
        self.file = file
        self.failure = failure
    }
}
