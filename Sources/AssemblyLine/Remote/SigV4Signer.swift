package import HTTPMessages

/// Signs requests with AWS Signature Version 4 in the `Authorization` header, in-process.
///
/// Not libcurl's `CURLOPT_AWS_SIGV4`: libcurl before 8.3 canonicalises query strings wrongly
/// (curl#11806) and up to 8.8 mis-signs `=` in a path (curl#13754), and a continuation token holds
/// `+`, `/` and `=`. The algorithm follows the S3 documentation ("Signature Calculations for the
/// Authorization Header"): canonical request, string to sign, a key derived per day, region and
/// service. Neither ``description`` nor a mirror shows the secret.
package struct SigV4Signer: Sendable, CustomStringConvertible, CustomReflectable {
    private let credentials: S3Credentials
    package let region: String
    package let service: String
    private let hashing: any SigV4Hashing

    package init(credentials: S3Credentials, region: String, service: String = "s3", hashing: any SigV4Hashing) {
        self.credentials = credentials
        self.region = region
        self.service = service
        self.hashing = hashing
    }

    /// The headers to send with `request` at `time`: `x-amz-date`, `x-amz-content-sha256` and `Authorization`.
    package func headers(for request: SigV4Request, at time: UTCDateTime) -> HTTPHeaders {
        let signature = Self.hex(signatureBytes(for: request, at: time))
        let authorization = "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(scope(at: time)),"
            + "SignedHeaders=\(signedHeaders(request, at: time).map(\.name).joined(separator: ";")),Signature=\(signature)"
        return [
            HTTPHeader(name: "x-amz-date", value: time.compactText),
            HTTPHeader(name: "x-amz-content-sha256", value: request.payloadHash),
            HTTPHeader(name: "Authorization", value: authorization),
        ]
    }

    /// The canonical request: method, URI, query, headers, signed header names and payload hash, one a line.
    package func canonicalRequest(_ request: SigV4Request, at time: UTCDateTime) -> String {
        let headers = signedHeaders(request, at: time)
        return [
            request.method.rawValue,
            request.canonicalURI,
            request.canonicalQuery,
            headers.map { "\($0.name):\($0.value)\n" }.joined(),
            headers.map(\.name).joined(separator: ";"),
            request.payloadHash,
        ].joined(separator: "\n")
    }

    /// The string to sign: the algorithm, the time, the scope and the canonical request's SHA-256.
    package func stringToSign(_ request: SigV4Request, at time: UTCDateTime) -> String {
        let hash = Self.hex(hashing.sha256(Array(canonicalRequest(request, at: time).utf8)))
        return "AWS4-HMAC-SHA256\n\(time.compactText)\n\(scope(at: time))\n\(hash)"
    }

    package var description: String { "SigV4 signer for \(service) in \(region) with \(credentials.accessKeyID)" }

    package var customMirror: Mirror {
        Mirror(self, children: ["region": region, "service": service], displayStyle: .struct)
    }

    private func signatureBytes(for request: SigV4Request, at time: UTCDateTime) -> [UInt8] {
        let day = String(time.compactText.prefix(8))
        var key = hashing.hmacSHA256(key: Array("AWS4\(credentials.secret)".utf8), message: Array(day.utf8))
        for part in [region, service, "aws4_request"] {
            key = hashing.hmacSHA256(key: key, message: Array(part.utf8))
        }
        return hashing.hmacSHA256(key: key, message: Array(stringToSign(request, at: time).utf8))
    }

    /// Lowercase hex, as SigV4 writes hashes and signatures.
    private static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] }, as: UTF8.self)
    }

    private func scope(at time: UTCDateTime) -> String {
        "\(time.compactText.prefix(8))/\(region)/\(service)/aws4_request"
    }

    /// The signed headers, names lowercase, values trimmed with inner runs of spaces folded, sorted by name.
    private func signedHeaders(_ request: SigV4Request, at time: UTCDateTime) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = [
            ("host", request.host), ("x-amz-content-sha256", request.payloadHash), ("x-amz-date", time.compactText),
        ]
        for field in request.headers {
            headers.append((field.name.lowercased(), field.value.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")))
        }
        return headers.sorted { $0.name < $1.name }
    }
}
