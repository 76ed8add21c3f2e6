/// A response body made while it is sent, with no length known in advance (sent chunked): an event stream.
///
/// libmicrohttpd's thread for the connection asks for the next bytes, one call at a time; a stream
/// may block it, but at most for the time it is given, so that a stopping server is not held up.
package protocol HTTPBodyStream: Sendable {
    /// The next bytes, waiting at most `timeout` for them: bytes, `[]` when none came in time, nil at the end.
    func next(waitingAtMost timeout: Duration) -> [UInt8]?
    /// The response is over (sent, the client went away, or the server stops): let go of what it holds.
    func close()
}
