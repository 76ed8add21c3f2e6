/// The `scheme://host:port` part of a URL: what error messages and logs may show of it.
package struct TransportEndpoint: Sendable, Hashable, CustomStringConvertible {
    package var scheme: String
    package var host: String
    /// The explicit port, or the scheme's default (80 for http, 443 for https), or nil when unknown.
    package var port: Int?

    /// Splits `url` without validating it; user info, path, query and fragment are dropped.
    ///
    /// The delimiters are found among its UTF-8 bytes, as libcurl finds them: a `/` that a combining
    /// mark follows ends the authority too.
    package init(url: String) {
        let bytes = url.utf8
        var start = bytes.startIndex
        scheme = ""
        if let separator = bytes.firstOccurrence(of: "://".utf8) {
            scheme = String(Substring(url.utf8[..<separator.lowerBound])).lowercased()
            start = separator.upperBound
        }
        var end = bytes[start...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.endIndex
        if let at = bytes[start..<end].lastIndex(of: UInt8(ascii: "@")) {
            start = bytes.index(after: at)
        }
        var explicitPort: Int?
        if let colon = bytes[start..<end].lastIndex(of: UInt8(ascii: ":")), !bytes[colon..<end].contains(UInt8(ascii: "]")),
           let number = Int(Substring(bytes[bytes.index(after: colon)..<end])) {
            explicitPort = number
            end = colon
        }
        host = String(Substring(bytes[start..<end])).lowercased()
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
