import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Sends bytes to the service over a plain socket and hangs up, for requests no client library sends: a body cut off.
enum RawHTTP {
    /// Connects to 127.0.0.1:`port`, sends `bytes`, then closes the connection without reading.
    static func sendAndHangUp(_ bytes: [UInt8], port: UInt16) throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw POSIXError(.EIO) }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw POSIXError(.EPIPE) }
            sent += count
        }
        usleep(50_000)
    }

    /// A multipart creation request to `path` announcing `declaredFileSize` file bytes but carrying only `sentFileBytes`.
    static func truncatedCreation(path: String, params: String, signature: String, declaredFileSize: Int, sentFileBytes: Int) -> [UInt8] {
        let boundary = "cutoffboundary"
        var head = ""
        for (name, value) in [("params", params), ("signature", signature)] {
            head += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n"
        }
        head += "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.bin\"\r\n"
        head += "Content-Type: application/octet-stream\r\n\r\n"
        let tail = "\r\n--\(boundary)--\r\n"
        let length = head.utf8.count + declaredFileSize + tail.utf8.count
        let request = "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=\(boundary)\r\n"
            + "Content-Length: \(length)\r\n\r\n"
        return Array(request.utf8) + Array(head.utf8) + [UInt8](repeating: 0x41, count: sentFileBytes)
    }
}
