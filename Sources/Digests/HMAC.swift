import CCrypto

/// Keyed message authentication (RFC 2104) over libcrypto, as Transloadit signs its params.
///
/// Wraps the one-shot `HMAC()` of libcrypto (https://www.openssl.org/docs/man3.0/man3/HMAC.html).
package enum HMAC {
    /// The hash functions Transloadit accepts in a signature prefix.
    package enum Algorithm: String, Sendable, Hashable, CaseIterable {
        case sha1, sha256, sha384

        /// The authentication code's length in bytes.
        package var byteCount: Int { digest.byteCount }

        var digest: Digest.Algorithm {
            switch self {
            case .sha1: .sha1
            case .sha256: .sha256
            case .sha384: .sha384
            }
        }
    }

    /// The authentication code of `message` under `key`.
    package static func authenticationCode(
        _ algorithm: Algorithm,
        key: some Collection<UInt8>,
        message: some Collection<UInt8>
    ) -> [UInt8] {
        let keyLength = key.count
        precondition(keyLength <= Int(Int32.max), "HMAC key too long")
        let keyBytes = keyLength == 0 ? [0] : Array(key)
        let messageBytes = Array(message)
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let result = keyBytes.withUnsafeBytes { keyBuffer in
            messageBytes.withUnsafeBufferPointer { messageBuffer in
                CCrypto.HMAC(
                    algorithm.digest.evp, keyBuffer.baseAddress, Int32(keyLength),
                    messageBuffer.baseAddress, messageBuffer.count, &output, &length)
            }
        }
        guard result != nil else { fatalError("libcrypto HMAC(\(algorithm)) failed") }
        return Array(output.prefix(Int(length)))
    }

    /// HMAC-SHA384: the algorithm of current Transloadit signatures.
    package static func sha384(key: some Collection<UInt8>, message: some Collection<UInt8>) -> [UInt8] {
        authenticationCode(.sha384, key: key, message: message)
    }

    /// HMAC-SHA256.
    package static func sha256(key: some Collection<UInt8>, message: some Collection<UInt8>) -> [UInt8] {
        authenticationCode(.sha256, key: key, message: message)
    }

    /// HMAC-SHA1: Transloadit's legacy, unprefixed signatures.
    package static func sha1(key: some Collection<UInt8>, message: some Collection<UInt8>) -> [UInt8] {
        authenticationCode(.sha1, key: key, message: message)
    }
}
