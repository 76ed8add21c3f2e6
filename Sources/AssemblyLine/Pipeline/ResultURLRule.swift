/// Which result URLs the client fetches: https ones, without credentials, to no link-local or metadata address.
///
/// Plain `http://` is taken only when the endpoint itself is `http://` on a loopback host (the
/// embedded service, a test). A URL with `user:pass@` would be fetched with Basic auth and its
/// password stored in the ledger: it is refused, and stored without its credentials. A literal
/// link-local or metadata address is refused here; a name that resolves to one, or a redirect to
/// one, is refused by the transport (``HTTPTransferOptions/refusesLinkLocalPeers``).
package struct ResultURLRule: Sendable, Hashable {
    /// Whether `http://` result URLs are taken.
    package var allowsPlainHTTP: Bool

    package init(allowsPlainHTTP: Bool) {
        self.allowsPlainHTTP = allowsPlainHTTP
    }

    /// The rule for results of the Transloadit endpoint at `endpoint`.
    package init(endpoint: String) {
        allowsPlainHTTP = URLText.host(of: endpoint, scheme: "http").map(URLText.isLoopback) ?? false
    }

    /// Why `url` is not fetched, or nil when it is.
    package func problem(with url: String) -> String? {
        if url.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value >= 0x7F }) {
            return "its URL holds a space, a control or a non-ASCII character"
        }
        let lowered = url.lowercased()
        let scheme = lowered.hasPrefix("https://") ? "https" : lowered.hasPrefix("http://") ? "http" : nil
        guard let scheme, scheme == "https" || allowsPlainHTTP else {
            return allowsPlainHTTP ? "its URL is neither https nor http" : "its URL is not https"
        }
        if URLText.authority(of: url).contains("@") { return "its URL carries credentials" }
        if let host = URLText.host(of: url, scheme: scheme), let address = PeerAddress(host), address.isLinkLocalOrMetadata {
            return "its URL names \(address), a link-local or cloud metadata address"
        }
        return nil
    }

    /// `url` without the `user:pass@` of its authority, for the ledger.
    package static func withoutCredentials(_ url: String) -> String {
        let authority = URLText.authority(of: url)
        guard let at = authority.lastIndex(of: "@") else { return url }
        return String(url[..<authority.startIndex]) + String(url[url.index(after: at)...])
    }
}
