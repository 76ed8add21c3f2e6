/// The pages of one set of the done index, read in turn by a task of their own while earlier pages are merged: how a
/// night keeps the ledger's reads going while it checks outputs.
///
/// A page's read starts from the last file of the page before, so the reads follow one another; read one page ahead
/// of the merge, the ledger waited while a page was merged and the merge while the next was read. Here the reader
/// runs up to ``ahead`` pages before the page merged and no further: a night holds a few pages, never the index.
struct DoneIndexReadAhead {
    /// The pages read and not yet merged, at most.
    static let ahead = 2

    let set: DoneIndexSet
    let index: any DoneIndexPages
    let pageSize: Int
    /// Whether the outputs' MD5s are read.
    let md5s: Bool

    /// Calls `merge` with each page of the set in path order, the next pages read meanwhile.
    func forEachPage(_ merge: ([DoneIndexRow]) async throws -> Void) async throws {
        let (credits, credit) = AsyncStream<Void>.makeStream()
        let (pages, deliver) = AsyncThrowingStream<[DoneIndexRow], any Error>.makeStream()
        for _ in 0..<Self.ahead { credit.yield() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { [self] in
                do {
                    try await read(into: deliver, whenGiven: credits)
                } catch {
                    deliver.finish(throwing: error)
                }
            }
            for try await page in pages {
                credit.yield()
                try await merge(page)
            }
            credit.finish()
            try await group.waitForAll()
        }
    }

    /// Reads the pages in turn into `deliver`, each when a credit comes, until the set ends.
    private func read(into deliver: AsyncThrowingStream<[DoneIndexRow], any Error>.Continuation, whenGiven credits: AsyncStream<Void>) async throws {
        var cursor: FileIdentity?
        for await _ in credits {
            let page = try await index.completedFiles(jobKey: set.jobKey, recipeFingerprint: set.recipeFingerprint, after: cursor,
                                                      limit: pageSize, md5s: md5s)
            deliver.yield(page)
            guard page.count == pageSize, let last = page.last?.identity else { break }
            cursor = last
        }
        deliver.finish()
    }
}
