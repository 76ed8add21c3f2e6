/// A handler's decision, made when a request's headers arrive, about its body and its answer.
///
/// libmicrohttpd hands over a body in pieces after the headers, so the choice comes first:
/// answer at once (any body is discarded), collect a small body in memory, or stream it to a
/// sink. The plan is used on the request's connection thread only, so its closures and sinks
/// need not be `Sendable`.
package enum HTTPRequestPlan {
    /// Answer now, without reading a body (the connection is closed after it if one was sent).
    case respond(HTTPResponse)
    /// Collect the body in memory, up to `limit` bytes, then answer with `then`.
    ///
    /// A declared `Content-Length` over the limit is answered with `tooLarge` at once; a
    /// chunked body that grows over it is read to its end and discarded, then answered with `tooLarge`.
    case buffer(limit: Int, tooLarge: HTTPResponse = .contentTooLarge, then: (HTTPRequest, [UInt8]) -> HTTPResponse)
    /// Hand the body to a sink as it arrives; the sink gives the answer.
    case stream(any HTTPBodySink)
}

@available(*, unavailable, message: "a plan belongs to its request's connection thread")
extension HTTPRequestPlan: Sendable {}
