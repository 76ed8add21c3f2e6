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

    package init(shard: Int, kind: Kind, detail: String = "") {
        self.shard = shard
        self.kind = kind
        self.detail = detail
    }
}
