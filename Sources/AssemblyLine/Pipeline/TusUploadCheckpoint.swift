/// Where an earlier try of a tus upload got to, as the ledger kept it: the upload's URL and the last confirmed offset.
public struct TusUploadCheckpoint: Sendable, Hashable {
    public var url: String
    public var offset: Int64

    public init(url: String, offset: Int64) {
        self.url = url
        self.offset = offset
    }

    /// The checkpoint a ledger row holds.
    public init(_ record: UploadRecord) {
        self.init(url: record.url, offset: record.offset)
    }
}
