#if canImport(Glibc)
import Glibc
#endif

/// Why the server could not start, or a response file could not be opened.
package enum HTTPServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The listen host is not a numeric IPv4 or IPv6 address (or `localhost`).
    case invalidHost(String)
    /// libmicrohttpd could not start listening; `reason` is its last message.
    case startFailed(address: String, reason: String)
    /// libmicrohttpd would not set TLS up with the configured certificate and key; `reason` is what it said.
    case tlsRefused(reason: String)
    /// A file for a response body could not be opened or examined.
    case fileUnreadable(path: String, errno: Int32)
    /// A byte range for a response body reaches past the end of its file.
    case rangeOutsideFile(path: String, offset: UInt64, length: UInt64, fileSize: UInt64)

    package var description: String {
        switch self {
        case let .invalidHost(host):
            return "listen host '\(host)': expected a numeric IPv4 or IPv6 address, or localhost"
        case let .startFailed(address, reason):
            return "could not listen on \(address): \(reason)"
        case let .tlsRefused(reason):
            return "the TLS certificate and key were refused: \(reason)"
        case let .fileUnreadable(path, code):
            return "response file '\(path)': \(String(cString: strerror(code)))"
        case let .rangeOutsideFile(path, offset, length, fileSize):
            return "response file '\(path)': bytes \(offset)..<\(offset + length) lie outside its \(fileSize) bytes"
        }
    }
}
