import Synchronization

/// Collects what a callback hands over (log lines, events) from any thread, for a test to look at.
package final class Recorder<Element: Sendable>: Sendable {
    private let storage = Mutex<[Element]>([])

    package init() {}

    /// Keeps `element`.
    package func append(_ element: Element) {
        storage.withLock { $0.append(element) }
    }

    /// Everything kept so far, in order.
    package var all: [Element] { storage.withLock { $0 } }

    /// A closure that keeps what it is given.
    package var sink: @Sendable (Element) -> Void {
        { element in self.append(element) }
    }
}
