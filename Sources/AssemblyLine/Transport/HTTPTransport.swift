/// The port through which the domain talks HTTP; the `CurlTransport` module implements it over libcurl.
///
/// Implementations send every request with the `ClientIdentity.header`, verify TLS always, follow
/// redirects only when asked, never read a whole request file into memory, and map every failure
/// to a `TransportError`. Cancelling the calling task aborts its transfer and throws `.cancelled`.
package protocol HTTPTransport: Sendable {
    /// Sends `request` and waits for the complete response.
    ///
    /// - Parameters:
    ///   - destination: where the response body goes (memory with a bound, or a file).
    ///   - options: timeouts, redirects and trust for this transfer.
    ///   - progress: called as body bytes move, on the transport's thread; must not block.
    /// - Returns: the final response, whatever its status.
    /// - Throws: a `TransportError` when no complete response arrived.
    func send(
        _ request: HTTPRequestSpec,
        to destination: HTTPDestination,
        options: HTTPTransferOptions,
        progress: TransferProgressHandler?
    ) async throws(TransportError) -> HTTPResponseInfo

    /// Aborts every transfer in flight; each one's caller gets `.cancelled`. Later requests run normally.
    func cancelAll()
}

extension HTTPTransport {
    /// Sends `request` with the default options and no progress reports.
    package func send(
        _ request: HTTPRequestSpec,
        to destination: HTTPDestination = .memory,
        options: HTTPTransferOptions = HTTPTransferOptions()
    ) async throws(TransportError) -> HTTPResponseInfo {
        try await send(request, to: destination, options: options, progress: nil)
    }
}
