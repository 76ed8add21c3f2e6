/// How far one transfer has come, in body bytes each way.
package struct TransferProgress: Sendable, Hashable {
    package var bytesSent: Int64
    /// The request body's length, or 0 when there is none.
    package var bytesToSend: Int64
    package var bytesReceived: Int64
    /// The response body's announced length, or nil before it is known (or when the server does not say).
    package var bytesToReceive: Int64?

    package init(bytesSent: Int64, bytesToSend: Int64, bytesReceived: Int64, bytesToReceive: Int64?) {
        self.bytesSent = bytesSent
        self.bytesToSend = bytesToSend
        self.bytesReceived = bytesReceived
        self.bytesToReceive = bytesToReceive
    }
}

/// Receives progress on the transport's own thread: it must return quickly and never block.
package typealias TransferProgressHandler = @Sendable (TransferProgress) -> Void
