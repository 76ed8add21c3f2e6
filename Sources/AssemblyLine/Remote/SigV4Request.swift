package import HTTPMessages

/// What AWS Signature Version 4 covers of one request: method, host, path, query, the headers to sign and the body's hash.
///
/// The path and the query are held unencoded; ``SigV4Encoding`` encodes them once for both the URL
/// (``urlSuffix``) and the canonical request, so that what is sent is what is signed.
package struct SigV4Request: Sendable, Hashable {
    package var method: HTTPMethod
    /// The `Host` header's value as the transport sends it: the host, and `:port` when the port is not the scheme's default.
    package var host: String
    /// The unencoded path, starting with `/`.
    package var path: String
    /// The unencoded query parameters, in any order.
    package var query: [QueryItem]
    /// Headers signed besides `host`, `x-amz-content-sha256` and `x-amz-date` (the S3 documentation's example signs `range`).
    package var headers: HTTPHeaders
    /// The lowercase hex SHA-256 of the body, sent as `x-amz-content-sha256`.
    package var payloadHash: String

    /// One query parameter, unencoded.
    package struct QueryItem: Sendable, Hashable {
        package var name: String
        package var value: String

        package init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The SHA-256 of an empty body, as every GET sends it.
    package static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    package init(
        method: HTTPMethod, host: String, path: String, query: [QueryItem] = [], headers: HTTPHeaders = [],
        payloadHash: String = SigV4Request.emptyPayloadHash
    ) {
        self.method = method
        self.host = host
        self.path = path
        self.query = query
        self.headers = headers
        self.payloadHash = payloadHash
    }

    /// The encoded path and query to append to `scheme://host`: exactly the canonical URI and query string that are signed.
    package var urlSuffix: String {
        let query = canonicalQuery
        return canonicalURI + (query.isEmpty ? "" : "?" + query)
    }

    /// The path with each segment encoded (S3 encodes it once, never twice).
    package var canonicalURI: String {
        path.isEmpty ? "/" : SigV4Encoding.encodePath(path)
    }

    /// The query with names and values encoded and sorted.
    package var canonicalQuery: String {
        SigV4Encoding.canonicalQuery(query.map { ($0.name, $0.value) })
    }
}
