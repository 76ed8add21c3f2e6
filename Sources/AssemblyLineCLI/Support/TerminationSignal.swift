import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Waits for SIGINT or SIGTERM, delivered through dispatch sources instead of the default handlers that end the process.
enum TerminationSignal {
    /// Suspends until the process receives SIGINT or SIGTERM, then returns that signal's number.
    ///
    /// The signals are ignored by their default handlers from the call on, so that the caller can
    /// shut down in order.
    static func wait() async -> Int32 {
        let queue = DispatchQueue(label: "assemblyline.signals")
        return await withCheckedContinuation { continuation in
            let once = ResumeOnce(continuation)
            for number in [SIGINT, SIGTERM] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                source.setEventHandler {
                    once.resume(number)
                }
                source.resume()
                once.keep(source)
            }
        }
    }
}

/// Resumes a continuation once, whichever signal comes first, and keeps the sources alive until then; used on one serial queue.
private final class ResumeOnce: @unchecked Sendable {
    // @unchecked: every call happens on the one serial signal queue, or before its sources start.
    private var continuation: CheckedContinuation<Int32, Never>?
    private var sources: [any DispatchSourceSignal] = []

    init(_ continuation: CheckedContinuation<Int32, Never>) {
        self.continuation = continuation
    }

    func keep(_ source: any DispatchSourceSignal) {
        sources.append(source)
    }

    func resume(_ number: Int32) {
        guard let continuation else { return }
        self.continuation = nil
        for source in sources { source.cancel() }
        continuation.resume(returning: number)
    }
}
