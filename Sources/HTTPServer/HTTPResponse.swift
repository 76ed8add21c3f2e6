package import HTTPMessages

/// What the server answers: status, headers and a body from memory or from a file, plus optional faults.
///
/// `Content-Length` is always computed from the body (a handler's own is ignored). The fault and
/// delay settings exist so a test service can misbehave on purpose: answer slowly, close the
/// connection without answering, or cut the body short after announcing its full length.
package struct HTTPResponse: Sendable {
    /// The response body.
    package enum Body: Sendable {
        case empty
        case bytes([UInt8])
        /// A file (range), streamed from disk.
        case file(HTTPFile)
        /// Bytes made while they are sent, chunked; `Content-Length` is not sent.
        case stream(any HTTPBodyStream)
    }

    /// A deliberate failure, for fault injection.
    package enum Fault: Sendable, Hashable {
        /// Close the connection without sending anything; the client sees an empty reply.
        case dropBeforeResponse
        /// Send the headers (with the full `Content-Length`) and this many body bytes, then close.
        case dropAfterBodyBytes(UInt64)
    }

    package var status: Int
    package var headers: HTTPHeaders
    package var body: Body
    /// Wait this long before answering; only the request's own connection waits.
    package var delay: Duration?
    package var fault: Fault?

    package init(status: Int = 200, headers: HTTPHeaders = [:], body: Body = .empty) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The number of body bytes announced in `Content-Length`; 0 for a stream, which announces none.
    package var bodyLength: UInt64 {
        switch body {
        case .empty, .stream: return 0
        case let .bytes(bytes): return UInt64(bytes.count)
        case let .file(file): return file.length
        }
    }

    /// A UTF-8 text body with `Content-Type: text/plain; charset=utf-8`.
    package static func text(_ text: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: .bytes(Array(text.utf8)))
    }

    /// A JSON body (already serialized) with `Content-Type: application/json`.
    package static func json(_ json: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: .bytes(Array(json.utf8)))
    }

    /// A file body with the given content type.
    package static func file(_ file: HTTPFile, status: Int = 200, contentType: String = "application/octet-stream") -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": contentType], body: .file(file))
    }

    /// An empty body with the given status (for example 204).
    package static func empty(status: Int) -> HTTPResponse {
        HTTPResponse(status: status)
    }

    /// `404 Not Found`, the server's answer when a handler has nothing for a request.
    package static let notFound = text("Not Found\n", status: 404)

    /// `413 Content Too Large`, the answer to a buffered body over its bound.
    package static let contentTooLarge = text("Content Too Large\n", status: 413)

    /// Closes the connection without an answer.
    package static func dropConnection() -> HTTPResponse {
        var response = HTTPResponse(status: 500)
        response.fault = .dropBeforeResponse
        return response
    }

    /// This response, sent after `delay`.
    package func delayed(by delay: Duration) -> HTTPResponse {
        var response = self
        response.delay = delay
        return response
    }

    /// This response with its body cut off after `count` bytes (the connection closes there).
    package func truncated(afterBodyBytes count: UInt64) -> HTTPResponse {
        var response = self
        response.fault = .dropAfterBodyBytes(count)
        return response
    }
}
