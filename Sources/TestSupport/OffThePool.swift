import Foundation

/// Runs blocking work (a socket read, a timed wait, a child process) on a thread of its own, so that
/// it neither blocks the cooperative pool nor waits for a pool thread while it times something.
package func offThePool<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
