/// How a list of URLs is written: one URL a line, CSV with a header row, or JSON Lines.
package enum URLListFormat: String, Sendable, Hashable, CaseIterable {
    /// One URL a line; blank lines and lines starting with `#` are left out.
    case text
    /// RFC 4180 CSV with a header row naming `url` and, optionally, `name`, `etag`, `size`, `last_modified`, `fields.NAME`.
    case csv
    /// One JSON object a line, with `url` and, optionally, `name`, `etag`, `size`, `last_modified`, `fields`.
    case jsonLines = "jsonl"

    /// The format a file's extension names (`.txt`, `.list`, `.csv`, `.jsonl`, `.ndjson`, in any case), nil for another.
    package init?(path: String) {
        guard let ext = PathText.stemAndExtension(of: PathText.lastComponent(of: path)).extension?.lowercased() else { return nil }
        switch ext {
        case "txt", "list": self = .text
        case "csv": self = .csv
        case "jsonl", "ndjson": self = .jsonLines
        default: return nil
        }
    }
}
