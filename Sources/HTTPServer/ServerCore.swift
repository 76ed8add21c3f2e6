import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The state libmicrohttpd's callbacks reach through their closure pointer: the handler, the head rules, the counters.
///
/// One per server. It is retained for as long as the daemon runs and released after
/// `MHD_stop_daemon` has joined every connection thread, so no callback outlives it.
final class ServerCore: Sendable {
    let handler: any HTTPHandler
    let singletonHeaders: Set<String>
    let watchdog: RequestHeadWatchdog
    private let log: LogThrottle?
    let connectionsOpened = Atomic<Int>(0)
    let connectionsClosed = Atomic<Int>(0)
    let requestsStarted = Atomic<Int>(0)
    let requestsCompleted = Atomic<Int>(0)
    let requestsFailed = Atomic<Int>(0)
    /// Set when the server begins to stop, so that delayed answers give up waiting.
    let stopping = Atomic<Bool>(false)
    /// libmicrohttpd's latest messages (a few: a TLS failure takes two lines), kept to explain a failed start.
    let recentMessages = Mutex<[String]>([])

    init(handler: any HTTPHandler, configuration: HTTPServerConfiguration) {
        self.handler = handler
        singletonHeaders = configuration.singletonHeaders
        let log = configuration.log.map { LogThrottle(output: $0) }
        self.log = log
        let deadline = configuration.requestHeadTimeout
        watchdog = RequestHeadWatchdog(deadline: deadline) { count in
            // The watchdog cannot tell an idle keep-alive connection from a head that trickles in: both hold a thread.
            log?.log("Closed \(count) connection(s) that sent no whole request head within \(deadline) (idle keep-alive or slow clients).")
        }
    }

    var statistics: HTTPServerStatistics {
        HTTPServerStatistics(
            connectionsOpened: connectionsOpened.load(ordering: .relaxed),
            connectionsClosed: connectionsClosed.load(ordering: .relaxed),
            requestsStarted: requestsStarted.load(ordering: .relaxed),
            requestsCompleted: requestsCompleted.load(ordering: .relaxed),
            requestsFailed: requestsFailed.load(ordering: .relaxed),
            requestHeadsTimedOut: watchdog.timedOut.load(ordering: .relaxed))
    }

    /// Records one of libmicrohttpd's messages and passes it to the configured log, at a bounded rate.
    func record(message: String) {
        let line = message.hasSuffix("\n") ? String(message.dropLast()) : message
        recentMessages.withLock { $0 = Array(($0 + [line]).suffix(3)) }
        log?.log(line)
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
