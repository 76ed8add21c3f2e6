import CCurl
import Synchronization

/// The thread-safe hand-over from async callers to the engine thread: new orders, `cancelAll`, shutdown,
/// and the `curl_multi_wakeup` that interrupts the engine's poll.
final class EngineInbox: Sendable {
    /// What the engine picks up on each turn of its loop.
    struct Work {
        var orders: [TransferOrder]
        var cancelGeneration: UInt64
        var shutdown: Bool
    }

    private struct State {
        var orders: [TransferOrder] = []
        var cancelGeneration: UInt64 = 0
        var shutdown = false
        /// The engine's multi handle while it is alive.
        var multi: MultiWakeup?
        var closed = false
    }

    private let state = Mutex(State())

    /// Queues `order` for the engine, or returns false when the engine has shut down.
    func submit(_ order: TransferOrder) -> Bool {
        state.withLock { state in
            guard !state.closed else { return false }
            var order = order
            order.generation = state.cancelGeneration
            state.orders.append(order)
            Self.wake(state)
            return true
        }
    }

    /// Interrupts the engine's poll so that it looks at its transfers' cancellation flags.
    func wake() {
        state.withLock { Self.wake($0) }
    }

    /// Cancels every order submitted so far.
    func cancelAll() {
        state.withLock { state in
            state.cancelGeneration += 1
            Self.wake(state)
        }
    }

    /// Asks the engine to cancel everything and stop.
    func shutdown() {
        state.withLock { state in
            state.shutdown = true
            Self.wake(state)
        }
    }

    /// Takes the queued orders and the current flags.
    func take() -> Work {
        state.withLock { state in
            let work = Work(orders: state.orders, cancelGeneration: state.cancelGeneration, shutdown: state.shutdown)
            state.orders = []
            return work
        }
    }

    /// Called by the engine thread once its multi handle exists.
    func attach(_ multi: UnsafeMutableRawPointer) {
        let wakeup = MultiWakeup(multi: multi)
        state.withLock { $0.multi = wakeup }
    }

    /// Called by the engine thread before it frees its multi handle; returns orders that arrived too late.
    func close() -> [TransferOrder] {
        state.withLock { state in
            state.closed = true
            state.multi = nil
            let late = state.orders
            state.orders = []
            return late
        }
    }

    private static func wake(_ state: borrowing State) {
        if let multi = state.multi {
            curl_multi_wakeup(multi.handle)
        }
    }
}

/// The engine's multi handle as the inbox holds it: used for nothing but `curl_multi_wakeup`.
struct MultiWakeup: @unchecked Sendable { // curl_multi_wakeup may be called from any thread (libcurl docs); nothing else is
    let handle: UnsafeMutableRawPointer

    init(multi: UnsafeMutableRawPointer) {
        handle = multi
    }
}
