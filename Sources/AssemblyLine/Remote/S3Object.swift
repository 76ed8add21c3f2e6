/// One object a bucket listing named: its key, size, ETag and time of last change, each checked as it was read.
package struct S3Object: Sendable, Hashable {
    /// The key, decoded from the XML: no `..` segment, no control character, under the listed prefix.
    package var key: String
    /// The size in bytes, 0 to ``S3Object/maximumSize``.
    package var size: Int64
    /// The ETag as the service wrote it, quotes and all (`"9b2cf535f27731c974343645a3985328"`).
    package var etag: String
    /// The last change, nil when the service wrote a time that is not `YYYY-MM-DDTHH:MM:SS.sssZ`.
    package var lastModified: UTCDateTime?

    /// S3's largest object: 5 TiB. A listing that says more lies.
    package static let maximumSize: Int64 = 5 << 40

    package init(key: String, size: Int64, etag: String, lastModified: UTCDateTime?) {
        self.key = key
        self.size = size
        self.etag = etag
        self.lastModified = lastModified
    }
}
