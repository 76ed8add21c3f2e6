import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The state libmicrohttpd's callbacks reach through their closure pointer: the handler and the counters.
///
/// One per server. It is retained for as long as the daemon runs and released after
/// `MHD_stop_daemon` has joined every connection thread, so no callback outlives it.
final class ServerCore: Sendable {
    let handler: any HTTPHandler
    let log: (@Sendable (String) -> Void)?
    let connectionsOpened = Atomic<Int>(0)
    let connectionsClosed = Atomic<Int>(0)
    let requestsStarted = Atomic<Int>(0)
    let requestsCompleted = Atomic<Int>(0)
    let requestsFailed = Atomic<Int>(0)
    /// Set when the server begins to stop, so that delayed answers give up waiting.
    let stopping = Atomic<Bool>(false)
    /// libmicrohttpd's latest message, kept to explain a failed start.
    let lastMessage = Mutex<String?>(nil)

    init(handler: any HTTPHandler, log: (@Sendable (String) -> Void)?) {
        self.handler = handler
        self.log = log
    }

    var statistics: HTTPServerStatistics {
        HTTPServerStatistics(
            connectionsOpened: connectionsOpened.load(ordering: .relaxed),
            connectionsClosed: connectionsClosed.load(ordering: .relaxed),
            requestsStarted: requestsStarted.load(ordering: .relaxed),
            requestsCompleted: requestsCompleted.load(ordering: .relaxed),
            requestsFailed: requestsFailed.load(ordering: .relaxed))
    }

    /// Records one of libmicrohttpd's messages and passes it to the configured log.
    func record(message: String) {
        let line = message.hasSuffix("\n") ? String(message.dropLast()) : message
        lastMessage.withLock { $0 = line }
        log?(line)
    }

    /// Blocks the calling connection thread for `duration`, or until the server stops.
    func pause(for duration: Duration) {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: duration)
        while !stopping.load(ordering: .relaxed), clock.now < deadline {
            let left = clock.now.duration(to: deadline)
            let slice = min(left, .milliseconds(20))
            usleep(useconds_t(slice.components.attoseconds / 1_000_000_000_000 + slice.components.seconds * 1_000_000))
        }
    }
}
