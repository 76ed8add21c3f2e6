/// Counts of what a server has seen since it started, for tests and benchmarks.
///
/// `connectionsOpened` counts accepted TCP connections, so a client that reuses its connection
/// for several requests raises it once.
public struct HTTPServerStatistics: Sendable, Hashable {
    public var connectionsOpened: Int
    public var connectionsClosed: Int
    /// Requests whose request line arrived.
    public var requestsStarted: Int
    /// Requests whose response was sent completely.
    public var requestsCompleted: Int
    /// Requests that ended otherwise: client gone, timeout, a dropped or truncated response, shutdown.
    public var requestsFailed: Int
    /// Connections closed because their request head did not arrive in time.
    public var requestHeadsTimedOut: Int

    public init(connectionsOpened: Int = 0, connectionsClosed: Int = 0, requestsStarted: Int = 0,
                requestsCompleted: Int = 0, requestsFailed: Int = 0, requestHeadsTimedOut: Int = 0) {
        self.connectionsOpened = connectionsOpened
        self.connectionsClosed = connectionsClosed
        self.requestsStarted = requestsStarted
        self.requestsCompleted = requestsCompleted
        self.requestsFailed = requestsFailed
        self.requestHeadsTimedOut = requestHeadsTimedOut
    }

    /// Connections open now.
    public var openConnections: Int { connectionsOpened - connectionsClosed }

    /// Requests started and not yet ended.
    public var requestsInFlight: Int { requestsStarted - requestsCompleted - requestsFailed }
}
