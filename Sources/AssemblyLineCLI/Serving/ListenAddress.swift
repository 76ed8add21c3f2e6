/// The `--listen HOST:PORT` of the services: `HOST:PORT`, `[IPv6]:PORT`, or `:PORT` for loopback; port 0 picks a free one.
enum ListenAddress {
    static func parse(_ text: String) throws -> (host: String, port: UInt16) {
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else {
            throw UsageError("--listen expects HOST:PORT (for example 127.0.0.1:0), found '\(text)'")
        }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return (host.isEmpty ? "127.0.0.1" : host, port)
    }
}
