/// Reads a list of URLs to import, row by row, handing each to its caller and keeping nothing of it.
///
/// The list is plain text (one URL a line), CSV with a header row or JSON Lines (``URLListFormat``), chosen by
/// the file's extension unless a format is given. Each row gives an input (``URLListEntry``) or, when its
/// data is refused (its URL by ``InputURLRule``, its name, identity or fields), a skipped row that names its
/// line and why (``URLListSkippedRow``): the night goes on without it. A list whose form is wrong, whose
/// line passes the bound, or that gives one URL or output name twice fails whole (``URLListError``, naming
/// both lines). Memory is flat but for 8-byte hashes of each URL and output name (``URLListDuplicates``);
/// a hash seen before makes the reader read the list again, up to the row, to find the earlier one.
package struct URLListReader: Sendable {
    /// What a reading went through.
    package struct Summary: Sendable, Hashable {
        package var entries: Int
        package var skipped: Int
        /// True when the caller stopped it before its last row.
        package var stopped: Bool
    }

    /// The file's absolute path.
    package let path: String
    /// The file as the user named it, for messages.
    package let displayPath: String
    package let format: URLListFormat
    package let rule: InputURLRule
    /// The longest line (or CSV record) read, in bytes.
    package let lineLimit: Int

    /// Room for a long presigned URL, its name and fields many times over.
    package static let defaultLineLimit = 64 << 10

    /// A reader of the list at `path`, in `format`, else the one its extension names.
    ///
    /// - Throws: ``URLListError/Problem/unknownFormat`` when neither names one.
    package init(
        path: String, displayPath: String, format: URLListFormat? = nil, rule: InputURLRule, lineLimit: Int = URLListReader.defaultLineLimit
    ) throws(URLListError) {
        guard let format = format ?? URLListFormat(path: path) else {
            throw URLListError(file: displayPath, line: 0, column: 0, problem: .unknownFormat)
        }
        self.path = path
        self.displayPath = displayPath
        self.format = format
        self.rule = rule
        self.lineLimit = lineLimit
    }

    /// Reads the list, handing each row to `receive` in order.
    ///
    /// - Throws: ``URLListError``; the rows handed over before it stand.
    @discardableResult
    package func read(_ receive: (URLListRow) async -> ListingDecision) async throws(URLListError) -> Summary {
        var rows = try self.rows()
        var duplicates = URLListDuplicates()
        var summary = Summary(entries: 0, skipped: 0, stopped: false)
        while let row = try rows.next() {
            switch row {
            case let .entry(entry):
                let repeated = duplicates.insert(entry)
                if repeated.url || repeated.name { try checkUnique(entry) }
                summary.entries += 1
            case .skipped:
                summary.skipped += 1
            }
            if await receive(row) == .stop {
                summary.stopped = true
                return summary
            }
        }
        return summary
    }

    private func rows() throws(URLListError) -> URLListRows {
        try URLListRows(path: path, file: displayPath, format: format, rule: rule, lineLimit: lineLimit)
    }

    /// Reads the list again up to `entry`'s row: an earlier entry with its URL or output name fails the list.
    private func checkUnique(_ entry: URLListEntry) throws(URLListError) {
        var rows = try self.rows()
        while let row = try rows.next(), row.line < entry.line {
            guard case let .entry(earlier) = row else { continue }
            if PathText.same(earlier.url, entry.url) {
                throw URLListError(file: displayPath, line: entry.line, column: 1, problem: .repeatedURL(firstLine: earlier.line))
            }
            if PathText.same(earlier.outputName, entry.outputName) {
                throw URLListError(file: displayPath, line: entry.line, column: 1,
                                   problem: .repeatedName(entry.outputName, firstLine: earlier.line))
            }
        }
    }
}
