/// Computes digests of files, streaming them: the port through which the domain verifies downloads and checksums tus chunks.
///
/// The `Digests` module implements it over libcrypto.
package protocol FileDigester: Sendable {
    /// The lowercase hex MD5 of the file's bytes.
    func md5Hex(ofFile path: String) throws -> String

    /// The lowercase hex MD5 of the first `length` bytes of an open file (`path` names it in errors): a download
    /// verified on the descriptor that flushes it.
    ///
    /// Throws when the file cannot be read or ends before `length`.
    func md5Hex(ofOpenFile descriptor: Int32, length: Int64, path: String) throws -> String

    /// The SHA-1 (20 bytes) of `length` bytes of the file from `offset`: a tus chunk's `Upload-Checksum`.
    ///
    /// Throws when the file cannot be read or ends before `offset + length`.
    func sha1(ofFile path: String, offset: Int64, length: Int64) throws -> [UInt8]

    /// The lowercase hex SHA-256 of the text's UTF-8: a Template's content hash.
    func sha256Hex(of text: String) -> String
}
