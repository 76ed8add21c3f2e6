/// Which URLs a night may import (`/http/import`) or ask for their identity (``URLHeadProbe``): where an input may come from.
///
/// `https://` on public addresses, without credentials; a loopback endpoint (the embedded service, a
/// local `serve`, a test) imports from this machine and the local network too, and over `http://` from
/// loopback hosts. Never a link-local address or a cloud metadata service (169.254.0.0/16, fe80::/10,
/// 169.254.169.254, fd00:ec2::254, 100.100.100.200), which answer with the host's credentials. Literals are
/// refused here, a numeric host in any other form than the usual one too (`2852039166`, `0xa9.0xfe.0xa9.0xfe`
/// and `169.254.43518` are 169.254.169.254 to a resolver); names, redirects and reused connections are
/// refused by the transport on each connection's address (``peers``), as downloads of results are
/// (``ResultURLRule``).
package struct InputURLRule: Sendable, Hashable {
    /// Why a URL is not an input.
    package enum Refusal: Sendable, Hashable, CustomStringConvertible {
        /// Over ``InputURLRule/lengthLimit`` bytes.
        case tooLong(bytes: Int)
        /// A space, a control character or a non-ASCII byte (percent-encoded, each is fine).
        case unsafeByte
        /// Neither `https://` nor `http://`.
        case scheme
        /// `user:pass@` in the authority: a password in a list, the ledger and the Assembly's status.
        case credentials
        /// No host after the scheme.
        case noHost
        /// A numeric host in another form than dotted decimal (or IPv6 in brackets), which resolvers read as an address.
        case numericHost
        /// The host is an address (or `localhost`) the rule refuses; the address and its kind.
        case address(String)
        /// `http://` to another host than a loopback one, or from an endpoint that is not on loopback.
        case plainHTTP

        package var description: String {
            switch self {
            case let .tooLong(bytes): "the URL is \(bytes) bytes, more than the \(InputURLRule.lengthLimit) allowed"
            case .unsafeByte: "the URL holds a space, a control or a non-ASCII character (percent-encode it)"
            case .scheme: "the URL is not https"
            case .credentials: "the URL carries credentials (user:password@)"
            case .noHost: "the URL names no host"
            case .numericHost: "the URL's host is an address in an unusual form; write it as dotted decimal"
            case let .address(what): "the URL names \(what)"
            case .plainHTTP: "the URL is http, which only a loopback endpoint allows, to a loopback host"
            }
        }
    }

    /// The longest URL accepted, in bytes: a presigned URL with its query fits many times over.
    package static let lengthLimit = 8192

    /// True when the endpoint is on loopback: inputs may then come from this machine and the local network.
    package let allowsLocalInputs: Bool

    /// The rule for inputs of the Transloadit endpoint at `endpoint`.
    package init(endpoint: String) {
        let origin = TransportEndpoint(url: endpoint)
        allowsLocalInputs = ["http", "https"].contains(origin.scheme) && URLText.isLoopback(origin.host)
    }

    /// The peers a request for an input's identity may connect to.
    package var peers: PeerRule {
        allowsLocalInputs ? .notLinkLocal : .publicOnly
    }

    /// Why `url` is not an input, or nil when it is.
    package func refusal(of url: String) -> Refusal? {
        if url.utf8.count > Self.lengthLimit { return .tooLong(bytes: url.utf8.count) }
        if URLText.hasUnsafeByte(url) { return .unsafeByte }
        let target = TransportEndpoint(url: url)
        guard ["http", "https"].contains(target.scheme) else { return .scheme }
        if URLText.carriesCredentials(url) { return .credentials }
        let host = target.host.hasSuffix(".") ? String(target.host.dropLast()) : target.host
        guard !host.isEmpty else { return .noHost }
        if let refusal = addressRefusal(host: host, port: target.port ?? 443) { return refusal }
        if target.scheme == "http", !(allowsLocalInputs && URLText.isLoopback(host)) { return .plainHTTP }
        return nil
    }

    private func addressRefusal(host: String, port: Int) -> Refusal? {
        guard PeerAddress(host) != nil || !Self.isNumeric(host) else { return .numericHost }
        if !allowsLocalInputs, URLText.isLoopback(host) { return .address("\(host), this machine") }
        return peers.refusal(ofHost: host, port: port).map { .address($0) }
    }

    /// True for a host whose last label is a number (`10`, `0x7f`): a name never ends so, an address in any form does.
    private static func isNumeric(_ host: String) -> Bool {
        guard let last = host.split(separator: ".", omittingEmptySubsequences: false).last, !last.isEmpty else { return false }
        let lowered = last.lowercased()
        if lowered.hasPrefix("0x") { return lowered.dropFirst(2).allSatisfy(\.isHexDigit) }
        return lowered.allSatisfy(\.isNumber)
    }
}
