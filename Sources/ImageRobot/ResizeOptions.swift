/// The parameters of one `/image/resize` step that decide its output.
///
/// The defaults are the API's (transloadit-api.md §6.1): strategy `fit`, `zoom` true, gravity
/// `center`, quality 92, background white, and no format (keep the input's).
package struct ResizeOptions: Sendable, Hashable {
    /// The range the API allows for `width` and `height`.
    package static let dimensionRange = 1...25_000
    /// The range the API allows for `quality`.
    package static let qualityRange = 1...100

    /// The target width; nil takes the original's width.
    package var width: Int?
    /// The target height; nil takes the original's height.
    package var height: Int?
    package var strategy: ResizeStrategy
    /// False never makes an image larger than it is, with every strategy.
    package var zoom: Bool
    package var gravity: ResizeGravity
    /// A region to cut out; when set, `width`, `height` and `strategy` are ignored (the API's rule).
    package var crop: CropRectangle?
    /// The output format; nil keeps the input's.
    package var format: ImageFormat?
    /// Lossy quality for JPEG and WebP; for PNG its tens digit is the zlib level, as ImageMagick reads it.
    package var quality: Int
    /// The fill for `pad`, and what transparent pixels become in a format without alpha.
    package var background: ImageColor

    package init(
        width: Int? = nil, height: Int? = nil, strategy: ResizeStrategy = .fit, zoom: Bool = true,
        gravity: ResizeGravity = .center, crop: CropRectangle? = nil, format: ImageFormat? = nil,
        quality: Int = 92, background: ImageColor = .white
    ) {
        self.width = width
        self.height = height
        self.strategy = strategy
        self.zoom = zoom
        self.gravity = gravity
        self.crop = crop
        self.format = format
        self.quality = quality
        self.background = background
    }

    /// Checks the ranges of `width`, `height` and `quality` and the order of the crop corners where their units agree.
    package func validate() throws(ImagingError) {
        for (option, value) in [("width", width), ("height", height)] {
            if let value, !Self.dimensionRange.contains(value) {
                throw .outOfRange(option: option, value: value, range: Self.dimensionRange)
            }
        }
        guard Self.qualityRange.contains(quality) else {
            throw .outOfRange(option: "quality", value: quality, range: Self.qualityRange)
        }
        try crop?.validate()
    }
}
