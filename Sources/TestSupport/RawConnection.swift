import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A client socket held open by a test: connected from a chosen loopback address, written to in pieces, read with a timeout.
package final class RawConnection {
    private let socket: Int32

    /// Connects from `source` (any address of 127.0.0.0/8) to 127.0.0.1:`port`; nil when the connection is refused.
    package init?(port: UInt16, source: String = "127.0.0.1") {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return nil }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr(source)
        var remote = sockaddr_in()
        remote.sin_family = sa_family_t(AF_INET)
        remote.sin_port = port.bigEndian
        remote.sin_addr.s_addr = inet_addr("127.0.0.1")
        let size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, size) } }
        let connected = withUnsafePointer(to: &remote) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, size) } }
        guard bound == 0, connected == 0 else {
            close(socket)
            return nil
        }
    }

    deinit {
        close(socket)
    }

    /// Sends `text`; false when the connection is gone.
    @discardableResult
    package func send(_ text: String) -> Bool {
        send(Array(text.utf8))
    }

    /// Sends all of `bytes`; false when the connection broke first.
    @discardableResult
    package func send(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    /// Shuts the sending side down, so that the server sees the end of the request.
    package func closeWriting() {
        shutdown(socket, Int32(SHUT_WR))
    }

    /// Everything the server sends until it closes the connection.
    package func receiveUntilClosed() -> [UInt8] {
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let got = recv(socket, &buffer, buffer.count, 0)
            guard got > 0 else { return reply }
            reply += buffer[0..<got]
        }
    }

    /// What arrives within `timeout` (until the peer closes, or a whole response head and `Content-Length` body).
    package func receive(timeout: Duration = .seconds(5)) -> (bytes: [UInt8], closed: Bool) {
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            let left = ContinuousClock.now.duration(to: deadline)
            let milliseconds = Int32(max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            guard poll(&poller, 1, milliseconds) > 0 else { break }
            let got = recv(socket, &buffer, buffer.count, 0)
            if got <= 0 { return (reply, true) }
            reply += buffer[0..<got]
            if Self.isComplete(reply) { break }
        }
        return (reply, false)
    }

    /// True once the peer has closed the connection (checked for `timeout`).
    package func isClosedByPeer(within timeout: Duration) -> Bool {
        receive(timeout: timeout).closed
    }

    private static func isComplete(_ reply: [UInt8]) -> Bool {
        let text = String(decoding: reply, as: UTF8.self)
        guard let end = text.range(of: "\r\n\r\n") else { return false }
        let head = text[..<end.lowerBound].lowercased()
        let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        return text[end.upperBound...].utf8.count >= length
    }
}
