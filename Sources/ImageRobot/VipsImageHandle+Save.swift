import CVips
#if canImport(Glibc)
import Glibc
#endif

extension VipsImageHandle {
    /// Writes the image to `path` in `format`, running the whole pipeline; a partial file is removed on failure.
    ///
    /// `quality` is the lossy quality of JPEG and WebP. For PNG its tens digit is the zlib level
    /// (92 → 9), as ImageMagick reads PNG quality; GIF and TIFF (deflate) ignore it.
    func save(to path: String, format: ImageFormat, quality: Int) throws(ImageRobotError) {
        guard VipsRuntime.writableFormats.contains(format) else { throw .formatUnavailable(format) }
        let result: Int32
        switch format {
        case .jpg: result = cvips_jpegsave(pointer, path, Int32(quality))
        case .png: result = cvips_pngsave(pointer, path, Int32(min(9, quality / 10)))
        case .webp: result = cvips_webpsave(pointer, path, Int32(quality))
        case .gif: result = cvips_gifsave(pointer, path)
        case .tiff: result = cvips_tiffsave(pointer, path)
        }
        guard result == 0 else {
            let reason = VipsRuntime.takeError()
            unlink(path)
            throw .processingFailed(path: source, step: "writing \(format.rawValue) to '\(path)'", reason: reason)
        }
    }

    /// The size of the file at `path` in bytes, or 0 when it cannot be read.
    static func fileSize(_ path: String) -> Int64 {
        var status = stat()
        return stat(path, &status) == 0 ? Int64(status.st_size) : 0
    }
}
