import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Sends bytes to the service over a plain socket and hangs up, for requests no client library sends: a body cut off.
enum RawHTTP {
    /// Connects to 127.0.0.1:`port`, sends `bytes`, then closes the connection without reading.
    static func sendAndHangUp(_ bytes: [UInt8], port: UInt16) async throws {
        guard let connection = RawConnection(port: port) else { throw POSIXError(.ECONNREFUSED) }
        guard connection.send(bytes) else { throw POSIXError(.EPIPE) }
        try await Task.sleep(for: .milliseconds(50))
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
