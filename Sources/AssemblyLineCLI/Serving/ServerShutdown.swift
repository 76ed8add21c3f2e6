import Dispatch
import Synchronization

/// Stops a server within a bounded time, whatever its requests are doing.
///
/// A server's `stop()` waits for every connection thread; one stuck in a handler would keep
/// the process alive after SIGTERM. The stop runs on a thread of its own and is given
/// ``grace``; past it the command returns anyway and the process exits with the thread still
/// running.
enum ServerShutdown {
    /// How long a stop may take before the command gives up waiting.
    static let grace: Duration = .seconds(5)

    /// Runs `stop` and waits for it at most ``grace``; false when it did not finish in time.
    static func stop(_ stop: @escaping @Sendable () -> Void) async -> Bool {
        let settled = Atomic<Bool>(false)
        return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let finish: @Sendable (Bool) -> Void = { finished in
                if !settled.exchange(true, ordering: .acquiringAndReleasing) {
                    continuation.resume(returning: finished)
                }
            }
            DispatchQueue.global().async {
                stop()
                finish(true)
            }
            let seconds = Int(grace.components.seconds)
            DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(seconds)) { finish(false) }
        }
    }
}
