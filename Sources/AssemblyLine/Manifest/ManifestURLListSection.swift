import ConfigFormat

/// Reads `inputs.urls`: the list's file, resolved against the manifest's directory, and its format.
struct ManifestURLListSection {
    static let keys = ["file", "format"]

    /// The manifest's directory, which the list's path is read against.
    let directory: String

    func decode(_ inputs: ConfigTable) -> URLListSettings? {
        guard let section = inputs.table("urls", keys: Self.keys) else { return nil }
        let file = section.string("file", required: true, expected: "the path of the list of URLs (.txt, .csv or .jsonl)")
        let format = section.choice("format", as: URLListFormat.self)
        guard let file else { return nil }
        if format == nil, !section.has("format"), URLListFormat(path: file) == nil {
            section.report("file", "expected a list named .txt, .list, .csv, .jsonl or .ndjson, or inputs.urls.format (text, csv or jsonl), found '\(file)'")
            return nil
        }
        guard format != nil || !section.has("format") else { return nil }
        return URLListSettings(file: PathText.resolve(file, against: directory), format: format)
    }
}
