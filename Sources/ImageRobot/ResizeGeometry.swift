/// The sizes `/image/resize` produces: which output each strategy gives for an input size.
///
/// Pure integer arithmetic, so the local service and its tests agree to the pixel. The
/// documented table (transloadit-api.md §6.1, Transloadit's resize-strategies page) for a
/// 400×300 input and a 100×100 target: `fit` 100×75, `min_fit` 133×100, `fillcrop`, `pad` and
/// `stretch` 100×100. Where the reference is silent, these rules apply:
///
/// - A missing `width` or `height` takes the original's (the API's documented default), so
///   `fit` with only a width scales to that width keeping the aspect ratio, but `stretch` with
///   only a width changes the width alone.
/// - The side that limits the scale gets the target exactly; the other is rounded to the
///   nearest pixel (halves up), and no side is ever below 1.
/// - `zoom: false` caps the scale at 1 with every strategy: `fit` and `min_fit` keep a smaller
///   image's size, `fillcrop` keeps the part of the box the image covers, `stretch` caps each
///   side at the original's, `pad` centres (by gravity) the unscaled image on the full box, and
///   `crop` cuts what there is of the box.
/// - `crop` without a `crop` rectangle cuts a box of the target size out of the original,
///   placed by gravity; when the original is smaller than the box it is first scaled up to
///   cover it (unless `zoom` is false). With a rectangle, the rectangle (clipped to the image)
///   is the result, unscaled, whatever the other options say.
/// - `pad` places the scaled image on its canvas by gravity too (centred by default).
package enum ResizeGeometry {
    /// The plan for resizing an upright image of `source` size with `options`.
    ///
    /// - Throws: ``ImagingError`` only for a `crop` rectangle that is empty or outside the image.
    package static func plan(source: PixelSize, options: ResizeOptions) throws(ImagingError) -> ResizePlan {
        if let crop = options.crop {
            let region = try crop.resolved(in: source)
            return ResizePlan(sourceRegion: region, scaledSize: region.size)
        }
        let target = PixelSize(width: max(1, options.width ?? source.width), height: max(1, options.height ?? source.height))
        switch options.strategy {
        case .fit:
            return ResizePlan(scaledSize: capped(fit(source, into: target), source, zoom: options.zoom))
        case .minFit:
            return ResizePlan(scaledSize: capped(cover(source, target), source, zoom: options.zoom))
        case .fillcrop:
            let scaled = capped(cover(source, target), source, zoom: options.zoom)
            return ResizePlan(scaledSize: scaled, cropRegion: cut(target, from: scaled, gravity: options.gravity))
        case .pad:
            let scaled = capped(fit(source, into: target), source, zoom: options.zoom)
            guard scaled != target else { return ResizePlan(scaledSize: scaled) }
            let offset = options.gravity.offset(
                excessWidth: target.width - scaled.width, excessHeight: target.height - scaled.height)
            return ResizePlan(scaledSize: scaled, canvas: .init(size: target, x: offset.x, y: offset.y))
        case .stretch:
            let scaled = options.zoom ? target : PixelSize(
                width: min(target.width, source.width), height: min(target.height, source.height))
            return ResizePlan(scaledSize: scaled)
        case .crop:
            let covers = source.width >= target.width && source.height >= target.height
            let scaled = covers || !options.zoom ? source : cover(source, target)
            return ResizePlan(scaledSize: scaled, cropRegion: cut(target, from: scaled, gravity: options.gravity))
        }
    }

    /// The largest size with the source's aspect ratio that fits inside `target`.
    static func fit(_ source: PixelSize, into target: PixelSize) -> PixelSize {
        if target.width * source.height <= target.height * source.width {
            return PixelSize(width: target.width, height: scale(source.height, by: target.width, over: source.width))
        }
        return PixelSize(width: scale(source.width, by: target.height, over: source.height), height: target.height)
    }

    /// The smallest size with the source's aspect ratio that covers `target`.
    static func cover(_ source: PixelSize, _ target: PixelSize) -> PixelSize {
        if target.width * source.height >= target.height * source.width {
            return PixelSize(width: target.width, height: scale(source.height, by: target.width, over: source.width))
        }
        return PixelSize(width: scale(source.width, by: target.height, over: source.height), height: target.height)
    }

    /// `scaled`, or `source` when `zoom` is false and `scaled` would enlarge it.
    private static func capped(_ scaled: PixelSize, _ source: PixelSize, zoom: Bool) -> PixelSize {
        !zoom && (scaled.width > source.width || scaled.height > source.height) ? source : scaled
    }

    /// The part of `image` a box of `box` size keeps when placed by `gravity`; nil when it keeps everything.
    private static func cut(_ box: PixelSize, from image: PixelSize, gravity: ResizeGravity) -> PixelRect? {
        let width = min(box.width, image.width), height = min(box.height, image.height)
        guard width != image.width || height != image.height else { return nil }
        let offset = gravity.offset(excessWidth: image.width - width, excessHeight: image.height - height)
        return PixelRect(x: offset.x, y: offset.y, width: width, height: height)
    }

    /// `value × numerator / denominator` rounded to the nearest integer (halves up), at least 1.
    private static func scale(_ value: Int, by numerator: Int, over denominator: Int) -> Int {
        max(1, (2 * value * numerator + denominator) / (2 * denominator))
    }
}
