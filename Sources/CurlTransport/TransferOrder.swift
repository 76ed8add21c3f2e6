import AssemblyLine
import Synchronization

/// The cancellation flag of one `send`, shared by the caller's task and the engine thread.
final class TransferTicket: Sendable {
    private let flag = Atomic<Bool>(false)

    /// Marks the transfer cancelled; the engine aborts it on its next wake-up (or progress callback).
    func cancel() {
        flag.store(true, ordering: .releasing)
    }

    var isCancelled: Bool { flag.load(ordering: .acquiring) }
}

/// Everything the engine thread needs to run one `send`, handed over through the inbox.
struct TransferOrder: Sendable {
    var request: HTTPRequestSpec
    var destination: HTTPDestination
    var options: HTTPTransferOptions
    var progress: TransferProgressHandler?
    var ticket: TransferTicket
    /// The `cancelAll` generation when the order was submitted: a later `cancelAll` cancels it.
    var generation: UInt64 = 0
    var continuation: CheckedContinuation<Result<HTTPResponseInfo, TransportError>, Never>

    /// Hands the outcome to the waiting caller; called exactly once per order.
    func complete(_ result: Result<HTTPResponseInfo, TransportError>) {
        continuation.resume(returning: result)
    }

    /// The request's endpoint as error messages show it.
    var endpoint: String { TransportEndpoint(url: request.url).description }
}
