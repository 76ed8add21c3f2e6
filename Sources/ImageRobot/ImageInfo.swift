
/// What an image file holds, as libvips decoded it.
package struct ImageInfo: Sendable, Hashable {
    package var width: Int
    package var height: Int
    /// Channels per pixel, alpha included.
    package var bands: Int
    package var hasAlpha: Bool
    /// The format when it is one ``ImageFormat`` names; nil for others libvips can read.
    package var format: ImageFormat?
    /// The libvips loader that read it (for example `jpegload`), which identifies formats beyond ``ImageFormat``.
    package var loader: String

    package init(width: Int, height: Int, bands: Int, hasAlpha: Bool, format: ImageFormat?, loader: String) {
        self.width = width
        self.height = height
        self.bands = bands
        self.hasAlpha = hasAlpha
        self.format = format
        self.loader = loader
    }

    package var size: PixelSize { PixelSize(width: width, height: height) }
}
