/// How a tus upload ended: where the file now is at the server, and what it took.
package struct TusUploadOutcome: Sendable, Hashable {
    /// The upload's URL; the server holds all `length` bytes there.
    package var url: String
    package var length: Int64
    /// The offset the upload continued from: 0 for a new upload, the server's offset for a resumed one.
    package var resumedAt: Int64
    /// True when this call created the upload (no checkpoint, or the one given was gone or did not fit the file).
    package var createdNew: Bool
    /// Request body bytes sent, re-sent chunks included.
    package var bytesSent: Int64
    /// Requests that failed and were recovered from: sent again, resynchronized with HEAD, or replaced by a new upload.
    package var retries: Int

    package init(url: String, length: Int64, resumedAt: Int64, createdNew: Bool, bytesSent: Int64, retries: Int) {
        self.url = url
        self.length = length
        self.resumedAt = resumedAt
        self.createdNew = createdNew
        self.bytesSent = bytesSent
        self.retries = retries
    }
}
