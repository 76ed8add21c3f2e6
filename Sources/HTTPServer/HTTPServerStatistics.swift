/// Counts of what a server has seen since it started, for tests and benchmarks.
///
/// `connectionsOpened` counts accepted TCP connections, so a client that reuses its connection
/// for several requests raises it once.
package struct HTTPServerStatistics: Sendable, Hashable {
    package var connectionsOpened: Int
    package var connectionsClosed: Int
    /// Requests whose request line arrived.
    package var requestsStarted: Int
    /// Requests whose response was sent completely.
    package var requestsCompleted: Int
    /// Requests that ended otherwise: client gone, timeout, a dropped or truncated response, shutdown.
    package var requestsFailed: Int
    /// Connections closed because their request head did not arrive in time.
    package var requestHeadsTimedOut: Int

    package init(connectionsOpened: Int = 0, connectionsClosed: Int = 0, requestsStarted: Int = 0,
                requestsCompleted: Int = 0, requestsFailed: Int = 0, requestHeadsTimedOut: Int = 0) {
        self.connectionsOpened = connectionsOpened
        self.connectionsClosed = connectionsClosed
        self.requestsStarted = requestsStarted
        self.requestsCompleted = requestsCompleted
        self.requestsFailed = requestsFailed
        self.requestHeadsTimedOut = requestHeadsTimedOut
    }
}
