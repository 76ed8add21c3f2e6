import Foundation

/// One file of an Assembly: an upload or a result (transloadit-api.md §3.2).
package struct AssemblyFile: Sendable, Hashable, Decodable {
    package var id: String
    package var name: String?
    package var ext: String?
    package var size: Int64?
    package var mime: String?
    package var field: String?
    package var md5hash: String?
    package var originalID: String?
    package var url: String?
    package var sslURL: String?
    package var width: Int?
    package var height: Int?

    enum CodingKeys: String, CodingKey {
        case id, name, ext, size, mime, field, md5hash, url, meta
        case originalID = "original_id"
        case sslURL = "ssl_url"
    }

    enum MetaKeys: String, CodingKey {
        case width, height
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        name = try? container.decodeIfPresent(String.self, forKey: .name)
        ext = try? container.decodeIfPresent(String.self, forKey: .ext)
        size = try? container.decodeIfPresent(Int64.self, forKey: .size)
        mime = try? container.decodeIfPresent(String.self, forKey: .mime)
        field = try? container.decodeIfPresent(String.self, forKey: .field)
        md5hash = try? container.decodeIfPresent(String.self, forKey: .md5hash)
        originalID = try? container.decodeIfPresent(String.self, forKey: .originalID)
        url = try? container.decodeIfPresent(String.self, forKey: .url)
        sslURL = try? container.decodeIfPresent(String.self, forKey: .sslURL)
        let meta = try? container.nestedContainer(keyedBy: MetaKeys.self, forKey: .meta)
        width = try? meta?.decodeIfPresent(Int.self, forKey: .width)
        height = try? meta?.decodeIfPresent(Int.self, forKey: .height)
    }

    /// Where to download it: the ssl URL, else the plain one.
    package var downloadURL: String? { sslURL ?? url }
}
