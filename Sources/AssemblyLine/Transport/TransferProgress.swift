/// How far one transfer has come, in body bytes each way.
public struct TransferProgress: Sendable, Hashable {
    public var bytesSent: Int64
    /// The request body's length, or 0 when there is none.
    public var bytesToSend: Int64
    public var bytesReceived: Int64
    /// The response body's announced length, or nil before it is known (or when the server does not say).
    public var bytesToReceive: Int64?

    public init(bytesSent: Int64, bytesToSend: Int64, bytesReceived: Int64, bytesToReceive: Int64?) {
        self.bytesSent = bytesSent
        self.bytesToSend = bytesToSend
        self.bytesReceived = bytesReceived
        self.bytesToReceive = bytesToReceive
    }
}

/// Receives progress on the transport's own thread: it must return quickly and never block.
public typealias TransferProgressHandler = @Sendable (TransferProgress) -> Void
