#if canImport(Glibc)
import Glibc
#endif

/// An IP address a request would reach, and whether a result may come from it.
///
/// Link-local addresses (169.254.0.0/16, fe80::/10) are where cloud hosts answer with their
/// credentials (169.254.169.254 on AWS, GCP and Azure); 100.100.100.200 and fd00:ec2::254 are the
/// other metadata services. A result URL that reaches one, by its literal, by a name that resolves
/// there or through a redirect, is refused.
package struct PeerAddress: Sendable, Hashable, CustomStringConvertible {
    /// Four bytes for IPv4, sixteen for IPv6, in network order.
    package let bytes: [UInt8]

    package init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// The address of a literal such as `169.254.169.254`, `fe80::1` or `[::ffff:169.254.0.1]`; nil for a name.
    package init?(_ text: String) {
        let bare = text.hasPrefix("[") && text.hasSuffix("]") ? String(text.dropFirst().dropLast()) : text
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, bare, &v4) == 1 {
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
        } else if inet_pton(AF_INET6, bare, &v6) == 1 {
            bytes = withUnsafeBytes(of: &v6) { Array($0) }
        } else {
            return nil
        }
    }

    /// Whether it is link-local or a cloud metadata service's address, IPv4-mapped IPv6 forms included.
    package var isLinkLocalOrMetadata: Bool {
        if bytes.count == 4 { return bytes[0] == 169 && bytes[1] == 254 || bytes == [100, 100, 100, 200] }
        if bytes[0..<12].elementsEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF]) {
            return PeerAddress(bytes: Array(bytes[12...]))?.isLinkLocalOrMetadata ?? false
        }
        let awsMetadata: [UInt8] = [0xFD, 0x00, 0x0E, 0xC2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x54]
        return bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80 || bytes == awsMetadata
    }

    package var description: String {
        if bytes.count == 4 { return bytes.map(String.init).joined(separator: ".") }
        var address = in6_addr()
        withUnsafeMutableBytes(of: &address) { $0.copyBytes(from: bytes) }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, &address, &text, socklen_t(text.count)) != nil else { return "?" }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
