#if DEBUG
import Synchronization

/// Counts how often something happened, from any thread.
final class PassageCounter: Sendable {
    private let count = Atomic<Int>(0)

    /// Adds one and returns the new count.
    func next() -> Int {
        count.add(1, ordering: .relaxed).newValue
    }
}
#endif
