/// Media types of the files AssemblyLine uploads, guessed from the file name's extension.
extension MediaType {
    /// The type for a path's extension (case-insensitive), or `application/octet-stream` when unknown.
    package static func forPath(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return octetStream }
        return byExtension[name[name.index(after: dot)...].lowercased()] ?? octetStream
    }

    package static let octetStream = "application/octet-stream"

    static let byExtension: [String: String] = [
        "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "gif": "image/gif", "webp": "image/webp",
        "tif": "image/tiff", "tiff": "image/tiff", "bmp": "image/bmp", "heic": "image/heic", "heif": "image/heif",
        "avif": "image/avif", "svg": "image/svg+xml", "ico": "image/vnd.microsoft.icon",
        "mp4": "video/mp4", "m4v": "video/mp4", "mov": "video/quicktime", "webm": "video/webm",
        "mkv": "video/x-matroska", "avi": "video/x-msvideo",
        "mp3": "audio/mpeg", "m4a": "audio/mp4", "wav": "audio/wav", "flac": "audio/flac", "ogg": "audio/ogg",
        "pdf": "application/pdf", "json": "application/json", "txt": "text/plain", "csv": "text/csv",
        "zip": "application/zip",
    ]
}
