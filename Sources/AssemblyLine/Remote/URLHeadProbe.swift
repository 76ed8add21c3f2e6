import HTTPMessages

/// Asks a URL's server for the identity of its content (``URLIdentity``) with one HEAD request, under ``InputURLRule``.
///
/// For a list's row that gives no ETag, size nor Last-Modified. The rule holds for the URL, for each
/// connection (``InputURLRule/peers``, so a name or a redirect that leads to a refused address gets no
/// request) and for where redirects end; at most ``maxRedirects`` are followed, never from https to http.
/// The answer is untrusted: its headers are checked as a row's values are, a HEAD answered with a body,
/// an answer that names no identity or any status but 2xx fails the probe (``Failure``), never the caller.
package struct URLHeadProbe: Sendable {
    /// Why a URL's identity could not be told.
    package enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The URL, or where its redirects led, is not an input.
        case refused(InputURLRule.Refusal)
        /// The server answered with this status (after redirects).
        case status(Int)
        /// The server answered the HEAD with a body: it does not speak HTTP as its headers claim.
        case bodyInAnswer
        /// A header of the answer is no identity.
        case identity(URLIdentity.Problem)
        /// The answer has no ETag, Content-Length nor Last-Modified.
        case noIdentity
        /// No complete answer came.
        case transport(TransportError)

        /// True when asking again later may succeed: a transport failure that may pass, a 5xx, 408 or 429.
        package var isRetryable: Bool {
            switch self {
            case let .transport(error): Retryability.isRetryable(error, from: .storage)
            case let .status(code): Retryability.isRetryable(status: code, from: .storage)
            case .refused, .bodyInAnswer, .identity, .noIdentity: false
            }
        }

        package var description: String {
            switch self {
            case let .refused(refusal): "\(refusal)"
            case let .status(code): "the HEAD request was answered \(code)"
            case .bodyInAnswer: "the HEAD request was answered with a body"
            case let .identity(problem): "the answer gives \(problem)"
            case .noIdentity: "the answer gives no ETag, Content-Length nor Last-Modified"
            case let .transport(error): "\(error)"
            }
        }
    }

    package let rule: InputURLRule
    private let transport: any HTTPTransport
    private let options: HTTPTransferOptions

    /// The most redirects a probe follows.
    package static let maxRedirects = 3

    package init(rule: InputURLRule, transport: any HTTPTransport, options: HTTPTransferOptions = HTTPTransferOptions()) {
        self.rule = rule
        self.transport = transport
        var options = options.bounded(by: RequestDeadline.answer)
        options.followRedirects = true
        options.maxRedirects = Self.maxRedirects
        options.peers = rule.peers
        self.options = options
    }

    /// The identity the server gives for `url`.
    package func identity(of url: String) async throws(Failure) -> URLIdentity {
        if let refusal = rule.refusal(of: url) { throw .refused(refusal) }
        let response: HTTPResponseInfo
        do {
            response = try await transport.send(HTTPRequestSpec(method: .head, url: url), to: .memory(limit: 1024), options: options)
        } catch {
            throw .transport(error)
        }
        if let refusal = rule.refusal(of: response.url) { throw .refused(refusal) }
        guard response.isSuccess else { throw .status(response.status) }
        guard response.bytesReceived == 0, response.bodyBytes.isEmpty else { throw .bodyInAnswer }
        let identity: URLIdentity
        do {
            identity = try Self.identity(response.headers)
        } catch {
            throw .identity(error)
        }
        guard !identity.isEmpty else { throw .noIdentity }
        return identity
    }

    /// ETag, Content-Length (every one the same) and Last-Modified, each checked; absent ones are nil.
    private static func identity(_ headers: HTTPHeaders) throws(URLIdentity.Problem) -> URLIdentity {
        var identity = URLIdentity()
        let lengths = headers.values(for: "Content-Length")
        if let length = lengths.first {
            guard lengths.allSatisfy({ $0 == length }) else { throw .size(lengths.joined(separator: ", ")) }
            identity.size = try URLIdentity.size(length)
        }
        if let etag = headers.value(for: "ETag") { identity.etag = try URLIdentity.etag(etag) }
        if let modified = headers.value(for: "Last-Modified") { identity.lastModified = try URLIdentity.lastModified(modified) }
        return identity
    }
}
