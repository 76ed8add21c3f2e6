/// A run's report with what a page of it shows besides: each attempt's phase times, the steps each shard tried
/// again, and a bounded list of its files with their outputs.
package struct RunDetail: Sendable {
    package var report: RunReport
    package var attempts: [AttemptTimes]
    package var stepRetries: [Int: Int]
    /// At most the budget's files: the report's own (those not done) first, then the first done and pending ones.
    package var files: [ReportedFile]

    /// Reads the detail of `report`'s run from `ledger`, listing at most `budget` files.
    package static func read(_ report: RunReport, from ledger: any LedgerQueries, files budget: Int) async throws -> RunDetail {
        let run = report.run.id
        var files = report.files.prefix(budget).map { ReportedFile(record: $0, outputs: []) }
        var cursor = report.shards.startIndex
        while files.count < budget, cursor < report.shards.endIndex {
            var end = cursor, count = 0
            while end < report.shards.endIndex, count < budget - files.count {
                count += report.shards[end].fileCount
                end += 1
            }
            let page = try await ledger.reportedFiles(of: run, shards: report.shards[cursor].index...report.shards[end - 1].index)
            files += page.files.filter { [.done, .pending].contains($0.record.state) }.prefix(budget - files.count)
            cursor = end
        }
        return RunDetail(report: report, attempts: try await ledger.attemptTimes(of: run), stepRetries: try await ledger.stepRetries(of: run),
                         files: files)
    }
}
