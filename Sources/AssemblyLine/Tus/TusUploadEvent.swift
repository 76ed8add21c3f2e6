/// What a tus upload reports as it goes, for the caller to persist before the uploader takes the next step.
package enum TusUploadEvent: Sendable, Hashable {
    /// The server created the upload at `url` for `length` bytes; nothing is sent until the caller returns.
    case created(url: String, length: Int64)
    /// The server confirmed `offset` bytes of the upload at `url` (after a PATCH, or found by HEAD); offsets only grow.
    case confirmed(url: String, offset: Int64)
}
