/// How patient a transfer is and what it may do: timeouts, redirects, trust.
package struct HTTPTransferOptions: Sendable, Hashable {
    /// The slowest a transfer may go for how long before it is abandoned as stalled.
    package struct LowSpeedLimit: Sendable, Hashable {
        package var bytesPerSecond: Int
        package var duration: Duration

        package init(bytesPerSecond: Int, duration: Duration) {
            self.bytesPerSecond = bytesPerSecond
            self.duration = duration
        }
    }

    /// The longest wait for a connection (name lookup, TCP and TLS handshakes).
    package var connectTimeout: Duration = .seconds(15)
    /// The longest the whole exchange may take; nil for no limit (large files rely on `lowSpeed`).
    package var totalTimeout: Duration?
    /// Abandon a transfer slower than this; nil to never do so.
    package var lowSpeed: LowSpeedLimit? = LowSpeedLimit(bytesPerSecond: 1, duration: .seconds(60))
    /// Follow `Location` on 3xx answers (an https exchange only to https); off by default, so a redirect comes back as the response.
    package var followRedirects = false
    /// The most redirects followed when `followRedirects` is on.
    package var maxRedirects = 5
    /// A PEM file of the CA certificates to trust instead of the system's. TLS verification itself is never off.
    package var caBundlePath: String?
    /// The peers the transfer may reach (``PeerRule``): any other connection, by a name that resolves
    /// there, a redirect or a reused connection, gets no request (`refusedAddress`).
    package var peers = PeerRule.any

    /// These options with a total timeout of `deadline`, or their own when it is shorter.
    package func bounded(by deadline: Duration) -> HTTPTransferOptions {
        var bounded = self
        bounded.totalTimeout = max(.milliseconds(1), min(deadline, totalTimeout ?? deadline))
        return bounded
    }

    package init(
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
