extension AssemblyRecord {
    /// The bytes the Assembly counts towards the account's usage (`bytes_usage`), by the published rule.
    ///
    /// transloadit.com/docs/faq/1gb-worth: a processing Robot counts its input and its output; handling
    /// uploads and storing (exporting) count 10% of the bytes. The local service's Robots are resizes and
    /// stores, so a result counts its original and itself, an exported one a tenth of itself, and each
    /// upload a tenth of itself.
    var bytesUsage: Int64 {
        let sizes = Dictionary(uploads.map { ($0.id, $0.size) }, uniquingKeysWith: { first, _ in first })
        let uploaded = uploads.reduce(Int64(0)) { $0 + $1.size }
        let made = results.values.joined().reduce(Int64(0)) { total, file in
            total + (file.exported == true ? file.size / 10 : file.size + (sizes[file.originalID] ?? 0))
        }
        return uploaded / 10 + made
    }
}
