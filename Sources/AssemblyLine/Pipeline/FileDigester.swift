/// Computes the MD5 of a file, streaming it; the port through which the domain verifies downloads.
///
/// The `HMAC` module implements it over libcrypto.
public protocol FileDigester: Sendable {
    /// The lowercase hex MD5 of the file's bytes.
    func md5Hex(ofFile path: String) throws -> String
}
