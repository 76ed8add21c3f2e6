import Foundation

/// One result file as the `results` table holds it, with its download state.
package struct ResultRecord: Sendable, Hashable, Codable {
    /// The ledger's own number for the result (`results.id`), used to record its download.
    package var id: Int64
    package var shardIndex: Int
    /// The attempt whose Assembly produced it.
    package var attempt: Int
    package var result: NewResult
    /// When the download was verified and moved into place; nil while pending.
    package var downloadedAt: Date?

    package init(id: Int64, shardIndex: Int, attempt: Int, result: NewResult, downloadedAt: Date?) {
        self.id = id
        self.shardIndex = shardIndex
        self.attempt = attempt
        self.result = result
        self.downloadedAt = downloadedAt
    }

    package var isDownloaded: Bool { downloadedAt != nil }
}
