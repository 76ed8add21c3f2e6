package import AssemblyLine

/// SHA-256 and HMAC-SHA256 over libcrypto for the domain's ``SigV4Signer``.
package struct LibcryptoSigV4Hashing: SigV4Hashing {
    package init() {}

    package func sha256(_ bytes: [UInt8]) -> [UInt8] {
        Digest.sha256(bytes)
    }

    package func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        HMAC.sha256(key: key, message: message)
    }
}
