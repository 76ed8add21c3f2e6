import AssemblyLine

/// Which URLs and hosts the import Robots may fetch from: never with credentials, never a link-local network or a
/// cloud metadata service, and this machine or a private network only where the service allows test endpoints.
///
/// Literals are refused here, before anything is sent; names, redirects and reused connections by the transport, on
/// each connection's address (``peers``). A URL with `user:pass@` is refused rather than fetched with Basic auth:
/// its password would be echoed in the status (`import_url`) and in every client's ledger.
struct ImportURLRule: Sendable, Hashable {
    /// ``LocalServiceConfiguration/allowsLocalImports``.
    var allowsLocalPeers: Bool

    /// The peers an import's connections may reach.
    var peers: PeerRule { allowsLocalPeers ? .notLinkLocal : .publicOnly }

    /// Why `url` is not fetched, nil when it may be.
    func problem(with url: String) -> String? {
        if url.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return "its URL holds a control character"
        }
        let target = TransportEndpoint(url: url)
        guard target.scheme == "http" || target.scheme == "https", !target.host.isEmpty else {
            return "its URL is not http:// or https://"
        }
        if URLText.authority(of: url).contains("@") { return "its URL carries credentials" }
        if !allowsLocalPeers, URLText.isLoopback(target.host) { return "its URL names \(target.host), this machine" }
        if let refusal = peers.refusal(ofHost: target.host, port: target.port ?? 80) { return "its URL names \(refusal)" }
        return nil
    }

    /// `url` as it is sent: a space, a non-ASCII character and any other byte a URL cannot hold percent-encoded,
    /// what is encoded already (`%20`) kept.
    static func encoded(_ url: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        for byte in url.utf8 {
            if byte <= 0x20 || byte >= 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") {
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
