/// What the tus step of a shard sent: how many files, how many bytes, how many continued an earlier upload.
package struct TusUploadTotals: Sendable, Hashable {
    package var files: Int
    package var bytesSent: Int64
    /// Files that continued an upload the server already held instead of creating one.
    package var resumed: Int

    package init(files: Int, bytesSent: Int64, resumed: Int) {
        self.files = files
        self.bytesSent = bytesSent
        self.resumed = resumed
    }

    /// The totals of the files' outcomes.
    package init(_ outcomes: [TusUploadOutcome]) {
        self.init(files: outcomes.count, bytesSent: outcomes.reduce(0) { $0 + $1.bytesSent },
                  resumed: outcomes.filter { !$0.createdNew }.count)
    }
}
