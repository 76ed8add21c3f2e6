import AssemblyLine

/// An `http(s)` URL cut into its origin and path, refused when parsers could cut it differently.
///
/// WHATWG parsers read `\` as `/` in an http URL, libcurl and older parsers do not, so `https://a.com\@evil.com/`
/// goes to a.com for one and to evil.com for another; `@` before the query is refused for the same reason
/// (and for credentials), and so are percent-encoded dots and separators in the path, which a server may decode.
struct ImportURL: Hashable {
    /// `scheme://host[:port]`, lowercased, without the scheme's default port.
    var origin: String
    /// From the path's first `/` to its query or fragment; `/` when there is none.
    var path: String

    init(_ text: String) throws(ImportRefusal.Fault) {
        guard !text.isEmpty else { throw .empty }
        if URLText.hasUnsafeByte(text) { throw .unsafeCharacter }
        let endpoint = TransportEndpoint(url: text)
        guard ["http", "https"].contains(endpoint.scheme), let port = endpoint.port else { throw .notAbsoluteURL }
        let beforeQuery = text.prefix { $0 != "?" && $0 != "#" }
        if ["\\", "%2f", "%5c"].contains(where: beforeQuery.lowercased().contains) { throw .ambiguous }
        if URLText.carriesCredentials(text) { throw .credentials }
        guard !endpoint.host.isEmpty else { throw .notAbsoluteURL }
        let path = text[URLText.authority(of: text).endIndex...].prefix { $0 != "?" && $0 != "#" }
        if path.contains("@") { throw .ambiguous }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        if segments.dropLast().contains(where: \.isEmpty) || segments.contains(where: { [".", ".."].contains($0.lowercased().replacing("%2e", with: ".")) }) {
            throw .dotSegment
        }
        let isDefault = (endpoint.scheme, port) == ("http", 80) || (endpoint.scheme, port) == ("https", 443)
        origin = "\(endpoint.scheme)://\(endpoint.host)" + (isDefault ? "" : ":\(port)")
        self.path = path.isEmpty ? "/" : String(path)
    }
}
