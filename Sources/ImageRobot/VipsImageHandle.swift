import CVips

/// Owns one libvips image (a reference-counted GObject) and applies operations that make new ones.
///
/// Operations are lazy: libvips builds a pipeline and runs it, tile by tile or line by line,
/// when the result is written. Confined to the thread that made it.
final class VipsImageHandle {
    /// How a file is read: `sequential` streams top to bottom (the least memory), `random` allows any order.
    enum Access {
        case sequential, random
    }

    let pointer: UnsafeMutablePointer<VipsImage>
    /// The input file this image comes from, for error messages.
    let source: String

    private init(_ pointer: UnsafeMutablePointer<VipsImage>, source: String) {
        self.pointer = pointer
        self.source = source
    }

    deinit {
        g_object_unref(pointer)
    }

    /// Opens `path` (its header only, until pixels are needed); failing on truncated data.
    static func open(_ path: String, access: Access) throws(ImageRobotError) -> VipsImageHandle {
        let mode = access == .sequential ? VIPS_ACCESS_SEQUENTIAL : VIPS_ACCESS_RANDOM
        guard let image = cvips_load(path, mode, VIPS_FAIL_ON_TRUNCATED) else {
            throw .undecodable(path: path, reason: VipsRuntime.takeError())
        }
        return VipsImageHandle(image, source: path)
    }

    /// Loads `path` upright (by its EXIF orientation) and scaled to exactly `size`, shrinking on load where the format allows.
    static func thumbnail(_ path: String, size: PixelSize) throws(ImageRobotError) -> VipsImageHandle {
        var output: UnsafeMutablePointer<VipsImage>?
        guard cvips_thumbnail(path, &output, Int32(size.width), Int32(size.height), VIPS_FAIL_ON_TRUNCATED) == 0,
              let output else {
            throw .undecodable(path: path, reason: VipsRuntime.takeError())
        }
        return VipsImageHandle(output, source: path)
    }

    /// Wraps an image made from scratch (no input file), named `label` in error messages.
    static func made(_ label: String, _ operation: (UnsafeMutablePointer<UnsafeMutablePointer<VipsImage>?>) -> Int32)
        throws(ImageRobotError) -> VipsImageHandle {
        var output: UnsafeMutablePointer<VipsImage>?
        guard operation(&output) == 0, let output else {
            throw .processingFailed(path: label, step: "create", reason: VipsRuntime.takeError())
        }
        return VipsImageHandle(output, source: label)
    }

    var width: Int { Int(vips_image_get_width(pointer)) }
    var height: Int { Int(vips_image_get_height(pointer)) }
    var bands: Int { Int(vips_image_get_bands(pointer)) }
    var hasAlpha: Bool { vips_image_hasalpha(pointer) != 0 }
    var size: PixelSize { PixelSize(width: width, height: height) }

    /// The EXIF orientation (1 is upright; 2 to 8 need a flip or rotation).
    var orientation: Int { Int(vips_image_get_orientation(pointer)) }
    /// True when turning the image upright swaps its width and height.
    var orientationSwapsSides: Bool { vips_image_get_orientation_swap(pointer) != 0 }

    // MARK: - Operations

    /// Applies a libvips operation that makes one image from this one.
    func applying(_ step: String, _ operation: (UnsafeMutablePointer<VipsImage>, UnsafeMutablePointer<UnsafeMutablePointer<VipsImage>?>) -> Int32)
        throws(ImageRobotError) -> VipsImageHandle {
        var output: UnsafeMutablePointer<VipsImage>?
        guard operation(pointer, &output) == 0, let output else {
            throw .processingFailed(path: source, step: step, reason: VipsRuntime.takeError())
        }
        return VipsImageHandle(output, source: source)
    }

    func autorotated() throws(ImageRobotError) -> VipsImageHandle {
        try applying("autorot") { cvips_autorot($0, $1) }
    }

    func extracted(_ region: PixelRect) throws(ImageRobotError) -> VipsImageHandle {
        try applying("extract_area \(region)") {
            cvips_extract_area($0, $1, Int32(region.x), Int32(region.y), Int32(region.width), Int32(region.height))
        }
    }

    func scaled(to size: PixelSize) throws(ImageRobotError) -> VipsImageHandle {
        try applying("thumbnail_image \(size)") { cvips_thumbnail_image($0, $1, Int32(size.width), Int32(size.height)) }
    }

    /// The image in 8-bit sRGB (grey, CMYK and 16-bit images are converted; alpha is kept).
    func inSRGB() throws(ImageRobotError) -> VipsImageHandle {
        guard vips_image_guess_interpretation(pointer) != VIPS_INTERPRETATION_sRGB else { return self }
        return try applying("colourspace sRGB") { cvips_colourspace($0, $1, VIPS_INTERPRETATION_sRGB) }
    }

    /// The image with one more band holding `value` everywhere (an opaque alpha for 255).
    func appending(band value: Double) throws(ImageRobotError) -> VipsImageHandle {
        try applying("bandjoin_const1") { cvips_bandjoin_const1($0, $1, value) }
    }

    /// The image placed on a canvas filled with `background` (one value per band).
    func embedded(_ canvas: ResizePlan.Canvas, background: [Double]) throws(ImageRobotError) -> VipsImageHandle {
        try applying("embed \(canvas.size)") { input, output in
            background.withUnsafeBufferPointer {
                cvips_embed(input, output, Int32(canvas.x), Int32(canvas.y), Int32(canvas.size.width),
                            Int32(canvas.size.height), $0.baseAddress, Int32($0.count))
            }
        }
    }

    /// The image without alpha, blended onto `background` (red, green, blue).
    func flattened(onto background: [Double]) throws(ImageRobotError) -> VipsImageHandle {
        try applying("flatten") { input, output in
            background.withUnsafeBufferPointer { cvips_flatten(input, output, $0.baseAddress, Int32($0.count)) }
        }
    }
}

@available(*, unavailable, message: "a libvips image handle belongs to the thread that made it")
extension VipsImageHandle: Sendable {}
