import CCrypto

extension HMAC {
    /// The libcrypto this binary runs with, `OpenSSL X.Y.Z`, for `--version`.
    package static var libraryVersion: String {
        String(cString: OpenSSL_version(OPENSSL_VERSION)).split(separator: " ").prefix(2).joined(separator: " ")
    }
}
