import AssemblyLine

/// What an image file holds, as libvips decoded it.
public struct ImageInfo: Sendable, Hashable {
    public var width: Int
    public var height: Int
    /// Channels per pixel, alpha included.
    public var bands: Int
    public var hasAlpha: Bool
    /// The format when it is one ``ImageFormat`` names; nil for others libvips can read.
    public var format: ImageFormat?
    /// The libvips loader that read it (for example `jpegload`), which identifies formats beyond ``ImageFormat``.
    public var loader: String

    public init(width: Int, height: Int, bands: Int, hasAlpha: Bool, format: ImageFormat?, loader: String) {
        self.width = width
        self.height = height
        self.bands = bands
        self.hasAlpha = hasAlpha
        self.format = format
        self.loader = loader
    }

    public var size: PixelSize { PixelSize(width: width, height: height) }
}
