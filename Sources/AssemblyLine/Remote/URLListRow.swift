/// What one row of a URL list gives: an input, or the reason it is left out.
package enum URLListRow: Sendable, Hashable {
    case entry(URLListEntry)
    case skipped(URLListSkippedRow)

    /// The line the row starts on.
    package var line: Int {
        switch self {
        case let .entry(entry): entry.line
        case let .skipped(row): row.line
        }
    }
}
