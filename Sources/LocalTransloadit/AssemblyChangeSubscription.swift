import ConfigFormat
import Foundation
import HTTPServer

/// One client's change stream of one Assembly: the changes published since it subscribed, as the body of its answer.
///
/// It opens with `id: <assembly_id>` (as production's stream does), sends each change as it is
/// published, a comment every ``keepAliveInterval`` of quiet (so that a client gone away is
/// noticed), and ends after `assembly_finished` or `assembly_error`.
final class AssemblyChangeSubscription: HTTPBodyStream, @unchecked Sendable {  // Its queue is guarded by `condition`.
    /// The quiet after which a keep-alive comment goes out.
    static let keepAliveInterval: Duration = .seconds(15)

    let assemblyID: String
    private let urls: ServiceURLs
    private let condition = NSCondition()
    private var queue: [AssemblyChange] = []
    private var opened = false
    private var ended = false
    private var quiet: Duration = .zero
    private let onClose: @Sendable (AssemblyChangeSubscription) -> Void

    init(assemblyID: String, urls: ServiceURLs, onClose: @escaping @Sendable (AssemblyChangeSubscription) -> Void) {
        self.assemblyID = assemblyID
        self.urls = urls
        self.onClose = onClose
    }

    /// Queues `changes` for the client.
    func deliver(_ changes: [AssemblyChange]) {
        condition.lock()
        defer { condition.unlock() }
        queue += changes
        condition.signal()
    }

    func next(waitingAtMost timeout: Duration) -> [UInt8]? {
        condition.lock()
        defer { condition.unlock() }
        guard !ended else { return nil }
        guard opened else {
            opened = true
            return Array("id: \(assemblyID)\n\n".utf8)
        }
        if queue.isEmpty {
            _ = condition.wait(until: Date().addingTimeInterval(timeout.timeInterval))
        }
        guard !queue.isEmpty else {
            quiet += timeout
            guard quiet >= Self.keepAliveInterval else { return [] }
            quiet = .zero
            return Array(": keep-alive\n\n".utf8)
        }
        quiet = .zero
        var text = ""
        for change in queue where !ended {
            text += change.eventText(assemblyID: assemblyID, urls: urls)
            ended = change.ends
        }
        queue.removeAll()
        return Array(text.utf8)
    }

    func close() {
        onClose(self)
    }
}
