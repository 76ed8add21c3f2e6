import Foundation

/// One result file as the `results` table holds it, with its download state.
public struct ResultRecord: Sendable, Hashable, Codable {
    /// The ledger's own number for the result (`results.id`), used to record its download.
    public var id: Int64
    public var shardIndex: Int
    /// The attempt whose Assembly produced it.
    public var attempt: Int
    public var result: NewResult
    /// When the download was verified and moved into place; nil while pending.
    public var downloadedAt: Date?

    public init(id: Int64, shardIndex: Int, attempt: Int, result: NewResult, downloadedAt: Date?) {
        self.id = id
        self.shardIndex = shardIndex
        self.attempt = attempt
        self.result = result
        self.downloadedAt = downloadedAt
    }

    public var isDownloaded: Bool { downloadedAt != nil }
}
