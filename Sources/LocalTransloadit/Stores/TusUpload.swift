import Foundation

/// One tus upload: what was announced at creation, persisted as `tus/<id>.json`.
struct TusUpload: Codable, Sendable, Hashable {
    var id: String
    var assemblyID: String
    var fieldname: String
    var filename: String
    var userMeta: [String: String]
    var length: Int64
    var created: Date
    /// Beyond the Assembly's expected count: its bytes are taken and then dropped (transloadit-api.md §5.1).
    var ignored: Bool
    var finished: Bool
}
