extension AssemblyRecord {
    /// The bytes the Assembly counts towards the account's usage (`bytes_usage`), by the published rule.
    ///
    /// transloadit.com/docs/faq/1gb-worth: a processing Robot counts its input and its output; handling
    /// uploads and storing (exporting) count 10% of the bytes. The local service's Robots are resizes and
    /// stores, so a result counts its original and itself, an exported one a tenth of itself, and each
    /// upload a tenth of itself. An imported file counts as an upload does (a tenth), once, whether or not its
    /// step is a result: importing is handling the Assembly's input.
    var bytesUsage: Int64 {
        let originals = uploads + (imports ?? [])
        let sizes = Dictionary(originals.map { ($0.id, $0.size) }, uniquingKeysWith: { first, _ in first })
        let received = originals.reduce(Int64(0)) { $0 + $1.size }
        let imported = Set((imports ?? []).map(\.id))
        let made = results.values.joined().reduce(Int64(0)) { total, file in
            if imported.contains(file.id) { return total }
            return total + (file.exported == true ? file.size / 10 : file.size + (sizes[file.originalID] ?? 0))
        }
        return received / 10 + made
    }
}
