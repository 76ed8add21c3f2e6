import AssemblyLine

/// The domain's ``FileDigester`` over libcrypto: MD5 of a file, read in 1 MiB pieces.
public struct LibcryptoFileDigester: FileDigester {
    public init() {}

    public func md5Hex(ofFile path: String) throws -> String {
        Hex.encode(try Digest.hashFile(.md5, path: path))
    }
}
