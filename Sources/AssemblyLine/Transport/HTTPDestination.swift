/// Where a response body goes: memory, up to a bound, a file streamed as it arrives, or a receiver chunk by chunk.
package enum HTTPDestination: Sendable, Hashable {
    /// Keep the body in memory; a body longer than `limit` bytes fails the transfer with `tooLarge`.
    case memory(limit: Int)
    /// Write the body to `path`, created or truncated (mode 0644); a body longer than `limit` bytes fails the
    /// transfer with `tooLarge` once it passes it, and one that would leave less than `keepFree` bytes free on
    /// the file's file system (``FreeSpace``) with `insufficientSpace`, checked at its first bytes and at each MiB.
    /// A failed transfer leaves the partial file for the caller to remove.
    case file(path: String, limit: Int64? = nil, keepFree: Int64? = nil)
    /// Hand each chunk to `receiver` as it arrives and keep nothing: a body without a known end, such
    /// as an event stream. The chunks of an interim or redirect response are handed over too.
    case stream(HTTPStreamReceiver)

    /// The bound for API answers (status JSON, signer answers): 8 MiB.
    package static let defaultMemoryLimit = 8 << 20

    /// Memory with the default bound.
    package static let memory = HTTPDestination.memory(limit: defaultMemoryLimit)
}
