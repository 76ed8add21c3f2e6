package import HTTPMessages

/// One request as the server received it, before its body: method, target, headers and peer.
///
/// The body is not part of the value: the handler decides how to take it when it answers with
/// an ``HTTPRequestPlan`` (buffered up to a bound, or streamed to a sink).
package struct HTTPRequest: Sendable {
    package let method: HTTPMethod
    /// The request target exactly as sent, for example `/assemblies/abc?page=2`.
    package let target: String
    /// The path of the target, percent-decoded (`+` stays a plus), without the query.
    package let path: String
    /// The path's segments, each percent-decoded on its own (so `%2F` stays inside one), empty ones dropped.
    package let pathSegments: [String]
    /// The query items in order, decoded as a urlencoded form.
    package let query: [FormField]
    package let headers: HTTPHeaders
    /// `HTTP/1.1` or `HTTP/1.0`.
    package let version: String
    /// The client's IP address (`127.0.0.1`, `::1`).
    package let remoteAddress: String
    package let remotePort: Int
    /// The server's number for the TCP connection, from 1; two requests with the same number shared a connection.
    package let connectionID: Int

    /// A request as the server would build it; visible to the package so that handlers can be exercised without a socket.
    package init(
        method: HTTPMethod, target: String, headers: HTTPHeaders = [:], version: String = "HTTP/1.1",
        remoteAddress: String = "127.0.0.1", remotePort: Int = 0, connectionID: Int = 0
    ) {
        self.method = method
        self.target = target
        self.headers = headers
        self.version = version
        self.remoteAddress = remoteAddress
        self.remotePort = remotePort
        self.connectionID = connectionID
        var rest = Substring(target)
        if !rest.hasPrefix("/"), let colon = rest.firstIndex(of: ":"), rest[colon...].hasPrefix("://") {
            // absolute-form (RFC 9112 §3.2.2): drop the scheme and authority
            let authority = rest[rest.index(colon, offsetBy: 3)...]
            rest = authority.firstIndex { $0 == "/" || $0 == "?" }.map { authority[$0...] } ?? ""
        }
        let rawPath = rest.prefix { $0 != "?" && $0 != "#" }
        let afterPath = rest[rawPath.endIndex...]
        let rawQuery = afterPath.first == "?" ? afterPath.dropFirst().prefix { $0 != "#" } : ""
        path = rawPath.isEmpty ? "/" : FormURLDecoder.percentDecode(Array(rawPath.utf8), plusAsSpace: false)
        pathSegments = rawPath.split(separator: "/").map { FormURLDecoder.percentDecode(Array($0.utf8), plusAsSpace: false) }
        query = FormURLDecoder.decode(Array(rawQuery.utf8))
    }

    /// The declared body length, when the client sent a valid `Content-Length`.
    package var contentLength: UInt64? {
        headers["Content-Length"].flatMap { UInt64($0) }
    }

    /// The parsed `Content-Type`, when there is a valid one.
    package var contentType: MediaType? {
        headers["Content-Type"].flatMap(MediaType.init(parsing:))
    }

    /// The first query item called `name`.
    package func queryValue(_ name: String) -> String? {
        query.firstValue(named: name)
    }
}
