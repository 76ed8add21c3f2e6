/// A rectangle of pixels: its top-left corner and its size.
public struct PixelRect: Sendable, Hashable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var size: PixelSize { PixelSize(width: width, height: height) }

    /// `100x100+16+0`, as ImageMagick writes a geometry.
    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}
