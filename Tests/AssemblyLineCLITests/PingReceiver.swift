import Foundation
import HTTPMessages
import HTTPServer
import Synchronization

/// A dead-man's switch on loopback, written for these tests: answers every ping `200 OK` and records it.
final class PingReceiver: Sendable {
    /// One request as it came.
    struct Ping: Sendable, Hashable {
        var method: String
        var path: String
        var query: [String: String]
        var body: String
    }

    /// The pings, kept apart from the server that appends them.
    private final class Received: Sendable {
        let pings = Mutex<[Ping]>([])
    }

    private let server: HTTPServer
    private let received = Received()

    init() throws {
        let received = self.received
        server = try HTTPServer(configuration: HTTPServerConfiguration(port: 0)) { request in
            .buffer(limit: 1 << 20) { _, body in
                let query = Dictionary(request.query.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
                received.pings.withLock { $0.append(Ping(method: request.method.rawValue, path: request.path, query: query,
                                                   body: String(decoding: body, as: UTF8.self))) }
                return HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: .bytes(Array("OK".utf8)))
            }
        }
    }

    deinit {
        server.stop()
    }

    var url: String { server.baseURL }

    /// The pings received so far, in order.
    var pings: [Ping] { received.pings.withLock { $0 } }
}

/// A loopback port that takes connections and never answers: a monitor that hangs.
final class SilentListener: Sendable {
    let port: Int
    private let socket: Int32

    init() throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(socket, 16) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        self.socket = socket
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit {
        close(socket)
    }
}
