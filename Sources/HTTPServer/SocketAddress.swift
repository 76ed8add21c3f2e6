import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#endif

/// A numeric IPv4 or IPv6 socket address, to bind to and to describe a peer.
struct SocketAddress {
    private var storage = sockaddr_storage()
    let isIPv6: Bool

    /// The address of `host` (numeric, or `localhost`) and `port`.
    init(host: String, port: UInt16) throws(HTTPServerError) {
        var name = host == "localhost" ? "127.0.0.1" : host
        if name.hasPrefix("["), name.hasSuffix("]") {
            name = String(name.dropFirst().dropLast())
        }
        var ipv4 = sockaddr_in()
        var ipv6 = sockaddr_in6()
        if inet_pton(AF_INET, name, &ipv4.sin_addr) == 1 {
            ipv4.sin_family = sa_family_t(AF_INET)
            ipv4.sin_port = port.bigEndian
            withUnsafeMutableBytes(of: &storage) { target in
                withUnsafeBytes(of: ipv4) { target.copyMemory(from: $0) }
            }
            isIPv6 = false
        } else if inet_pton(AF_INET6, name, &ipv6.sin6_addr) == 1 {
            ipv6.sin6_family = sa_family_t(AF_INET6)
            ipv6.sin6_port = port.bigEndian
            withUnsafeMutableBytes(of: &storage) { target in
                withUnsafeBytes(of: ipv6) { target.copyMemory(from: $0) }
            }
            isIPv6 = true
        } else {
            throw .invalidHost(host)
        }
    }

    /// Calls `body` with the address as a `sockaddr`.
    func withSockaddr<Result>(_ body: (UnsafePointer<sockaddr>) -> Result) -> Result {
        withUnsafeBytes(of: storage) { body($0.baseAddress!.assumingMemoryBound(to: sockaddr.self)) }
    }

    /// The numeric host and the port of a peer's address, or `("unknown", 0)` for another family.
    static func describe(_ address: UnsafePointer<sockaddr>) -> (host: String, port: Int) {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { ipv4 in
                var bytes = ipv4.pointee.sin_addr
                inet_ntop(AF_INET, &bytes, &text, socklen_t(text.count))
                return (text.nulTerminatedString, Int(UInt16(bigEndian: ipv4.pointee.sin_port)))
            }
        case AF_INET6:
            return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { ipv6 in
                var bytes = ipv6.pointee.sin6_addr
                inet_ntop(AF_INET6, &bytes, &text, socklen_t(text.count))
                return (text.nulTerminatedString, Int(UInt16(bigEndian: ipv6.pointee.sin6_port)))
            }
        default:
            return ("unknown", 0)
        }
    }
}

extension Array where Element == CChar {
    /// The text of a C buffer up to its first NUL byte, decoded as UTF-8.
    var nulTerminatedString: String {
        String(decoding: prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
