import Foundation

/// One file of an Assembly: an upload or a result (transloadit-api.md §3.2).
///
/// Read as node-sdk's result schema allows (`src/alphalib/types/assemblyStatus.ts`): every field
/// may be missing, `original_id` may be one ID or an array of them, and a field of an unexpected
/// type reads as missing instead of spoiling the entry.
package struct AssemblyFile: Sendable, Hashable, Decodable {
    package var id: String?
    package var name: String?
    package var ext: String?
    package var size: Int64?
    package var mime: String?
    package var field: String?
    package var md5hash: String?
    /// The uploads it was made from: one for most Robots, several for those that combine files.
    package var originalIDs: [String]
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

    enum CodingKeys: String, CodingKey {
        case id, name, ext, size, mime, field, md5hash, url, meta
        case originalID = "original_id"
        case originalPath = "original_path"
        case importURL = "import_url"
        case sslURL = "ssl_url"
        case isTemporaryURL = "is_temp_url"
    }

    enum MetaKeys: String, CodingKey {
        case width, height
        case importURL = "import_url"
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = Self.text(container, .id)
        name = Self.text(container, .name)
        ext = Self.text(container, .ext)
        size = (try? container.decodeIfPresent(Int64.self, forKey: .size)).flatMap { $0 >= 0 ? $0 : nil }
        mime = Self.text(container, .mime)
        field = try? container.decodeIfPresent(String.self, forKey: .field)
        md5hash = try? container.decodeIfPresent(String.self, forKey: .md5hash)
        if let one = try? container.decodeIfPresent(String.self, forKey: .originalID) {
            originalIDs = [one]
        } else {
            originalIDs = (try? container.decodeIfPresent([String?].self, forKey: .originalID))?.compactMap { $0 } ?? []
        }
        url = try? container.decodeIfPresent(String.self, forKey: .url)
        sslURL = try? container.decodeIfPresent(String.self, forKey: .sslURL)
        isTemporaryURL = try? container.decodeIfPresent(Bool.self, forKey: .isTemporaryURL)
        let meta = try? container.nestedContainer(keyedBy: MetaKeys.self, forKey: .meta)
        width = try? meta?.decodeIfPresent(Int.self, forKey: .width)
        height = try? meta?.decodeIfPresent(Int.self, forKey: .height)
        importURL = (try? meta?.decodeIfPresent(String.self, forKey: .importURL)) ?? (try? container.decodeIfPresent(String.self, forKey: .importURL))
        originalPath = try? container.decodeIfPresent(String.self, forKey: .originalPath)
    }

    /// A text member people read (an id, a name, an extension, a MIME type), escaped and bounded (``RemoteText``).
    private static func text(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) -> String? {
        (try? container.decodeIfPresent(String.self, forKey: key)).flatMap { $0 }.map { RemoteText.escaped($0, limit: RemoteText.nameLimit) }
    }

    /// Where to download it: the ssl URL, else the plain one.
    package var downloadURL: String? { sslURL ?? url }
}
