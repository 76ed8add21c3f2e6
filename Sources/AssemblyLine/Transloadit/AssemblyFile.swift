import ConfigFormat

/// One file of an Assembly: an upload or a result (transloadit-api.md §3.2).
///
/// Read as node-sdk's result schema allows (`src/alphalib/types/assemblyStatus.ts`): every field
/// may be missing, `original_id` may be one ID or an array of them, and a field of an unexpected
/// type reads as missing instead of spoiling the entry.
package struct AssemblyFile: Sendable, Hashable {
    package var id: String?
    package var name: String?
    package var ext: String?
    package var size: Int64?
    package var mime: String?
    package var field: String?
    package var md5hash: String?
    /// The uploads it was made from: one for most Robots, several for those that combine files.
    package var originalIDs: [String] = []
    package var url: String?
    package var sslURL: String?
    /// Whether the URL is a temporary one at Transloadit, when the service says.
    package var isTemporaryURL: Bool?
    package var width: Int?
    package var height: Int?
    /// The URL `/http/import` fetched it from (`meta.import_url`, which results made from it carry too), as sent: compared, never shown.
    package var importURL: String?
    /// Where an import found it (`original_path`): for the bucket imports, the key (docs/transloadit-fidelity.md); compared, never shown.
    package var originalPath: String?

    /// The members of a file the orchestrator reads (transloadit-api.md §3.2).
    enum Member: String, CaseIterable, Sendable {
        case id, name, ext, size, mime, field, md5hash, url, meta
        case originalID = "original_id"
        case originalPath = "original_path"
        case importURL = "import_url"
        case sslURL = "ssl_url"
        case isTemporaryURL = "is_temp_url"
    }

    /// The members read of `meta`.
    enum MetaMember: String, CaseIterable, Sendable {
        case width, height
        case importURL = "import_url"
    }

    static let members = MemberNames<Member>()
    static let metaMembers = MemberNames<MetaMember>()

    /// A file that says nothing, which reading fills in.
    init() {}

    /// Reads the file object that comes next; nil when it is not an object, or one of its keys is not a valid string.
    init?(reading cursor: inout JSONCursor) throws(JSONCursorError) {
        var file = AssemblyFile()
        var importURL: String?
        var meta = Meta()
        var seen: UInt64 = 0
        let members = Self.members
        let readable = try cursor.object { cursor, key throws(JSONCursorError) in
            switch members.first(key, in: cursor, seen: &seen) {
            case .id?: file.id = try Self.text(&cursor)
            case .name?: file.name = try Self.text(&cursor)
            case .ext?: file.ext = try Self.text(&cursor)
            case .mime?: file.mime = try Self.text(&cursor)
            case .size?: file.size = try cursor.integer().flatMap { $0 >= 0 ? $0 : nil }
            case .field?: file.field = try cursor.text()
            case .md5hash?: file.md5hash = try cursor.text()
            case .originalID?: file.originalIDs = try Self.originalIDs(&cursor)
            case .url?: file.url = try cursor.text()
            case .sslURL?: file.sslURL = try cursor.text()
            case .isTemporaryURL?: file.isTemporaryURL = try cursor.bool()
            case .importURL?: importURL = try cursor.text()
            case .originalPath?: file.originalPath = try cursor.text()
            case .meta?: meta = try Meta(reading: &cursor)
            case nil: try cursor.skip()
            }
        }
        guard readable else { return nil }
        file.width = meta.width
        file.height = meta.height
        file.importURL = meta.importURL ?? importURL
        self = file
    }

    /// The files of a list (`uploads`, a step's results) and how many of its entries were not file objects; nil
    /// when it is not a list.
    static func list(_ cursor: inout JSONCursor) throws(JSONCursorError) -> (files: [AssemblyFile], unreadable: Int)? {
        var files: [AssemblyFile] = []
        var unreadable = 0
        let isList = try cursor.array { cursor throws(JSONCursorError) in
            if let file = try AssemblyFile(reading: &cursor) { files.append(file) } else { unreadable += 1 }
        }
        return isList ? (files, unreadable) : nil
    }

    /// A text member people read (an id, a name, an extension, a MIME type), escaped and bounded (``RemoteText``).
    private static func text(_ cursor: inout JSONCursor) throws(JSONCursorError) -> String? {
        try cursor.text().map { RemoteText.escaped($0, limit: RemoteText.nameLimit) }
    }

    /// `original_id`: one ID, or a list of IDs and nulls; anything else is none.
    private static func originalIDs(_ cursor: inout JSONCursor) throws(JSONCursorError) -> [String] {
        guard try cursor.kind() == .array else { return try cursor.text().map { [$0] } ?? [] }
        var ids: [String] = []
        var readable = true
        _ = try cursor.array { cursor throws(JSONCursorError) in
            if try cursor.kind() == .null {
                try cursor.skip()
            } else if let id = try cursor.text() {
                ids.append(id)
            } else {
                readable = false
            }
        }
        return readable ? ids : []
    }

    /// What a file's `meta` says of it; nothing when it is no object of valid keys.
    private struct Meta {
        var width: Int?
        var height: Int?
        var importURL: String?

        init() {}

        init(reading cursor: inout JSONCursor) throws(JSONCursorError) {
            var meta = Meta()
            var seen: UInt64 = 0
            let members = AssemblyFile.metaMembers
            let readable = try cursor.object { cursor, key throws(JSONCursorError) in
                switch members.first(key, in: cursor, seen: &seen) {
                case .width?: meta.width = try cursor.integer().flatMap { Int(exactly: $0) }
                case .height?: meta.height = try cursor.integer().flatMap { Int(exactly: $0) }
                case .importURL?: meta.importURL = try cursor.text()
                case nil: try cursor.skip()
                }
            }
            self = readable ? meta : Meta()
        }
    }

    /// Where to download it: the ssl URL, else the plain one.
    package var downloadURL: String? { sslURL ?? url }
}
