/// The width and height of an image in pixels.
package struct PixelSize: Sendable, Hashable, CustomStringConvertible {
    package var width: Int
    package var height: Int

    package init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// `400x300`.
    package var description: String { "\(width)x\(height)" }
}
