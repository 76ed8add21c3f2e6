/// One resumable upload an Assembly knows of (`tus_uploads`): which field it is for, whether it finished, where it is.
///
/// node-sdk's `resumeAssemblyUploads` decides from these entries (and `uploads`), never from `ok`,
/// which files still need sending, and resumes an unfinished one at its `upload_url`.
package struct AssemblyTusUpload: Sendable, Hashable, Decodable {
    package var fieldname: String?
    package var filename: String?
    package var size: Int64?
    package var finished: Bool
    /// The upload's URL now: on the machine that holds the Assembly.
    package var uploadURL: String?

    enum CodingKeys: String, CodingKey {
        case fieldname, filename, size, finished
        case uploadURL = "upload_url"
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        fieldname = try? container.decodeIfPresent(String.self, forKey: .fieldname)
        filename = try? container.decodeIfPresent(String.self, forKey: .filename)
        size = try? container.decodeIfPresent(Int64.self, forKey: .size)
        finished = (try? container.decodeIfPresent(Bool.self, forKey: .finished)) ?? false
        uploadURL = try? container.decodeIfPresent(String.self, forKey: .uploadURL)
    }
}
