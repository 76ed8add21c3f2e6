/// The `scheme://host:port` part of a URL: what error messages and logs may show of it.
package struct TransportEndpoint: Sendable, Hashable, CustomStringConvertible {
    package var scheme: String
    package var host: String
    /// The explicit port, or the scheme's default (80 for http, 443 for https), or nil when unknown.
    package var port: Int?

    /// Splits `url` without validating it; user info, path, query and fragment are dropped.
    package init(url: String) {
        var rest = Substring(url)
        if let separator = rest.firstRange(of: "://") {
            scheme = rest[..<separator.lowerBound].lowercased()
            rest = rest[separator.upperBound...]
        } else {
            scheme = ""
        }
        if let end = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) {
            rest = rest[..<end]
        }
        if let at = rest.lastIndex(of: "@") {
            rest = rest[rest.index(after: at)...]
        }
        var explicitPort: Int?
        if let colon = rest.lastIndex(of: ":"), !rest[colon...].contains("]"), let number = Int(rest[rest.index(after: colon)...]) {
            explicitPort = number
            rest = rest[..<colon]
        }
        host = rest.lowercased()
        port = explicitPort ?? (scheme == "http" ? 80 : scheme == "https" ? 443 : nil)
    }

    /// True for `localhost`, `127.0.0.0/8` and `::1`: hosts that never leave the machine.
    package var isLoopback: Bool {
        host == "localhost" || host.hasPrefix("127.") || host == "[::1]"
    }

    package var description: String {
        let base = scheme.isEmpty ? host : "\(scheme)://\(host)"
        return port.map { "\(base):\($0)" } ?? base
    }
}
