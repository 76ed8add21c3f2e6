/// Which result URLs the client fetches: from where the service's own answers may lead, without credentials.
///
/// A loopback endpoint (the embedded service, `serve`, a test) is where its results come from: a
/// result URL must be of its origin, its scheme and port on a loopback host (`localhost`,
/// `127.0.0.0/8` and `[::1]` are one machine, which the local service names by its bound address),
/// and no redirect may leave that port. Any other endpoint's results are `https://` and never on this
/// machine, a private, shared, unique local or link-local network or a cloud metadata service: by
/// literal, by a name that resolves there, or through a redirect. No host is named, since production's
/// results are on other hosts than the API (S3, a CDN, `tmp-*.transloadit.net`). A URL with `user:pass@`
/// would be fetched with Basic auth and its password stored in the ledger: it is refused, and stored
/// without its credentials. Literals are refused here; names, redirects and reused connections by the
/// transport, on each connection's address (``peers``).
package struct ResultURLRule: Sendable, Hashable {
    /// Where results may come from.
    package enum Source: Sendable, Hashable {
        /// A loopback endpoint's own origin, and its port.
        case origin(TransportEndpoint, port: Int)
        /// `https://` on public addresses.
        case publicHosts
    }

    package var source: Source

    /// The rule for results of the Transloadit endpoint at `endpoint`.
    package init(endpoint: String) {
        let origin = TransportEndpoint(url: endpoint)
        if let port = origin.port, ["http", "https"].contains(origin.scheme), URLText.isLoopback(origin.host) {
            source = .origin(origin, port: port)
        } else {
            source = .publicHosts
        }
    }

    /// The peers a download of these results may connect to.
    package var peers: PeerRule {
        switch source {
        case let .origin(_, port): .loopback(port: port)
        case .publicHosts: .publicOnly
        }
    }

    /// Why `url` is not fetched, or nil when it is.
    package func problem(with url: String) -> String? {
        if url.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value >= 0x7F }) {
            return "its URL holds a space, a control or a non-ASCII character"
        }
        let target = TransportEndpoint(url: url)
        switch source {
        case let .origin(endpoint, port):
            guard target.scheme == endpoint.scheme, URLText.isLoopback(target.host), target.port == port else {
                return "its URL is not of the loopback endpoint's origin \(endpoint)"
            }
        case .publicHosts:
            guard target.scheme == "https" else { return "its URL is not https" }
            if URLText.isLoopback(target.host) { return "its URL names \(target.host), this machine" }
            if let refusal = PeerRule.publicOnly.refusal(ofLiteral: target.host, port: target.port ?? 443) {
                return "its URL names \(refusal)"
            }
        }
        if URLText.authority(of: url).contains("@") { return "its URL carries credentials" }
        return nil
    }

    /// `url` without the `user:pass@` of its authority, for the ledger.
    package static func withoutCredentials(_ url: String) -> String {
        let authority = URLText.authority(of: url)
        guard let at = authority.lastIndex(of: "@") else { return url }
        return String(url[..<authority.startIndex]) + String(url[url.index(after: at)...])
    }
}
