import Dispatch
import Foundation
import Synchronization

/// Waits for SIGINT or SIGTERM, which no longer end the process by themselves once it exists.
final class SignalWaiter {
    /// The first signal's name and the task waiting for one, shared with the signal handlers.
    private final class State: Sendable {
        let fired = Mutex<(name: String?, waiter: CheckedContinuation<String, Never>?)>((nil, nil))

        func record(_ name: String) {
            let waiter = fired.withLock { state -> CheckedContinuation<String, Never>? in
                guard state.name == nil else { return nil }
                state.name = name
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: name)
        }
    }

    private var sources: [any DispatchSourceSignal] = []
    private let state = State()

    init() {
        let queue = DispatchQueue(label: "assemblyline.serve.signals")
        for (number, name) in [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [state] in state.record(name) }
            source.resume()
            sources.append(source)
        }
    }

    /// The name of the first signal received, as soon as there is one.
    func wait() async -> String {
        let state = state
        return await withCheckedContinuation { continuation in
            let early = state.fired.withLock { fired -> String? in
                if let name = fired.name { return name }
                fired.waiter = continuation
                return nil
            }
            if let early { continuation.resume(returning: early) }
        }
    }
}
