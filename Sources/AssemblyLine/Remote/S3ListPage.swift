/// One page of a ListObjectsV2 answer, checked: its objects, the entries left out, and where the next page starts.
package struct S3ListPage: Sendable, Hashable {
    /// The page's number in the listing, from 1.
    package var number: Int
    package var objects: [S3Object]
    package var skipped: [S3SkippedKey]
    /// The token for the next page; nil on the last page.
    package var nextContinuationToken: String?
    /// The page's last key as sent, skipped or not (nil for an empty page): the next page's keys sort after it.
    package var lastKey: String?

    package init(number: Int, objects: [S3Object], skipped: [S3SkippedKey], nextContinuationToken: String?, lastKey: String?) {
        self.number = number
        self.objects = objects
        self.skipped = skipped
        self.nextContinuationToken = nextContinuationToken
        self.lastKey = lastKey
    }
}
