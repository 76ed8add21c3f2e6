import Dispatch
import Foundation
import Synchronization

/// A pool of worker threads that run Assemblies one at a time each, in the order they became ready.
///
/// Image work blocks (libvips), so the workers are threads of their own rather than tasks on
/// Swift's cooperative pool. ``stop()`` lets each worker finish the Assembly it holds and
/// returns once all have ended; Assemblies still queued stay `ASSEMBLY_EXECUTING` on disk and
/// are queued again when the service starts on the same data directory.
final class ExecutionQueue: Sendable {
    private struct State {
        var pending: [String] = []
        var stopping = false
    }

    private let state = Mutex(State())
    private let ready = DispatchSemaphore(value: 0)
    private let ended = DispatchGroup()
    private let workerCount: Int

    /// Starts `workers` threads that call `run` with each queued Assembly ID.
    init(workers: Int, run: @escaping @Sendable (String) -> Void) {
        workerCount = max(1, workers)
        for index in 0..<workerCount {
            ended.enter()
            let thread = Thread { [self] in
                while let id = next() {
                    run(id)
                }
                ended.leave()
            }
            thread.name = "assembly-worker-\(index + 1)"
            thread.start()
        }
    }

    /// Queues an Assembly unless it is already waiting.
    func enqueue(_ id: String) {
        let added = state.withLock { state -> Bool in
            guard !state.stopping, !state.pending.contains(id) else { return false }
            state.pending.append(id)
            return true
        }
        if added { ready.signal() }
    }

    /// How many Assemblies wait for a worker.
    var waiting: Int { state.withLock { $0.pending.count } }

    /// Stops taking work and waits for every worker to finish its current Assembly.
    func stop() {
        let first = state.withLock { state -> Bool in
            defer { state.stopping = true }
            return !state.stopping
        }
        guard first else { return }
        for _ in 0..<workerCount { ready.signal() }
        ended.wait()
    }

    /// Blocks until an ID is queued; nil once stopping.
    private func next() -> String? {
        while true {
            ready.wait()
            let taken = state.withLock { state -> (id: String?, stop: Bool) in
                if state.stopping { return (nil, true) }
                return state.pending.isEmpty ? (nil, false) : (state.pending.removeFirst(), false)
            }
            if taken.stop { return nil }
            if let id = taken.id { return id }
        }
    }
}
