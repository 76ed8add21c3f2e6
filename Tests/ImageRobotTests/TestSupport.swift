import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The size of the file at `path`.
func fileSize(_ path: String) throws -> Int {
    (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? -1
}

/// A counter several threads may bump.
final class Observed: Sendable {
    private let count: Mutex<Int>

    init(_ initial: Int) {
        count = Mutex(initial)
    }

    func increment() {
        count.withLock { $0 += 1 }
    }

    var value: Int { count.withLock { $0 } }
}
