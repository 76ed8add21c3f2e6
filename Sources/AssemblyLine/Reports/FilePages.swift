/// A run's files with where their outputs went, in file order, a page at a time: what `report --format csv|json` writes as it reads.
package enum FilePages: Sendable {
    /// Every file of the run, read from the ledger in pages of consecutive shards of about ``filesPerPage``
    /// files, then the files in no shard. The ledgers `alongside` (other connections to the same file) read a page
    /// each in turn with it, on threads of their own: a page read ahead on each, the pages given in order.
    case everyFile(any LedgerQueries, RunID, shards: [ShardRecord], alongside: [any LedgerQueries] = [])
    /// These files, as one page.
    case these([ReportedFile])

    /// About how many files a page read from the ledger holds (a shard is never split).
    package static let filesPerPage = 2_000

    /// Calls `body` with each page in turn; the ledger reads the next page while `body` writes this one.
    package func forEach(_ body: (ReportedFilePage) throws -> Void) async throws {
        switch self {
        case .these(let files):
            try body(ReportedFilePage(files))
        case let .everyFile(ledger, run, shards, alongside):
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
            let readers = [ledger] + alongside
            func read(_ position: Int) -> Task<ReportedFilePage, any Error> {
                let (reader, page) = (readers[position % readers.count], pages[position])
                return Task { try await reader.reportedFiles(of: run, shards: page) }
            }
            var reading = (0..<min(readers.count, pages.count)).map(read)
            var started = reading.count
            defer { reading.forEach { $0.cancel() } }
            while !reading.isEmpty {
                let page = try await reading.removeFirst().value
                if started < pages.count {
                    reading.append(read(started))
                    started += 1
                }
                try body(page)
            }
        }
    }
}
