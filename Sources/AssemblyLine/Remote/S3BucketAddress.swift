/// Where a bucket is: an S3-compatible endpoint (`scheme://host[:port]`), its region and the bucket's name, addressed path-style.
package struct S3BucketAddress: Sendable, Hashable, CustomStringConvertible {
    /// `http` or `https`.
    package let scheme: String
    /// The `Host` header's value, as libcurl sends it: the host, `:port` only when it is not the scheme's default.
    package let host: String
    package let region: String
    package let bucket: String

    /// Checks `endpoint` (a URL with no path but `/`, no query, no user info) and `bucket` (S3's rules:
    /// 3 to 63 of `a-z 0-9 . -`, starting and ending with a letter or digit).
    package init(endpoint: String, region: String, bucket: String) throws(S3ListingError) {
        let parsed = TransportEndpoint(url: endpoint)
        guard parsed.scheme == "http" || parsed.scheme == "https", !parsed.host.isEmpty else {
            throw .invalidAddress(reason: "the endpoint is not an http:// or https:// URL")
        }
        let afterScheme = endpoint.dropFirst(parsed.scheme.count + 3)
        let authority = afterScheme.prefix { $0 != "/" }
        let rest = afterScheme.dropFirst(authority.count)
        guard !authority.contains("@"), rest.isEmpty || rest == "/" else {
            throw .invalidAddress(reason: "the endpoint \(parsed) must have no user info, path or query")
        }
        guard !region.isEmpty, region.utf8.allSatisfy({ SigV4Encoding.isUnreserved($0) }) else {
            throw .invalidAddress(reason: "the region must be letters, digits and dashes")
        }
        let name = Array(bucket.utf8)
        let allowed = name.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E || $0 == 0x2D }
        guard (3...63).contains(name.count), allowed, name.first != 0x2E, name.first != 0x2D, name.last != 0x2E, name.last != 0x2D else {
            throw .invalidAddress(reason: "the bucket name is not 3 to 63 of a-z, 0-9, `.` and `-`")
        }
        let defaultPort = parsed.scheme == "http" ? 80 : 443
        scheme = parsed.scheme
        host = parsed.port.map { $0 == defaultPort ? parsed.host : "\(parsed.host):\($0)" } ?? parsed.host
        self.region = region
        self.bucket = bucket
    }

    /// `scheme://host[:port]`, as the endpoint was given (a default port left out).
    package var endpoint: String { "\(scheme)://\(host)" }

    /// The absolute URL of a request whose encoded path and query are `suffix`.
    package func url(_ suffix: String) -> String {
        endpoint + suffix
    }

    package var description: String { "\(scheme)://\(host)/\(bucket)" }
}
