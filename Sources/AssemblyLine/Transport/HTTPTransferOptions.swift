/// How patient a transfer is and what it may do: timeouts, redirects, trust.
public struct HTTPTransferOptions: Sendable, Hashable {
    /// The slowest a transfer may go for how long before it is abandoned as stalled.
    public struct LowSpeedLimit: Sendable, Hashable {
        public var bytesPerSecond: Int
        public var duration: Duration

        public init(bytesPerSecond: Int, duration: Duration) {
            self.bytesPerSecond = bytesPerSecond
            self.duration = duration
        }
    }

    /// The longest wait for a connection (name lookup, TCP and TLS handshakes).
    public var connectTimeout: Duration = .seconds(15)
    /// The longest the whole exchange may take; nil for no limit (large files rely on `lowSpeed`).
    public var totalTimeout: Duration?
    /// Abandon a transfer slower than this; nil to never do so.
    public var lowSpeed: LowSpeedLimit? = LowSpeedLimit(bytesPerSecond: 1, duration: .seconds(60))
    /// Follow `Location` on 3xx answers; off by default, so a redirect comes back as the response.
    public var followRedirects = false
    /// The most redirects followed when `followRedirects` is on.
    public var maxRedirects = 5
    /// A PEM file of the CA certificates to trust instead of the system's. TLS verification itself is never off.
    public var caBundlePath: String?

    public init(
        connectTimeout: Duration = .seconds(15),
        totalTimeout: Duration? = nil,
        lowSpeed: LowSpeedLimit? = LowSpeedLimit(bytesPerSecond: 1, duration: .seconds(60)),
        followRedirects: Bool = false,
        maxRedirects: Int = 5,
        caBundlePath: String? = nil
    ) {
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.lowSpeed = lowSpeed
        self.followRedirects = followRedirects
        self.maxRedirects = maxRedirects
        self.caBundlePath = caBundlePath
    }
}
