import ConfigFormat

/// One resumable upload an Assembly knows of (`tus_uploads`): which field it is for, whether it finished, where it is.
///
/// node-sdk's `resumeAssemblyUploads` decides from these entries (and `uploads`), never from `ok`,
/// which files still need sending, and resumes an unfinished one at its `upload_url`.
package struct AssemblyTusUpload: Sendable, Hashable {
    package var fieldname: String?
    package var filename: String?
    package var size: Int64?
    package var finished = false
    /// The upload's URL now: on the machine that holds the Assembly.
    package var uploadURL: String?

    /// The members of a tus upload the orchestrator reads.
    enum Member: String, CaseIterable, Sendable {
        case fieldname, filename, size, finished
        case uploadURL = "upload_url"
    }

    static let members = MemberNames<Member>()

    /// An upload that says nothing, which reading fills in.
    init() {}

    /// Reads the upload object that comes next; nil when it is not an object, or one of its keys is not a valid string.
    init?(reading cursor: inout JSONCursor) throws(JSONCursorError) {
        var upload = AssemblyTusUpload()
        var seen: UInt64 = 0
        let members = Self.members
        let readable = try cursor.object { cursor, key throws(JSONCursorError) in
            switch members.first(key, in: cursor, seen: &seen) {
            case .fieldname?: upload.fieldname = try cursor.text()
            case .filename?: upload.filename = try cursor.text()
            case .size?: upload.size = try cursor.integer()
            case .finished?: upload.finished = try cursor.bool() ?? false
            case .uploadURL?: upload.uploadURL = try cursor.text()
            case nil: try cursor.skip()
            }
        }
        guard readable else { return nil }
        self = upload
    }

    /// The uploads of `tus_uploads`; an entry that is not an upload object is left out, a value that is not a list is none.
    static func list(_ cursor: inout JSONCursor) throws(JSONCursorError) -> [AssemblyTusUpload] {
        var uploads: [AssemblyTusUpload] = []
        _ = try cursor.array { cursor throws(JSONCursorError) in
            if let upload = try AssemblyTusUpload(reading: &cursor) { uploads.append(upload) }
        }
        return uploads
    }
}
