/// A rectangle of pixels: its top-left corner and its size.
package struct PixelRect: Sendable, Hashable, CustomStringConvertible {
    package var x: Int
    package var y: Int
    package var width: Int
    package var height: Int

    package init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    package var size: PixelSize { PixelSize(width: width, height: height) }

    /// `100x100+16+0`, as ImageMagick writes a geometry.
    package var description: String { "\(width)x\(height)+\(x)+\(y)" }
}
