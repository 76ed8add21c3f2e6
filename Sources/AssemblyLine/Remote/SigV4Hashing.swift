/// The two primitives AWS Signature Version 4 needs, behind a port: the `Digests` module provides them over libcrypto.
package protocol SigV4Hashing: Sendable {
    /// The SHA-256 digest of `bytes`.
    func sha256(_ bytes: [UInt8]) -> [UInt8]

    /// The HMAC-SHA256 of `message` under `key`.
    func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8]
}
