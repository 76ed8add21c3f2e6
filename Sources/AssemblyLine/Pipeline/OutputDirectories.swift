import Foundation
import Synchronization

/// The output directories a run's downloads made or found: each is asked of the file system once, not once a result.
///
/// At most ``limit`` are remembered; past that the set starts again, so that a layout with a directory a result holds
/// memory flat. A directory removed while the run goes on is not made again: the downloads into it fail
/// `OUTPUT_NOT_WRITABLE`, and a resume makes it.
package final class OutputDirectories: Sendable {
    /// The most directories remembered at once.
    package static let limit = 4_096
    private let known = Mutex<Set<String>>([])

    package init() {}

    /// Makes `directory` and its parents, unless this run made or found it already.
    package func make(_ directory: String) throws {
        guard !known.withLock({ $0.contains(directory) }) else { return }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        known.withLock { known in
            if known.count >= Self.limit { known.removeAll(keepingCapacity: true) }
            known.insert(directory)
        }
    }
}
