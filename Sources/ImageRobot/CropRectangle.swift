import Foundation

/// The `crop` option of `/image/resize`: two corners, each coordinate in pixels or a percentage of the image.
package struct CropRectangle: Sendable, Hashable, CustomStringConvertible {
    /// One coordinate: whole pixels from the top or left edge, or a percentage of the width or height.
    package enum Coordinate: Sendable, Hashable, CustomStringConvertible {
        case pixels(Int)
        case percent(Double)

        /// Parses `10`, `10px` or `25%` (a percentage from 0 to 100).
        package init(parsing text: String) throws(ImagingError) {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if trimmed.hasSuffix("%"), let value = Double(trimmed.dropLast()), (0...100).contains(value) {
                self = .percent(value)
            } else if let value = Int(trimmed.hasSuffix("px") ? String(trimmed.dropLast(2)) : trimmed), value >= 0 {
                self = .pixels(value)
            } else {
                throw .invalidCropCoordinate(text)
            }
        }

        /// The coordinate in pixels along an edge `extent` pixels long; percentages round to the nearest pixel.
        func resolved(along extent: Int) -> Int {
            switch self {
            case let .pixels(value): return value
            case let .percent(value): return Int((value / 100 * Double(extent)).rounded())
            }
        }

        package var description: String {
            switch self {
            case let .pixels(value): return "\(value)"
            case let .percent(value): return "\(value)%"
            }
        }
    }

    package var x1: Coordinate
    package var y1: Coordinate
    package var x2: Coordinate
    package var y2: Coordinate

    package init(x1: Coordinate, y1: Coordinate, x2: Coordinate, y2: Coordinate) {
        self.x1 = x1
        self.y1 = y1
        self.x2 = x2
        self.y2 = y2
    }

    /// Checks what can be checked without the image: corners given in the same unit must be in order.
    package func validate() throws(ImagingError) {
        for (first, second) in [(x1, x2), (y1, y2)] {
            switch (first, second) {
            case let (.pixels(a), .pixels(b)) where a >= b: throw .emptyCrop(self)
            case let (.percent(a), .percent(b)) where a >= b: throw .emptyCrop(self)
            default: continue
            }
        }
    }

    /// The rectangle in an image of `size`, clipped to the image.
    ///
    /// - Throws: ``ImagingError/emptyCrop(_:)`` when the corners are not in order,
    ///   ``ImagingError/cropOutsideImage(_:image:)`` when nothing of it is inside the image.
    package func resolved(in size: PixelSize) throws(ImagingError) -> PixelRect {
        let left = x1.resolved(along: size.width), right = x2.resolved(along: size.width)
        let top = y1.resolved(along: size.height), bottom = y2.resolved(along: size.height)
        guard left < right, top < bottom else { throw .emptyCrop(self) }
        let clippedRight = min(right, size.width), clippedBottom = min(bottom, size.height)
        guard left < clippedRight, top < clippedBottom else { throw .cropOutsideImage(self, image: size) }
        return PixelRect(x: left, y: top, width: clippedRight - left, height: clippedBottom - top)
    }

    /// `{x1: 10, y1: 10, x2: 50%, y2: 50%}`.
    package var description: String { "{x1: \(x1), y1: \(y1), x2: \(x2), y2: \(y2)}" }
}
