import Synchronization

/// A request to stop a run in order, from outside it (a signal): the first reason given wins, and waiters learn it.
package final class RunStop: Sendable {
    /// Why a run stops before its end.
    package enum Reason: Sendable, Hashable {
        /// A signal arrived (SIGINT, SIGTERM), with its number.
        case signal(Int32)
        /// `--max-duration` passed.
        case deadline(Duration)
    }

    private struct State {
        var reason: Reason?
        var waiters: [Int: CheckedContinuation<Reason?, Never>] = [:]
        var nextWaiter = 0
    }

    private let state = Mutex(State())

    package init() {}

    /// The reason a stop was asked for, nil while none was.
    package var requested: Reason? {
        state.withLock { $0.reason }
    }

    /// Asks the run to stop for `reason`, unless it was asked already.
    package func request(_ reason: Reason) {
        let waiters = state.withLock { state -> [CheckedContinuation<Reason?, Never>] in
            guard state.reason == nil else { return [] }
            state.reason = reason
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        waiters.forEach { $0.resume(returning: reason) }
    }

    /// Waits for a stop and gives its reason; nil when the waiting task is cancelled first.
    package func wait() async -> Reason? {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready: Reason?? = state.withLock { state in
                    if let reason = state.reason { return .some(reason) }
                    if Task.isCancelled { return .some(nil) }
                    state.waiters[id] = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume(returning: nil)
        }
    }
}
