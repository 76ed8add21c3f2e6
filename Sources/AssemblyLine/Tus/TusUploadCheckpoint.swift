/// Where an earlier try of a tus upload got to, as the ledger kept it: the upload's URL and the last confirmed offset.
package struct TusUploadCheckpoint: Sendable, Hashable {
    package var url: String
    package var offset: Int64

    package init(url: String, offset: Int64) {
        self.url = url
        self.offset = offset
    }

    /// The checkpoint a ledger row holds.
    package init(_ record: UploadRecord) {
        self.init(url: record.url, offset: record.offset)
    }
}
