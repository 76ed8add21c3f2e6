package import Foundation

/// One file's resumable (tus) upload as the `uploads` table holds it: where it lives and how far it got.
///
/// There is at most one per file and attempt; a new upload of the same file replaces it. The offset
/// is the last one the server confirmed, so a resume asks the server (HEAD) and continues from there.
package struct UploadRecord: Sendable, Hashable {
    package var shardIndex: Int
    /// The attempt (Assembly) the upload belongs to.
    package var attempt: Int
    package var fileIndex: Int
    /// The upload's URL at the tus server (the creation's `Location`).
    package var url: String
    /// The bytes the server confirmed (`Upload-Offset`); only grows.
    package var offset: Int64
    /// The upload's announced size (`Upload-Length`).
    package var length: Int64
    /// When the upload was created at the server.
    package var createdAt: Date
    /// When the offset last moved (or the upload was created).
    package var updatedAt: Date

    package init(shardIndex: Int, attempt: Int, fileIndex: Int, url: String, offset: Int64, length: Int64,
                createdAt: Date, updatedAt: Date) {
        self.shardIndex = shardIndex
        self.attempt = attempt
        self.fileIndex = fileIndex
        self.url = url
        self.offset = offset
        self.length = length
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// True once every byte reached the server.
    package var isComplete: Bool { offset == length }
}
