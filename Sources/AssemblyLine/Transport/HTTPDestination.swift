/// Where a response body goes: memory, up to a bound, or a file streamed as it arrives.
package enum HTTPDestination: Sendable, Hashable {
    /// Keep the body in memory; a body longer than `limit` bytes fails the transfer with `tooLarge`.
    case memory(limit: Int)
    /// Write the body to `path`, created or truncated (mode 0644); a failed transfer leaves the partial file
    /// for the caller to remove.
    case file(path: String)

    /// The bound for API answers (status JSON, signer answers): 8 MiB.
    package static let defaultMemoryLimit = 8 << 20

    /// Memory with the default bound.
    package static let memory = HTTPDestination.memory(limit: defaultMemoryLimit)
}
