import Foundation

extension Process {
    /// Waits until the process has ended, on a dispatch thread rather than the cooperative pool.
    package func ended() async {
        let process = UncheckedProcess(process: self)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                process.process.waitUntilExit()
                continuation.resume()
            }
        }
    }
}

/// A process handed to the dispatch thread that waits for it.
private struct UncheckedProcess: @unchecked Sendable {
    // @unchecked: only `waitUntilExit` is called on it there, while the caller waits for that thread.
    let process: Process
}
