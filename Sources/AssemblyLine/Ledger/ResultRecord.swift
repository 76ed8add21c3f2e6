package import Foundation

/// One result file as the `results` table holds it, with its download state.
package struct ResultRecord: Sendable, Hashable {
    /// The ledger's own number for the result (`results.id`), used to record its download.
    package var id: Int64
    package var shardIndex: Int
    /// The attempt whose Assembly produced it.
    package var attempt: Int
    package var result: NewResult
    /// When the download was verified and moved into place; nil while pending, and for a result not downloaded.
    package var downloadedAt: Date?
    /// How often it was fetched, across tries and resumes (temporary files refuse more than 10 fetches).
    package var fetches: Int

    package init(id: Int64, shardIndex: Int, attempt: Int, result: NewResult, downloadedAt: Date?, fetches: Int = 0) {
        self.id = id
        self.shardIndex = shardIndex
        self.attempt = attempt
        self.result = result
        self.downloadedAt = downloadedAt
        self.fetches = fetches
    }

    package var isDownloaded: Bool { downloadedAt != nil }

    /// True while it is to be downloaded and is not on disk yet.
    package var needsDownload: Bool { result.outputPath != nil && downloadedAt == nil }
}

extension ResultRecord {
    /// The path a download went to, else the URL where the result is: what a report shows as the output.
    package var destination: String {
        result.outputPath ?? result.url ?? ""
    }
}
