package import HTTPMessages

/// Why an HTTP exchange failed, as the pipeline needs to tell the cases apart (retry, fail the shard, stop).
///
/// `endpoint` is the URL's `scheme://host:port` only: paths and query strings (which can carry
/// signatures) never appear in a message.
package enum TransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The request cannot be sent as given: a malformed URL, an unsupported scheme, a bad header or option.
    case invalidRequest(url: String, reason: String)
    /// The host name did not resolve.
    case resolve(endpoint: String, reason: String)
    /// No connection could be made (refused, unreachable).
    case connect(endpoint: String, reason: String)
    /// The connect timeout, total timeout or low-speed limit fired.
    case timeout(endpoint: String, reason: String)
    /// The TLS handshake or certificate verification failed.
    case tls(endpoint: String, reason: String)
    /// The connection broke mid-exchange: reset, closed early, or an empty or truncated answer.
    case reset(endpoint: String, reason: String)
    /// The caller cancelled the transfer (task cancellation or `cancelAll`).
    case cancelled(endpoint: String)
    /// The response body exceeded the in-memory bound the caller set.
    case tooLarge(endpoint: String, limit: Int)
    /// A body file could not be read, or a destination file written.
    case fileIO(path: String, reason: String)
    /// The server answered with a status the caller does not accept; `body` is a bounded prefix of its answer.
    case httpStatus(endpoint: String, code: Int, body: String)
    /// Any other transfer failure, with libcurl's (or the server's) explanation.
    case failed(endpoint: String, reason: String)
    /// A body written to a file would have left less than `floor` bytes free on its file system (`available` were).
    case insufficientSpace(path: String, available: Int64, floor: Int64)
    /// The connection would have gone to an address the request may not reach (``PeerRule``): `address` says
    /// which and why; nothing was sent.
    case refusedAddress(endpoint: String, address: String)

    /// The transport's name for a request body that could not be built or read.
    package init(_ error: BodyPlanError) {
        switch error {
        case let .fileIO(path, reason): self = .fileIO(path: path, reason: reason)
        case let .invalidPart(reason): self = .invalidRequest(url: "", reason: reason)
        }
    }

    /// True when trying the same request again later can help (``Retryability``, whoever answered).
    package var isRetryable: Bool {
        Retryability.isRetryable(self, from: nil)
    }

    package var description: String {
        switch self {
        case let .invalidRequest(url, reason):
            "transport: invalid request to \(TransportEndpoint(url: url)): \(reason)"
        case let .resolve(endpoint, reason):
            "transport: cannot resolve the host of \(endpoint): \(reason)"
        case let .connect(endpoint, reason):
            "transport: cannot connect to \(endpoint): \(reason)"
        case let .timeout(endpoint, reason):
            "transport: timed out talking to \(endpoint): \(reason)"
        case let .tls(endpoint, reason):
            "transport: TLS failure with \(endpoint): \(reason)"
        case let .reset(endpoint, reason):
            "transport: connection to \(endpoint) broke: \(reason)"
        case let .cancelled(endpoint):
            "transport: transfer to \(endpoint) cancelled"
        case let .tooLarge(endpoint, limit):
            "transport: response from \(endpoint) exceeds the \(limit)-byte bound"
        case let .fileIO(path, reason):
            "transport: file \(path): \(reason)"
        case let .insufficientSpace(path, available, floor):
            "transport: file \(path): \(available) bytes free on its file system, and \(floor) must stay free"
        case let .httpStatus(endpoint, code, body):
            "transport: HTTP \(code) from \(endpoint)" + (body.isEmpty ? "" : ": " + RemoteText.escaped(body, limit: 200))
        case let .failed(endpoint, reason):
            "transport: transfer with \(endpoint) failed: \(reason)"
        case let .refusedAddress(endpoint, address):
            "transport: \(endpoint) leads to \(address); nothing was sent"
        }
    }
}
