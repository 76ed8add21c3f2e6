/// Receives a request body chunk by chunk as it arrives, then gives the response.
///
/// The server calls a sink from the request's connection thread only, one call at a time and
/// in this order: ``receive(_:)`` for every chunk (never empty, at most the configured read
/// buffer), then exactly one of ``finish()`` (the whole body arrived) or ``abort(_:)`` (it
/// never will). Chunks are only valid during the call: copy or write them out.
///
/// A sink that cannot take more throws an ``HTTPRejection`` from `receive`: the server then
/// reads and discards the rest of the body (libmicrohttpd can only answer once a body is
/// complete) and sends the rejection's response; `finish` is not called.
package protocol HTTPBodySink: AnyObject {
    /// The next bytes of the body.
    func receive(_ chunk: UnsafeRawBufferPointer) throws(HTTPRejection)
    /// The body is complete; returns the answer.
    func finish() -> HTTPResponse
    /// The body will not be completed (the client went away, the connection timed out, or the
    /// server is stopping). Clean up (delete temporary files); no response can be sent.
    func abort(_ reason: HTTPAbortReason)
}

/// A sink's refusal of a body, carrying the answer to send (for example a 400 for a malformed form).
package struct HTTPRejection: Error, Sendable {
    package var response: HTTPResponse

    package init(_ response: HTTPResponse) {
        self.response = response
    }
}

/// Why a request ended before its body was complete.
package enum HTTPAbortReason: Sendable, Hashable, CustomStringConvertible {
    /// The client closed the connection or it broke (a cancelled upload).
    case clientDisconnected
    /// The connection was idle longer than the configured timeout.
    case timedOut
    /// The server stopped.
    case serverStopped

    package var description: String {
        switch self {
        case .clientDisconnected: return "the client disconnected"
        case .timedOut: return "the connection timed out"
        case .serverStopped: return "the server stopped"
        }
    }
}
