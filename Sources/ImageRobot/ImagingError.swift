/// Why resize options are invalid for an image.
///
/// Each case names the option and what was expected; the local service reports them as
/// `IMAGE_RESIZE_VALIDATION`.
package enum ImagingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A name that is not one of the allowed values (`resize_strategy`, `gravity`, `format`).
    case unknownValue(option: String, value: String, expected: [String])
    /// A number outside its range (`width`, `height`, `quality`).
    case outOfRange(option: String, value: Int, range: ClosedRange<Int>)
    /// A colour that is not `#rrggbb`, `#rrggbbaa` or `none`.
    case invalidColor(String)
    /// A crop coordinate that is neither a whole number of pixels nor a percentage.
    case invalidCropCoordinate(String)
    /// A crop rectangle whose second corner is not below and right of its first.
    case emptyCrop(CropRectangle)
    /// A crop rectangle that lies outside an image of the given size.
    case cropOutsideImage(CropRectangle, image: PixelSize)

    package var description: String {
        switch self {
        case let .unknownValue(option, value, expected):
            return "resize option '\(option)' is '\(value)'; expected one of \(expected.joined(separator: ", "))"
        case let .outOfRange(option, value, range):
            return "resize option '\(option)' is \(value); expected \(range.lowerBound) to \(range.upperBound)"
        case let .invalidColor(text):
            return "resize option 'background' is '\(text)'; expected #rrggbb, #rrggbbaa or none"
        case let .invalidCropCoordinate(text):
            return "resize option 'crop' has coordinate '\(text)'; expected whole pixels (10) or a percentage (25%)"
        case let .emptyCrop(rectangle):
            return "resize option 'crop' is \(rectangle); expected x1 < x2 and y1 < y2"
        case let .cropOutsideImage(rectangle, image):
            return "resize option 'crop' is \(rectangle); it lies outside the \(image) image"
        }
    }
}
