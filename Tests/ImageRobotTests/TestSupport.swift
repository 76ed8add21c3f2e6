import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A fresh directory under the system temp dir, removed when the value goes.
final class TemporaryDirectory: Sendable {
    let path: String

    init() throws {
        var template = Array((NSTemporaryDirectory() + "/imagerobot-test-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        path = String(cString: made)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    func file(_ name: String) -> String { path + "/" + name }
}

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
