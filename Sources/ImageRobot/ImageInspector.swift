import CVips

/// Reads image files back: their size, format and pixels, decoding every pixel to prove the file is whole.
///
/// Used by tests and by the local service to fill a result's `meta.width` and `meta.height`.
package enum ImageInspector {
    /// Decodes the whole image at `path` and describes it.
    ///
    /// - Throws: ``ImageRobotError/undecodable(path:reason:)`` when it is not an image or a pixel
    ///   cannot be decoded (a truncated file, for example).
    package static func inspect(_ path: String) throws(ImageRobotError) -> ImageInfo {
        try VipsRuntime.ready()
        let image = try VipsImageHandle.open(path, access: .sequential)
        var average = 0.0
        guard cvips_avg(image.pointer, &average) == 0 else {
            throw .undecodable(path: path, reason: VipsRuntime.takeError())
        }
        let loader = vips_foreign_find_load(path).map { String(cString: $0) } ?? "unknown"
        return ImageInfo(
            width: image.width, height: image.height, bands: image.bands, hasAlpha: image.hasAlpha,
            format: VipsRuntime.loaderFormat(of: path), loader: loader)
    }

    /// The band values (0 to 255 for 8-bit images) of the pixel at `x`, `y` of the image at `path`.
    package static func pixel(in path: String, x: Int, y: Int) throws(ImageRobotError) -> [Double] {
        try VipsRuntime.ready()
        let image = try VipsImageHandle.open(path, access: .random)
        var values: UnsafeMutablePointer<Double>?
        var count: Int32 = 0
        guard cvips_getpoint(image.pointer, &values, &count, Int32(x), Int32(y)) == 0, let values else {
            throw .processingFailed(path: path, step: "getpoint \(x),\(y)", reason: VipsRuntime.takeError())
        }
        defer { g_free(values) }
        return Array(UnsafeBufferPointer(start: values, count: Int(count)))
    }
}
