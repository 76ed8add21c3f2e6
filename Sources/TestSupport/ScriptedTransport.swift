package import AssemblyLine
import Foundation
package import HTTPMessages
import Synchronization

/// An HTTP transport that answers from a script instead of a network: each request takes the first
/// scripted exchange that matches it, and every request is kept for assertions.
///
/// ```swift
/// let transport = ScriptedTransport()
/// transport.script(.post, "/assemblies/") { request in .json(200, #"{"ok":"ASSEMBLY_EXECUTING"}"#) }
/// transport.script(.get, "/assemblies/", times: 3) { _ in .json(200, #"{"ok":"ASSEMBLY_EXECUTING"}"#) }
/// ```
///
/// A request nothing matches fails with `TransportError.failed`, naming it, so a test that sends
/// what it did not expect sees that it did.
package final class ScriptedTransport: HTTPTransport, Sendable {
    /// What one scripted exchange answers.
    package enum Answer: Sendable {
        /// A response; a `.file` destination gets the body written to its path, a `.stream` one in one chunk.
        case response(status: Int, headers: HTTPHeaders, body: [UInt8])
        /// No complete answer: the transfer fails with this error.
        case failure(TransportError)
        /// No answer until the task is cancelled, then the transfer fails as libcurl's does when its task is (a stop mid-transfer).
        case heldUntilCancelled

        /// A JSON answer.
        package static func json(_ status: Int, _ text: String) -> Answer {
            .response(status: status, headers: ["Content-Type": "application/json"], body: Array(text.utf8))
        }

        /// A body of bytes (a result file).
        package static func bytes(_ status: Int, _ bytes: [UInt8]) -> Answer {
            .response(status: status, headers: [:], body: bytes)
        }
    }

    private struct Exchange {
        var method: HTTPMethod
        /// The URL contains this.
        var urlPart: String
        var remaining: Int
        var answer: @Sendable (HTTPRequestSpec) -> Answer
    }

    private let exchanges = Mutex<[Exchange]>([])
    private let sent = Mutex<[HTTPRequestSpec]>([])

    package init() {}

    /// Answers the next `times` requests with `method` whose URL contains `urlPart` with `answer`.
    package func script(_ method: HTTPMethod, _ urlPart: String, times: Int = 1, _ answer: @escaping @Sendable (HTTPRequestSpec) -> Answer) {
        exchanges.withLock { $0.append(Exchange(method: method, urlPart: urlPart, remaining: times, answer: answer)) }
    }

    /// Every request sent so far, in order.
    package var requests: [HTTPRequestSpec] { sent.withLock { $0 } }

    /// The requests sent with `method` whose URL contains `urlPart`.
    package func requests(_ method: HTTPMethod, _ urlPart: String) -> [HTTPRequestSpec] {
        requests.filter { $0.method == method && $0.url.contains(urlPart) }
    }

    package func send(
        _ request: HTTPRequestSpec, to destination: HTTPDestination, options: HTTPTransferOptions, progress: TransferProgressHandler?
    ) async throws(TransportError) -> HTTPResponseInfo {
        sent.withLock { $0.append(request) }
        let answer = exchanges.withLock { exchanges -> (@Sendable (HTTPRequestSpec) -> Answer)? in
            guard let index = exchanges.firstIndex(where: { $0.method == request.method && request.url.contains($0.urlPart) }) else {
                return nil
            }
            exchanges[index].remaining -= 1
            let answer = exchanges[index].answer
            if exchanges[index].remaining == 0 { exchanges.remove(at: index) }
            return answer
        }
        guard let answer else {
            throw .failed(endpoint: TransportEndpoint(url: request.url).description, reason: "no scripted answer for \(request.method) \(request.url)")
        }
        switch answer(request) {
        case let .failure(error):
            throw error
        case .heldUntilCancelled:
            while !Task.isCancelled { await Task.yield() }
            throw .cancelled(endpoint: TransportEndpoint(url: request.url).description)
        case let .response(status, headers, body):
            let sentBytes = request.body.contentLength
            switch destination {
            case .memory:
                return HTTPResponseInfo(status: status, headers: headers, body: .bytes(body), url: request.url,
                                        bytesSent: sentBytes, bytesReceived: Int64(body.count), httpVersion: "1.1")
            case let .file(path, limit, _):
                if let limit, (200..<300).contains(status), Int64(body.count) > limit { throw .tooLarge(endpoint: request.url, limit: Int(limit)) }
                guard FileManager.default.createFile(atPath: path, contents: Data(body)) else {
                    throw .fileIO(path: path, reason: "cannot create")
                }
                return HTTPResponseInfo(status: status, headers: headers, body: .file(path: path, length: Int64(body.count)),
                                        url: request.url, bytesSent: sentBytes, bytesReceived: Int64(body.count), httpVersion: "1.1")
            case let .stream(receiver):
                receiver.receive(body)
                return HTTPResponseInfo(status: status, headers: headers, body: .bytes([]), url: request.url,
                                        bytesSent: sentBytes, bytesReceived: Int64(body.count), httpVersion: "1.1")
            }
        }
    }

    package func cancelAll() {}
}
