import ConfigFormat
import Dispatch
import HTTPServer
import Synchronization

/// One client's change stream of one Assembly: the changes published since it subscribed, as the body of its answer.
///
/// It opens with `id: <assembly_id>` (as production's stream does), sends each change as it is
/// published, a comment every ``keepAliveInterval`` of quiet (so that a client gone away is
/// noticed), and ends after `assembly_finished` or `assembly_error`. Waits for changes run to a
/// monotonic deadline (`DispatchTime`): they are real waits of a connection's thread, not times
/// the service records, so they neither follow the wall clock nor the service's clock.
final class AssemblyChangeSubscription: HTTPBodyStream {
    /// The quiet after which a keep-alive comment goes out.
    static let keepAliveInterval: Duration = .seconds(15)

    /// What was sent to the client and what waits for it.
    private struct Stream {
        var queue: [AssemblyChange] = []
        var opened = false
        var ended = false
        var quiet: Duration = .zero

        /// True while the next answer has to wait for a change.
        var awaitsChanges: Bool { opened && !ended && queue.isEmpty }
    }

    let assemblyID: String
    private let urls: ServiceURLs
    private let stream = Mutex(Stream())
    /// Signalled once for each delivery.
    private let delivered = DispatchSemaphore(value: 0)
    private let onClose: @Sendable (AssemblyChangeSubscription) -> Void

    init(assemblyID: String, urls: ServiceURLs, onClose: @escaping @Sendable (AssemblyChangeSubscription) -> Void) {
        self.assemblyID = assemblyID
        self.urls = urls
        self.onClose = onClose
    }

    /// Queues `changes` for the client.
    func deliver(_ changes: [AssemblyChange]) {
        stream.withLock { $0.queue += changes }
        delivered.signal()
    }

    func next(waitingAtMost timeout: Duration) -> [UInt8]? {
        let deadline = DispatchTime.now() + timeout.timeInterval
        // A signal left by a delivery already sent wakes the wait with nothing queued: it waits on to the deadline.
        while stream.withLock({ $0.awaitsChanges }), delivered.wait(timeout: deadline) == .success {}
        return stream.withLock { stream -> [UInt8]? in
            guard !stream.ended else { return nil }
            guard stream.opened else {
                stream.opened = true
                return Array("id: \(assemblyID)\n\n".utf8)
            }
            guard !stream.queue.isEmpty else {
                stream.quiet += timeout
                guard stream.quiet >= Self.keepAliveInterval else { return [] }
                stream.quiet = .zero
                return Array(": keep-alive\n\n".utf8)
            }
            stream.quiet = .zero
            var text = ""
            for change in stream.queue where !stream.ended {
                text += change.eventText(assemblyID: assemblyID, urls: urls)
                stream.ended = change.ends
            }
            stream.queue.removeAll()
            return Array(text.utf8)
        }
    }

    func close() {
        onClose(self)
    }
}
