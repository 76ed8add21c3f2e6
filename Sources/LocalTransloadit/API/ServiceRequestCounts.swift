import Synchronization

/// How many requests each of the service's routes answered, for `serve`'s closing line and the benchmarks.
package final class ServiceRequestCounts: Sendable {
    private let counts = Mutex<[String: Int]>([:])

    /// Counts one request of `route`.
    func add(_ route: String) {
        counts.withLock { $0[route, default: 0] += 1 }
    }

    /// The requests of `route` so far.
    package func count(_ route: String) -> Int {
        counts.withLock { $0[route] ?? 0 }
    }

    /// `route N` for each route that answered any, by name: `create 40, status 80, stream 40`.
    package var summary: String {
        counts.withLock { counts in counts.keys.sorted().map { "\($0) \(counts[$0] ?? 0)" }.joined(separator: ", ") }
    }
}
