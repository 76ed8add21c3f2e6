/// Where an ``HTTPServer`` listens and the bounds it keeps.
///
/// The bounds exist so that no client can starve the others: a client address may hold at most
/// ``maxConnectionsPerAddress`` of the ``maxConnections`` slots, a request head (request line
/// and header fields) must be complete within ``requestHeadTimeout`` however slowly its bytes
/// trickle in, and a connection with no traffic either way is closed after ``idleTimeout``.
package struct HTTPServerConfiguration: Sendable {
    /// A numeric IPv4 or IPv6 address, or `localhost` (127.0.0.1). Loopback by default.
    package var host: String
    /// The TCP port; 0 lets the system choose one (read it back from ``HTTPServer/port``).
    package var port: UInt16
    /// The most connections open at once (each has its own thread); more are refused.
    package var maxConnections: Int
    /// The most connections open at once from one client IP address; more from it are refused.
    package var maxConnectionsPerAddress: Int
    /// How long a connection may stay idle (no bytes either way) before it is closed; at least 1 second.
    package var idleTimeout: Duration
    /// How long a request head may take, from the connection's opening (or the end of its previous
    /// request) until its last header line; a connection past it is closed.
    package var requestHeadTimeout: Duration
    /// Memory per connection for reading; it bounds the request head, and the largest body chunk
    /// a sink receives is a little under it.
    package var readBufferSize: Int
    /// Header fields that may appear at most once in a request; a request repeating one is refused (400).
    package var singletonHeaders: Set<String>
    /// The certificate and key to serve HTTPS with; plain HTTP when nil.
    package var tls: HTTPServerTLS?
    /// Where libmicrohttpd's own error messages go (one line each, at most one a second); nil drops them.
    package var log: (@Sendable (String) -> Void)?

    /// Fields whose repetition makes a request ambiguous (RFC 9110 §5.3: they are not lists).
    package static let standardSingletonHeaders: Set<String> = ["Host", "Authorization", "Content-Length", "Content-Type"]

    package init(
        host: String = "127.0.0.1", port: UInt16 = 0, maxConnections: Int = 512, maxConnectionsPerAddress: Int = 128,
        idleTimeout: Duration = .seconds(60), requestHeadTimeout: Duration = .seconds(20),
        readBufferSize: Int = 256 * 1024, singletonHeaders: Set<String> = standardSingletonHeaders,
        tls: HTTPServerTLS? = nil, log: (@Sendable (String) -> Void)? = nil
    ) {
        self.host = host
        self.port = port
        self.maxConnections = maxConnections
        self.maxConnectionsPerAddress = maxConnectionsPerAddress
        self.idleTimeout = idleTimeout
        self.requestHeadTimeout = requestHeadTimeout
        self.readBufferSize = readBufferSize
        self.singletonHeaders = singletonHeaders
        self.tls = tls
        self.log = log
    }
}
