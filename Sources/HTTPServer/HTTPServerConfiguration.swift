/// Where an ``HTTPServer`` listens and the bounds it keeps.
public struct HTTPServerConfiguration: Sendable {
    /// A numeric IPv4 or IPv6 address, or `localhost` (127.0.0.1). Loopback by default.
    public var host: String
    /// The TCP port; 0 lets the system choose one (read it back from ``HTTPServer/port``).
    public var port: UInt16
    /// The most connections open at once (each has its own thread); more are refused.
    public var maxConnections: Int
    /// How long a connection may stay idle (no bytes either way) before it is closed; at least 1 second.
    public var idleTimeout: Duration
    /// Memory per connection for reading; the largest body chunk a sink receives is a little under it.
    public var readBufferSize: Int
    /// Where libmicrohttpd's own error messages go (one line each); nil drops them.
    public var log: (@Sendable (String) -> Void)?

    public init(
        host: String = "127.0.0.1", port: UInt16 = 0, maxConnections: Int = 256,
        idleTimeout: Duration = .seconds(60), readBufferSize: Int = 256 * 1024,
        log: (@Sendable (String) -> Void)? = nil
    ) {
        self.host = host
        self.port = port
        self.maxConnections = maxConnections
        self.idleTimeout = idleTimeout
        self.readBufferSize = readBufferSize
        self.log = log
    }
}
