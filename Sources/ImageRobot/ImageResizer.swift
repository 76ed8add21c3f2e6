
/// Resizes image files as Transloadit's `/image/resize` robot does, with libvips.
///
/// The geometry comes from ``ResizeGeometry`` in the domain module, so the output size of
/// every strategy is the documented one to the pixel. Images are turned upright by their EXIF
/// orientation first (as the robot's default `rotation: true` does), decoded sequentially where
/// the operation allows, and streamed through libvips: memory stays near a few lines of the
/// image, not its whole size. A resizer holds no state; one value can serve many threads at once.
///
/// ```swift
/// let resizer = try ImageResizer()
/// let result = try resizer.resize(
///     input: "in.jpg", output: "out.webp",
///     options: ResizeOptions(width: 100, height: 100, strategy: .fillcrop, format: .webp))
/// // result.width == 100, result.mimeType == "image/webp"
/// ```
package struct ImageResizer: Sendable {
    /// Prepares libvips (once per process).
    ///
    /// - Throws: ``ImageRobotError/libraryUnavailable(reason:)`` when libvips cannot start.
    package init() throws(ImageRobotError) {
        try VipsRuntime.ready()
    }

    /// Prepares libvips while the process has one thread; a failure is thrown again by ``init()``.
    ///
    /// libvips' start writes the process's environment, which no other thread may be reading then.
    package static func prepareBeforeThreads() {
        _ = try? VipsRuntime.ready()
    }

    /// The output formats this libvips build can write; GIF needs libvips built with cgif or ImageMagick.
    package static var writableFormats: Set<ImageFormat> { VipsRuntime.writableFormats }

    /// Resizes the image at `input` into a new file at `output`.
    ///
    /// Without `options.format` the input's format is kept when it is one of ``ImageFormat``'s,
    /// and PNG is written otherwise. `pad` fills with `options.background`; a format without
    /// alpha (JPEG) gets transparent pixels blended onto the background, and a translucent
    /// background keeps its alpha only in formats that have one.
    ///
    /// - Throws: ``ImageRobotError/invalidOptions(_:)`` for out-of-range options or a crop outside
    ///   the image; ``ImageRobotError/undecodable(path:reason:)`` for an input that is not an
    ///   image; ``ImageRobotError/formatUnavailable(_:)``; ``ImageRobotError/processingFailed(path:step:reason:)``
    ///   when decoding pixels or writing fails (the partial output is removed).
    package func resize(input: String, output: String, options: ResizeOptions) throws(ImageRobotError) -> ResizedImage {
        do {
            try options.validate()
        } catch {
            throw .invalidOptions(error)
        }
        let header = try VipsImageHandle.open(input, access: .sequential)
        let format = options.format ?? VipsRuntime.loaderFormat(of: input) ?? .png
        guard Self.writableFormats.contains(format) else { throw .formatUnavailable(format) }
        let rotates = header.orientation > 1
        let upright = header.orientationSwapsSides
            ? PixelSize(width: header.height, height: header.width) : header.size
        let plan: ResizePlan
        do {
            plan = try ResizeGeometry.plan(source: upright, options: options)
        } catch {
            throw .invalidOptions(error)
        }
        var image = try scaledImage(input: input, header: header, upright: upright, rotates: rotates, plan: plan)
        if let crop = plan.cropRegion {
            image = try image.extracted(crop)
        }
        image = try image.inSRGB()
        let background = options.background
        if let canvas = plan.canvas {
            let keepsAlpha = format.supportsAlpha && (image.hasAlpha || background.isTranslucent)
            if keepsAlpha && !image.hasAlpha {
                image = try image.appending(band: 255)
            }
            let fill = [Double(background.red), Double(background.green), Double(background.blue)]
            image = try image.embedded(canvas, background: keepsAlpha ? fill + [Double(background.alpha)] : fill)
        }
        if !format.supportsAlpha && image.hasAlpha {
            image = try image.flattened(onto: [Double(background.red), Double(background.green), Double(background.blue)])
        }
        try image.save(to: output, format: format, quality: options.quality)
        return ResizedImage(
            width: image.width, height: image.height, format: format,
            byteCount: VipsImageHandle.fileSize(output), plan: plan)
    }

    /// The upright source, cut to the plan's source region and scaled to its scaled size.
    private func scaledImage(
        input: String, header: VipsImageHandle, upright: PixelSize, rotates: Bool, plan: ResizePlan
    ) throws(ImageRobotError) -> VipsImageHandle {
        if let region = plan.sourceRegion {
            // Rotating needs random access; cutting and scaling an upright file can stream.
            let base = rotates ? try VipsImageHandle.open(input, access: .random).autorotated() : header
            let cut = try base.extracted(region)
            return plan.scaledSize == region.size ? cut : try cut.scaled(to: plan.scaledSize)
        }
        guard plan.scaledSize != upright || rotates else { return header }
        return try VipsImageHandle.thumbnail(input, size: plan.scaledSize)
    }
}
