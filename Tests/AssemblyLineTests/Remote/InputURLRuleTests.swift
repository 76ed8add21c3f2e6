import AssemblyLine
import Testing

/// Which URLs a night may import: https on public hosts, never credentials, link-local or metadata addresses.
@Suite struct InputURLRuleTests {
    static let production = InputURLRule(endpoint: "https://api2.transloadit.com")
    static let loopback = InputURLRule(endpoint: "http://127.0.0.1:9000")

    @Test(arguments: [
        ("https://cdn.example.com/media/a.jpg", nil),
        ("https://cdn.example.com/a%20b.jpg?X-Amz-Signature=1&x=%C3%BC", nil),
        ("HTTPS://CDN.example.com/a.jpg", nil),
        ("https://93.184.215.14/a.jpg", nil),
        ("http://169.254.169.254/latest/meta-data", .address("169.254.169.254, a cloud metadata address")),
        ("https://169.254.169.254/latest/meta-data", .address("169.254.169.254, a cloud metadata address")),
        ("https://[fe80::1]/x", .address("fe80::1, a link-local address")),
        ("https://[fd00:ec2::254]/x", .address("fd00:ec2::254, a cloud metadata address")),
        ("https://100.100.100.200/x", .address("100.100.100.200, a cloud metadata address")),
        ("https://169.254.1.1/x", .address("169.254.1.1, a link-local address")),
        ("https://10.0.0.7/x", .address("10.0.0.7, a private address (RFC 1918)")),
        ("https://127.0.0.1/x", .address("127.0.0.1, this machine")),
        ("https://localhost:8443/x", .address("localhost, this machine")),
        ("https://2852039166/x", .numericHost),
        ("https://0xa9.0xfe.0xa9.0xfe/x", .numericHost),
        ("https://169.254.43518/x", .numericHost),
        ("https://169.254.169.254./x", .address("169.254.169.254, a cloud metadata address")),
        ("https://user:pw@host/x", .credentials),
        ("https://cdn.example.com@169.254.169.254/x", .credentials),
        ("file:///etc/passwd", .scheme),
        ("ftp://cdn.example.com/a.jpg", .scheme),
        ("//cdn.example.com/a.jpg", .scheme),
        ("http://cdn.example.com/a.jpg", .plainHTTP),
        ("https:///a.jpg", .noHost),
        ("https://cdn.example.com/a b.jpg", .unsafeByte),
        ("https://cdn.example.com/a\n.jpg", .unsafeByte),
        ("https://cdn.example.com/ü.jpg", .unsafeByte),
        ("https://cdn.example.com/" + String(repeating: "a", count: 8200), .tooLong(bytes: 8224)),
    ] as [(String, InputURLRule.Refusal?)])
    func aPublicEndpointImportsHTTPSFromPublicHostsAlone(url: String, refusal: InputURLRule.Refusal?) {
        #expect(Self.production.refusal(of: url) == refusal)
        #expect(Self.production.peers == .publicOnly)
    }

    @Test(arguments: [
        ("http://127.0.0.1:8080/a.jpg", nil),
        ("http://localhost:8080/a.jpg", nil),
        ("http://[::1]/a.jpg", nil),
        ("https://10.0.0.7/a.jpg", nil),
        ("https://cdn.example.com/a.jpg", nil),
        ("http://10.0.0.7/a.jpg", .plainHTTP),
        ("http://169.254.169.254/latest/meta-data", .address("169.254.169.254, a cloud metadata address")),
        ("https://[fe80::1]/x", .address("fe80::1, a link-local address")),
        ("http://0.0.0.0:8080/x", .address("0.0.0.0, an unspecified address")),
        ("http://u:p@127.0.0.1/x", .credentials),
    ] as [(String, InputURLRule.Refusal?)])
    func aLoopbackEndpointImportsFromThisMachineAndTheLocalNetworkToo(url: String, refusal: InputURLRule.Refusal?) {
        #expect(Self.loopback.refusal(of: url) == refusal)
        #expect(Self.loopback.peers == .notLinkLocal)
    }

    /// Names are checked on each connection's address: a loopback endpoint's inputs reach this machine and the LAN, never link-local.
    @Test(arguments: [
        ("127.0.0.1", 8080, nil),
        ("10.1.2.3", 443, nil),
        ("93.184.215.14", 443, nil),
        ("169.254.169.254", 80, "169.254.169.254, a cloud metadata address"),
        ("fe80::1", 443, "fe80::1, a link-local address"),
        ("0.0.0.0", 80, "0.0.0.0, an unspecified address"),
    ] as [(String, Int, String?)])
    func aLoopbackEndpointsInputsConnectAnywhereButLinkLocal(address: String, port: Int, refusal: String?) throws {
        #expect(PeerRule.notLinkLocal.refusal(of: try #require(PeerAddress(address)), port: port) == refusal)
    }
}
