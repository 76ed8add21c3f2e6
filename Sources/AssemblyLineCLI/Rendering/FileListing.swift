import AssemblyLine

/// A report's files, written a page at a time as they are read: a run's, or each partition's of a batch.
///
/// What the CSV, JSON and paths renderers take, whatever the report: a listing of a batch names each
/// page's partition, which they write as a column (CSV) or a member (JSON).
protocol FileListing: Sendable {
    /// Whether the pages belong to partitions (a batch's report): the renderers then say which.
    var isPartitioned: Bool { get }

    /// Calls `body` with each page in file order, and the partition it belongs to (nil for a run's own).
    func forEachPage(_ body: (Partition?, ReportedFilePage) throws -> Void) async throws
}

/// A run's files: every one page by page, or those a report holds.
struct RunFileListing: FileListing {
    var pages: FilePages
    var isPartitioned: Bool { false }

    func forEachPage(_ body: (Partition?, ReportedFilePage) throws -> Void) async throws {
        try await pages.forEach { try body(nil, $0) }
    }
}

extension BatchReport: FileListing {
    var isPartitioned: Bool { true }

    func forEachPage(_ body: (Partition?, ReportedFilePage) throws -> Void) async throws {
        for part in parts {
            try await part.pages.forEach { try body(part.run.partition, $0) }
        }
    }
}
