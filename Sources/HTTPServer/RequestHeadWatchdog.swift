import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Closes connections whose request head does not arrive in time, however slowly its bytes trickle.
///
/// libmicrohttpd's own timeout is an idle timeout: a client that sends one header byte every few
/// seconds keeps its connection, and its thread, for as long as it likes. The watchdog gives each
/// request head a deadline instead, counted from the connection's opening or from the end of its
/// previous request, and shuts the socket down when the head is not complete by then; the
/// connection's thread then sees the end of the stream and closes it.
///
/// A connection is registered from libmicrohttpd's connection callback and removed by the same
/// callback when it closes, which libmicrohttpd calls before it closes the socket
/// (`daemon.c`, `MHD_cleanup_connections` and `new_connection_process_`, v0.9.75). Both run
/// under the registry's lock, as does every shutdown, so a descriptor is only ever shut down
/// while it still belongs to its connection.
final class RequestHeadWatchdog: Sendable {
    private struct Connection {
        var socket: Int32
        /// When the current request head began; nil while a request is being served.
        var headSince: ContinuousClock.Instant?
    }

    private let deadline: Duration
    private let connections = Mutex<[Int: Connection]>([:])
    /// Dispatch sources are thread-safe (resume and cancel may come from any thread), though not marked Sendable.
    nonisolated(unsafe) private let timer: any DispatchSourceTimer
    private let report: @Sendable (Int) -> Void
    /// Heads cut off so far.
    let timedOut = Atomic<Int>(0)

    /// Starts checking every twentieth of `deadline` (50 ms to 1 s); `report` hears of each check that closed some.
    init(deadline: Duration, report: @escaping @Sendable (Int) -> Void) {
        self.deadline = deadline
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global(qos: .utility))
        let interval = min(max(deadline / 20, .milliseconds(50)), .seconds(1))
        let milliseconds = Int(interval.components.seconds * 1000 + interval.components.attoseconds / 1_000_000_000_000_000)
        timer.schedule(deadline: .now() + .milliseconds(milliseconds), repeating: .milliseconds(milliseconds))
        self.report = report
        timer.setEventHandler { [weak self] in self?.closeLateHeads() }
        timer.resume()
    }

    /// Shuts down every connection whose head is past its deadline.
    private func closeLateHeads() {
        let now = ContinuousClock.now
        let cut = connections.withLock { table -> Int in
            var cut = 0
            for (number, connection) in table {
                guard let since = connection.headSince, since.duration(to: now) > deadline else { continue }
                table[number]?.headSince = nil
                timedOut.add(1, ordering: .relaxed)
                shutdown(connection.socket, Int32(SHUT_RDWR))
                cut += 1
            }
            return cut
        }
        if cut > 0 {
            report(cut)
        }
    }

    /// Stops checking; connections still open are left to libmicrohttpd.
    func stop() {
        timer.cancel()
    }

    /// A new connection: its first request head begins now.
    func opened(_ number: Int, socket: Int32) {
        connections.withLock { $0[number] = Connection(socket: socket, headSince: .now) }
    }

    /// The connection's request head is complete.
    func headArrived(_ number: Int) {
        connections.withLock { $0[number]?.headSince = nil }
    }

    /// The connection's request ended; the next head, if any, begins now.
    func requestEnded(_ number: Int) {
        connections.withLock { $0[number]?.headSince = .now }
    }

    /// The connection is closing (before libmicrohttpd closes its socket).
    func closed(_ number: Int) {
        _ = connections.withLock { $0.removeValue(forKey: number) }
    }
}
