/// One tus upload as the Assembly sees it (`tus_uploads[]`).
struct TusUploadEntry: Codable, Sendable, Hashable {
    var id: String
    var filename: String
    var fieldname: String
    var size: Int64
    var offset: Int64
    var finished: Bool
    var userMeta: [String: String]
}
