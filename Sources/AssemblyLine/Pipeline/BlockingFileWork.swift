import Dispatch

/// Runs blocking file work (hashing a download, fsync, rename) on a dispatch thread, never on Swift's cooperative pool.
///
/// The pool has one thread per core; an fsync that waits for the disk would hold one of them and stall
/// every other shard's task meanwhile. Dispatch's global queues add threads for work that blocks.
enum BlockingFileWork {
    static func run<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .utility).async { continuation.resume(returning: work()) }
        }
    }
}
