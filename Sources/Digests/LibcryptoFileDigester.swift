import AssemblyLine

/// The domain's ``FileDigester`` over libcrypto: MD5 of a file (by path or open), SHA-1 of a byte range, read in 1 MiB pieces; SHA-256 of a text.
package struct LibcryptoFileDigester: FileDigester {
    package init() {}

    package func md5Hex(ofFile path: String) throws -> String {
        Hex.encode(try Digest.hashFile(.md5, path: path))
    }

    package func md5Hex(ofOpenFile descriptor: Int32, length: Int64, path: String) throws -> String {
        Hex.encode(try Digest.hashFile(.md5, descriptor: descriptor, path: path, length: length))
    }

    package func sha1(ofFile path: String, offset: Int64, length: Int64) throws -> [UInt8] {
        try Digest.hashFile(.sha1, path: path, offset: offset, length: length)
    }

    package func sha256Hex(of text: String) -> String {
        Hex.encode(Digest.sha256(Array(text.utf8)))
    }
}
