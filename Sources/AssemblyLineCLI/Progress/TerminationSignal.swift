import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Catches SIGINT and SIGTERM through dispatch sources, so that a command can shut down in order instead of being killed.
///
/// Signals are caught from `init` on; one that arrives before ``wait()`` is kept and returned by it.
final class TerminationSignal: @unchecked Sendable {
    // @unchecked: `received` and `continuation` are touched only on `queue`; `sources` only in init.
    private let queue = DispatchQueue(label: "assemblyline.signals")
    private var sources: [any DispatchSourceSignal] = []
    private var received: Int32?
    private var continuation: CheckedContinuation<Int32, Never>?

    /// Replaces the default handlers of SIGINT and SIGTERM from now on.
    init() {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [unowned self] in deliver(number) }
            source.resume()
            sources.append(source)
        }
    }

    deinit {
        for source in sources { source.cancel() }
    }

    /// Suspends until SIGINT or SIGTERM arrives (or returns the one received since the last wait), giving its number.
    func wait() async -> Int32 {
        await withCheckedContinuation { continuation in
            queue.async {
                if let received = self.received {
                    self.received = nil
                    continuation.resume(returning: received)
                } else {
                    self.continuation = continuation
                }
            }
        }
    }

    private func deliver(_ number: Int32) {
        if let continuation {
            self.continuation = nil
            continuation.resume(returning: number)
        } else if received == nil {
            received = number
        }
    }
}
