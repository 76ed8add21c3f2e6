package import AssemblyLine
import Foundation

/// The `HTTPTransport` over libcurl: one engine thread and multi handle shared by every request.
///
/// ```swift
/// let transport = CurlTransport()
/// let response = try await transport.send(.get("http://127.0.0.1:9442/assemblies/\(id)"))
/// try response.requireSuccess()
/// ```
/// Requests from any task enter a thread-safe inbox; the engine thread runs them concurrently
/// with connection reuse (and HTTP/2 multiplexing over TLS where the server offers it). Cancelling
/// the calling task aborts its transfer at once; `cancelAll()` aborts every transfer in flight.
/// Releasing the transport cancels what is left and stops the thread.
package final class CurlTransport: HTTPTransport {
    /// Connection limits of the shared engine.
    package struct Configuration: Sendable, Hashable {
        /// Concurrent connections per host; 0 for no limit. Transfers beyond it wait for a free connection.
        package var maxHostConnections: Int
        /// Concurrent connections in total; 0 for no limit.
        package var maxTotalConnections: Int

        package init(maxHostConnections: Int = 0, maxTotalConnections: Int = 0) {
            self.maxHostConnections = maxHostConnections
            self.maxTotalConnections = maxTotalConnections
        }
    }

    private let inbox = EngineInbox()

    /// Starts the engine thread.
    package init(configuration: Configuration = Configuration()) {
        let inbox = inbox
        let limits = CurlMultiEngine.Limits(
            maxHostConnections: configuration.maxHostConnections,
            maxTotalConnections: configuration.maxTotalConnections)
        let thread = Thread {
            guard let engine = CurlMultiEngine(inbox: inbox, limits: limits) else {
                for order in inbox.close() {
                    order.complete(.failure(.failed(endpoint: order.endpoint, reason: "libcurl could not start")))
                }
                return
            }
            engine.run()
        }
        thread.name = "assemblyline-curl"
        thread.start()
    }

    deinit {
        inbox.shutdown()
    }

    package func send(
        _ request: HTTPRequestSpec,
        to destination: HTTPDestination,
        options: HTTPTransferOptions,
        progress: TransferProgressHandler?
    ) async throws(TransportError) -> HTTPResponseInfo {
        let ticket = TransferTicket()
        let inbox = inbox
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let order = TransferOrder(
                    request: request, destination: destination, options: options, progress: progress,
                    ticket: ticket, continuation: continuation)
                if Task.isCancelled {
                    order.complete(.failure(.cancelled(endpoint: order.endpoint)))
                } else if !inbox.submit(order) {
                    order.complete(.failure(.failed(endpoint: order.endpoint, reason: "the libcurl engine is not running")))
                }
            }
        } onCancel: {
            ticket.cancel()
            inbox.wake()
        }
        return try result.get()
    }

    package func cancelAll() {
        inbox.cancelAll()
    }
}
