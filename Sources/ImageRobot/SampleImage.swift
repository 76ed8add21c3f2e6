import CVips

/// Draws synthetic images with libvips for the tests, which must not ship third-party media (it lives here: only this module touches libvips).
package enum SampleImage {
    /// Writes a `width`×`height` gradient to `path` in `format`.
    ///
    /// Red grows from 0 at the left edge to 255 at the right, green from 0 at the top to 255 at
    /// the bottom, and blue is 128 throughout, so a pixel's colour tells where it came from
    /// (which is how tests check crops and gravity). With `alpha`, a fourth band holds that
    /// value everywhere. An `orientation` other than 1 is stored as the EXIF orientation tag (JPEG
    /// and WebP keep it), so the pixels are stored turned and a viewer shows them upright.
    package static func writeGradient(
        to path: String, width: Int, height: Int, format: ImageFormat, alpha: UInt8? = nil, quality: Int = 92,
        orientation: Int = 1
    ) throws(ImageRobotError) {
        try VipsRuntime.ready()
        let label = "gradient \(width)x\(height)"
        var image = try VipsImageHandle.made(label) { cvips_xyz($0, Int32(width), Int32(height)) }
        let scale = [255 / Double(max(1, width - 1)), 255 / Double(max(1, height - 1))]
        let offset = [0.0, 0.0]
        image = try image.applying("linear") { input, output in
            scale.withUnsafeBufferPointer { scale in
                offset.withUnsafeBufferPointer { cvips_linear(input, output, scale.baseAddress, $0.baseAddress, 2) }
            }
        }
        image = try image.appending(band: 128)
        if let alpha {
            image = try image.appending(band: Double(alpha))
        }
        image = try image.applying("cast uchar") { cvips_cast($0, $1, VIPS_FORMAT_UCHAR) }
        image = try image.applying("interpretation sRGB") { cvips_copy_interpretation($0, $1, VIPS_INTERPRETATION_sRGB) }
        if orientation != 1 {
            // the copy above is this handle's own image, so its metadata may change
            vips_image_set_int(image.pointer, "orientation", Int32(orientation))
        }
        try image.save(to: path, format: format, quality: quality)
    }
}
