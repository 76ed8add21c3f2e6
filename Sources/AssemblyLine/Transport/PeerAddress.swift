#if canImport(Glibc)
import Glibc
#endif

/// An IP address a request would reach, and which kind of network it lies on (``Scope``).
///
/// Where a result may come from depends on the kind (``PeerRule``): a public endpoint's results never
/// come from this machine, the local network or a cloud host's metadata service (169.254.169.254 on
/// AWS, GCP and Azure, 100.100.100.200, fd00:ec2::254), which answers with the host's credentials.
package struct PeerAddress: Sendable, Hashable, CustomStringConvertible {
    /// The kinds of address a public endpoint's results may not come from, and the public rest.
    package enum Scope: Sendable, Hashable, CustomStringConvertible {
        case `public`
        /// 127.0.0.0/8, ::1: this machine.
        case loopback
        /// 0.0.0.0/8, ::: "this host", which Linux connects to loopback.
        case unspecified
        /// 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16 (RFC 1918).
        case `private`
        /// 100.64.0.0/10, carrier-grade NAT's shared space (RFC 6598).
        case shared
        /// fc00::/7 (RFC 4193).
        case uniqueLocal
        /// 169.254.0.0/16, fe80::/10.
        case linkLocal
        /// A cloud metadata service: 169.254.169.254, 100.100.100.200, fd00:ec2::254.
        case metadata

        package var description: String {
            switch self {
            case .public: "a public address"
            case .loopback: "a loopback address"
            case .unspecified: "an unspecified address"
            case .private: "a private address (RFC 1918)"
            case .shared: "a shared address (carrier-grade NAT)"
            case .uniqueLocal: "a unique local address"
            case .linkLocal: "a link-local address"
            case .metadata: "a cloud metadata address"
            }
        }
    }

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

    /// The kind of network the address lies on; an IPv4 address inside IPv6 (mapped `::ffff:0:0/96`,
    /// NAT64 `64:ff9b::/96`) is of its IPv4 kind.
    package var scope: Scope {
        bytes.count == 4 ? Self.scope(v4: bytes) : Self.scope(v6: bytes)
    }

    private static func scope(v4 bytes: [UInt8]) -> Scope {
        switch (bytes[0], bytes[1]) {
        case _ where bytes == [169, 254, 169, 254] || bytes == [100, 100, 100, 200]: .metadata
        case (0, _): .unspecified
        case (127, _): .loopback
        case (10, _), (172, 16...31), (192, 168): .private
        case (100, 64...127): .shared
        case (169, 254): .linkLocal
        default: .public
        }
    }

    private static func scope(v6 bytes: [UInt8]) -> Scope {
        let embedsV4 = bytes[0..<12].elementsEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF])
            || bytes[0..<12].elementsEqual([0, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0])
        if embedsV4 { return scope(v4: Array(bytes[12...])) }
        let awsMetadata: [UInt8] = [0xFD, 0x00, 0x0E, 0xC2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x54]
        if bytes == awsMetadata { return .metadata }
        if bytes.dropLast().allSatisfy({ $0 == 0 }) {
            return bytes[15] == 1 ? .loopback : bytes[15] == 0 ? .unspecified : .public
        }
        if bytes[0] & 0xFE == 0xFC { return .uniqueLocal }
        if bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80 { return .linkLocal }
        return .public
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
