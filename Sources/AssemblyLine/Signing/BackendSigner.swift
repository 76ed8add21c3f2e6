import ConfigFormat
import HTTPMessages

/// Asks the operator's signing service for signatures over the HTTP port, and accepts only exact, well-formed answers.
///
/// The contract of DESIGN.md §3: `POST <url>` with `Authorization: Bearer <token>` and the body
/// `{"params":"<string>"}`; the answer must be a 2xx JSON object whose `params` is the sent string
/// byte for byte and whose `signature` is `sha384:` followed by 96 lowercase hex digits. Redirects
/// are never followed, `http://` goes only to loopback hosts, an answer is read up to
/// ``responseLimit`` bytes, and the whole exchange has a finite timeout.
///
/// The token is held in memory only; neither ``description`` nor a mirror of the value shows it.
package struct BackendSigner: Signer, CustomStringConvertible, CustomReflectable {
    /// The most bytes of an answer that are read; a signature answer is a few hundred bytes.
    package static let responseLimit = 64 << 10

    /// The signing service's URL.
    package let url: String
    /// The longest a whole exchange may take.
    package let timeout: Duration
    private let token: String
    private let transport: any HTTPTransport
    private let caBundlePath: String?

    /// A signer for the service at `url`.
    ///
    /// - Parameters:
    ///   - token: the bearer token, read by the caller from the manifest's `token_env` or `token_file`.
    ///   - timeout: the total timeout of one exchange (connection included).
    ///   - caBundlePath: a PEM file of CA certificates to trust instead of the system's.
    /// - Throws: ``SigningError/insecureURL(endpoint:)`` for a URL that is not `https://` (or
    ///   `http://` to a loopback host), ``SigningError/invalidToken(reason:)`` for a token that
    ///   cannot travel in a header.
    package init(
        url: String, token: String, timeout: Duration, transport: any HTTPTransport, caBundlePath: String? = nil
    ) throws(SigningError) {
        let endpoint = TransportEndpoint(url: url)
        let secure = URLText.host(of: url, scheme: "https").map { !$0.isEmpty } ?? false
        let loopback = URLText.host(of: url, scheme: "http").map(URLText.isLoopback) ?? false
        guard secure || loopback else { throw .insecureURL(endpoint: endpoint.description) }
        if token.isEmpty { throw .invalidToken(reason: "it is empty") }
        if token.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F }) {
            throw .invalidToken(reason: "it contains a space or a control character")
        }
        self.url = url
        self.token = token
        self.timeout = timeout
        self.transport = transport
        self.caBundlePath = caBundlePath
    }

    package func sign(_ params: String) async throws(SigningError) -> String {
        let body = JSONValue.object(["params": .string(params)]).serialized
        let request = HTTPRequestSpec.json(
            .post, url, body: Array(body.utf8),
            headers: [HTTPHeader(name: "Authorization", value: "Bearer \(token)")])
        let options = HTTPTransferOptions(
            connectTimeout: timeout, totalTimeout: timeout, lowSpeed: nil,
            followRedirects: false, caBundlePath: caBundlePath)
        let response: HTTPResponseInfo
        do {
            response = try await transport.send(request, to: .memory(limit: Self.responseLimit), options: options, progress: nil)
        } catch {
            throw Self.mapped(error, endpoint: endpoint, timeout: timeout)
        }
        return try SignerAnswer(response: response, token: token).signature(for: params)
    }

    /// The service's `scheme://host:port`, all that messages show of its URL.
    package var endpoint: String { TransportEndpoint(url: url).description }

    package var description: String { "backend signer at \(endpoint)" }

    package var customMirror: Mirror {
        Mirror(self, children: ["url": url, "timeout": timeout], displayStyle: .struct)
    }

    private static func mapped(_ error: TransportError, endpoint: String, timeout: Duration) -> SigningError {
        switch error {
        case .timeout: .timeout(endpoint: endpoint, after: timeout)
        case let .tooLarge(_, limit): .tooLarge(limit: limit)
        default: .unreachable(error)
        }
    }
}
