/// A file's output as the ledger recorded it when the download was verified: what a later skip relies on.
package struct RecordedOutput: Sendable, Hashable {
    /// The absolute path under `output.dir`.
    package var path: String
    /// The size the service reported and the download matched; nil when the service gave none.
    package var size: Int64?
    /// The service's MD5, which the download matched; nil when the service gave none.
    package var md5: String?

    package init(path: String, size: Int64?, md5: String?) {
        self.path = path
        self.size = size
        self.md5 = md5
    }
}
