package import HTTPMessages
#if canImport(Glibc)
import Glibc
#endif

/// Where a received body ended up, as the request's `HTTPDestination` asked.
package enum HTTPResponseBody: Sendable, Hashable {
    case bytes([UInt8])
    /// The body was written to `path`; `length` bytes of it.
    case file(path: String, length: Int64)
}

/// What came back from one HTTP exchange: the final response's status, headers and body, and the bytes moved.
///
/// Any status is a response at this layer; `requireSuccess()` turns a non-2xx into `TransportError.httpStatus`.
package struct HTTPResponseInfo: Sendable, Hashable {
    package var status: Int
    /// The final response's header fields in order (those of redirects and `100 Continue` are dropped).
    package var headers: HTTPHeaders
    package var body: HTTPResponseBody
    /// The URL of the final response (differs from the request's only when redirects were followed).
    package var url: String
    /// Request body bytes sent.
    package var bytesSent: Int64
    /// Response body bytes received.
    package var bytesReceived: Int64
    /// The protocol version of the final response: "1.1" or "2" (or "1.0").
    package var httpVersion: String

    package init(
        status: Int, headers: HTTPHeaders, body: HTTPResponseBody, url: String,
        bytesSent: Int64, bytesReceived: Int64, httpVersion: String
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
        self.bytesSent = bytesSent
        self.bytesReceived = bytesReceived
        self.httpVersion = httpVersion
    }

    /// True for 2xx.
    package var isSuccess: Bool { (200...299).contains(status) }

    /// The first header named `name`, case-insensitive.
    package func header(_ name: String) -> String? { headers.value(for: name) }

    /// The body kept in memory, or an empty array when it went to a file.
    package var bodyBytes: [UInt8] {
        if case let .bytes(bytes) = body { bytes } else { [] }
    }

    /// The response itself when its status is 2xx (or one of `accepted`).
    ///
    /// - Parameter bodyLimit: how many bytes of the body the error keeps (read from the file when the
    ///   body went to one).
    /// - Throws: `TransportError.httpStatus` with the status and the body's first `bodyLimit` bytes.
    @discardableResult
    package func requireSuccess(accepting accepted: Set<Int> = [], bodyLimit: Int = 4096) throws(TransportError) -> HTTPResponseInfo {
        guard !isSuccess, !accepted.contains(status) else { return self }
        throw .httpStatus(endpoint: TransportEndpoint(url: url).description, code: status, body: bodyPrefix(limit: bodyLimit))
    }

    /// The first `limit` bytes of the body as text (invalid UTF-8 repaired), wherever the body is.
    package func bodyPrefix(limit: Int) -> String {
        switch body {
        case let .bytes(bytes):
            return String(decoding: bytes.prefix(limit), as: UTF8.self)
        case let .file(path, _):
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return "" }
            defer { close(descriptor) }
            var buffer = [UInt8](repeating: 0, count: max(limit, 0))
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            return String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self)
        }
    }
}
