import AssemblyLine
import ConfigFormat
import Foundation
import HTTPMessages

/// One file of an Assembly, an upload or a result, as stored on disk and shown in `uploads[]` and `results`.
///
/// The bytes live under the Assembly's directory at ``storedPath``; ``json(urls:)`` renders the
/// file object of the status JSON (transloadit-api.md §3.2).
struct ServiceAssemblyFile: Codable, Sendable, Hashable {
    /// 32 lowercase hex digits.
    var id: String
    /// The Assembly the file belongs to (its URL is served under it).
    var assemblyID: String
    /// `basename.ext`, or the basename alone when there is no extension.
    var name: String
    var basename: String
    /// The extension without the dot, empty when there is none.
    var ext: String
    var size: Int64
    var mime: String
    /// The form or tus field name of the upload it comes from; nil for an imported file (`field: null`).
    var field: String?
    var md5hash: String
    /// The upload this file comes from; an upload's own ID for an upload.
    var originalID: String
    var originalName: String
    var originalBasename: String
    var originalMD5: String
    var width: Int?
    var height: Int?
    var isTusFile: Bool
    /// The tus upload it arrived by (its URL is rendered from the current base URL).
    var tusUploadID: String?
    /// tus metadata keys other than the reserved ones.
    var userMeta: [String: String]
    /// The path of the bytes, relative to the data directory.
    var storedPath: String
    /// True for a file the `/s3/store` stand-in stored: its URL is the storage's, which refuses to
    /// serve it, and it is not temporary. Nil in records written before the stand-in.
    var exported: Bool?
    /// The URL an `/http/import` step fetched it from, or its original from (`meta.import_url`); nil otherwise.
    var importURL: String?
    /// The key a bucket import fetched it from, or its original from (`original_path`); nil says `/`, as for uploads.
    var originalPath: String?
    /// True for a file a bucket import found by listing a directory (`from_batch_import`).
    var fromBatchImport: Bool?

    /// Splits a file name at its last dot into basename and extension (`a.tar.gz` → `a.tar`, `gz`).
    static func split(name: String) -> (basename: String, ext: String) {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex, name.index(after: dot) != name.endIndex else {
            return (name, "")
        }
        return (String(name[..<dot]), String(name[name.index(after: dot)...]))
    }

    /// `basename.ext`, or the basename when the extension is empty.
    static func join(basename: String, ext: String) -> String {
        ext.isEmpty ? basename : "\(basename).\(ext)"
    }

    /// The MIME type of a file named `name` that arrived as `declared`: the declared type unless it says only
    /// "bytes" (`application/octet-stream`, S3's `binary/octet-stream`), else the one of the name's extension.
    static func mime(declared: String?, name: String) -> String {
        let essence = declared.flatMap(MediaType.init(parsing:))?.essence
        return essence.flatMap { [MediaType.octetStream, "binary/octet-stream"].contains($0) ? nil : $0 } ?? MediaType.forPath(name)
    }

    /// `image`, `video`, `audio` or `document` from the MIME type, as the API's `type` field.
    var type: JSONValue {
        switch mime.split(separator: "/").first {
        case "image": return .string("image")
        case "video": return .string("video")
        case "audio": return .string("audio")
        case "application", "text": return .string("document")
        default: return .null
        }
    }

    /// The file object of the status JSON.
    func json(urls: ServiceURLs) -> JSONValue {
        let isExported = exported == true
        let url = isExported ? urls.storage(storedPath) : urls.file(assembly: assemblyID, file: id, name: name)
        var meta: [String: JSONValue] = [:]
        if let width, let height {
            meta["width"] = .integer(Int64(width))
            meta["height"] = .integer(Int64(height))
            meta["aspect_ratio"] = .number(height > 0 ? (Double(width) / Double(height) * 1000).rounded() / 1000 : 0)
        }
        if let importURL { meta["import_url"] = .string(importURL) }
        var members: [String: JSONValue] = [
            "id": .string(id), "name": .string(name), "basename": .string(basename), "ext": .string(ext),
            "size": .integer(size), "mime": .string(mime), "type": type, "field": field.map(JSONValue.string) ?? .null,
            "md5hash": .string(md5hash), "original_id": .string(originalID), "original_name": .string(originalName),
            "original_basename": .string(originalBasename), "original_md5hash": .string(originalMD5),
            "original_path": .string(originalPath ?? "/"), "from_batch_import": .bool(fromBatchImport ?? false), "is_tus_file": .bool(isTusFile),
            "url": .string(url), "ssl_url": .string(url), "is_temp_url": .bool(!isExported),
            "meta": .object(meta), "user_meta": .object(userMeta.mapValues(JSONValue.string)),
        ]
        if let tusUploadID { members["tus_upload_url"] = .string(urls.tusUpload(tusUploadID)) }
        return .object(members)
    }
}
