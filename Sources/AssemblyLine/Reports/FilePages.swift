/// A run's files with where their outputs went, in file order, a page at a time: what `report --format csv|json` writes as it reads.
package enum FilePages: Sendable {
    /// Every file of the run, read from the ledger in pages of consecutive shards of about ``filesPerPage``
    /// files, then the files in no shard; one page held at a time.
    case everyFile(any LedgerQueries, RunID, shards: [ShardRecord])
    /// These files, as one page.
    case these([ReportedFile])

    /// About how many files a page read from the ledger holds (a shard is never split).
    package static let filesPerPage = 2_000

    /// Calls `body` with each page in turn; the ledger reads the next page while `body` writes this one.
    package func forEach(_ body: (ReportedFilePage) throws -> Void) async throws {
        switch self {
        case .these(let files):
            try body(ReportedFilePage(files))
        case let .everyFile(ledger, run, shards):
            var pages: [ClosedRange<Int>?] = []
            var start = shards.startIndex
            while start < shards.endIndex {
                var end = start, count = 0
                while end < shards.endIndex, count == 0 || count + shards[end].fileCount <= Self.filesPerPage {
                    count += shards[end].fileCount
                    end += 1
                }
                pages.append(shards[start].index...shards[end - 1].index)
                start = end
            }
            pages.append(nil)
            func read(_ page: ClosedRange<Int>?) -> Task<ReportedFilePage, any Error> {
                Task { try await ledger.reportedFiles(of: run, shards: page) }
            }
            var next: Task<ReportedFilePage, any Error>? = read(pages[0])
            var position = 0
            defer { next?.cancel() }
            while let reading = next {
                position += 1
                next = position < pages.count ? read(pages[position]) : nil
                try body(try await reading.value)
            }
        }
    }
}
