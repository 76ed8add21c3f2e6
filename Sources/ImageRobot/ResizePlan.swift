/// The operations that turn a source image into a resize result, in order, with exact sizes.
///
/// An image adapter applies them as written: cut ``sourceRegion`` out of the upright source
/// (when set), scale the result to exactly ``scaledSize``, keep ``cropRegion`` of that (when
/// set), then place it on a ``canvas`` of the background colour (when set). The result is
/// ``outputSize``.
package struct ResizePlan: Sendable, Hashable, CustomStringConvertible {
    /// A background rectangle the image is placed on, for `pad`.
    package struct Canvas: Sendable, Hashable {
        package var size: PixelSize
        /// The image's top-left corner on the canvas.
        package var x: Int
        package var y: Int

        package init(size: PixelSize, x: Int, y: Int) {
            self.size = size
            self.x = x
            self.y = y
        }
    }

    /// The region of the source to start from; nil for the whole image.
    package var sourceRegion: PixelRect?
    /// The size the (region of the) source is scaled to; equal to its size when no scaling is needed.
    package var scaledSize: PixelSize
    /// The part of the scaled image kept; nil for all of it.
    package var cropRegion: PixelRect?
    /// The canvas the image is placed on; nil for none.
    package var canvas: Canvas?

    package init(sourceRegion: PixelRect? = nil, scaledSize: PixelSize, cropRegion: PixelRect? = nil, canvas: Canvas? = nil) {
        self.sourceRegion = sourceRegion
        self.scaledSize = scaledSize
        self.cropRegion = cropRegion
        self.canvas = canvas
    }

    /// The size of the result.
    package var outputSize: PixelSize {
        canvas?.size ?? cropRegion?.size ?? scaledSize
    }

    /// `region 10x10+0+0 → scale 133x100 → crop 100x100+16+0 → canvas 100x100 at +0+12`, the steps that apply.
    package var description: String {
        var steps: [String] = []
        if let sourceRegion { steps.append("region \(sourceRegion)") }
        steps.append("scale \(scaledSize)")
        if let cropRegion { steps.append("crop \(cropRegion)") }
        if let canvas { steps.append("canvas \(canvas.size) at +\(canvas.x)+\(canvas.y)") }
        return steps.joined(separator: " → ")
    }
}
