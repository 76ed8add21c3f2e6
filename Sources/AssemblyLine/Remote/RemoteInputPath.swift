/// How a remote input is named where a local file's real path would be: the ledger's `path`, what identifies it.
///
/// A key of a bucket is `s3://<bucket>/<key>` (the bucket and the key, as the ledger keeps a file's real path);
/// a URL of a list is the URL itself. Local paths start with `/`, so neither is taken for a file.
package enum RemoteInputPath {
    /// The path of `key` in `bucket`.
    package static func of(key: String, bucket: String) -> String {
        "s3://\(bucket)/\(key)"
    }

    /// The key a path of `bucket` names, or nil when it names none of its keys.
    package static func key(of path: String, bucket: String) -> String? {
        let start = "s3://\(bucket)/"
        guard path.hasPrefix(start) else { return nil }
        return String(path.dropFirst(start.count))
    }

    /// The version stamp of a remote object that stands where a file's modification time does in its identity
    /// (``FileIdentity``): 63 bits of the FNV-1a hash of its ETag (or, for a URL without one, its Last-Modified).
    /// Equal stamps with equal sizes are the same object for incremental nights.
    package static func versionStamp(of version: String) -> Int64 {
        Int64(bitPattern: FNVHash.of(version) & 0x7FFF_FFFF_FFFF_FFFF)
    }
}
