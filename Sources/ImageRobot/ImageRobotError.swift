
/// Why an image could not be resized, inspected or written.
///
/// The local service maps ``invalidOptions(_:)`` to `IMAGE_RESIZE_VALIDATION` and the others to
/// `IMAGE_RESIZE_ERROR`. Each message names the file and, for libvips failures, the step and
/// libvips' own explanation.
package enum ImageRobotError: Error, Sendable, Hashable, CustomStringConvertible {
    /// libvips could not be initialised.
    case libraryUnavailable(reason: String)
    /// The resize options are invalid (for this image).
    case invalidOptions(ImagingError)
    /// The input is not an image libvips can open: unknown format, or a broken header.
    case undecodable(path: String, reason: String)
    /// This libvips build cannot write the format (for example GIF without cgif or ImageMagick).
    case formatUnavailable(ImageFormat)
    /// A libvips step failed on this input, for example on pixels of a truncated file, or while writing the output.
    case processingFailed(path: String, step: String, reason: String)

    package var description: String {
        switch self {
        case let .libraryUnavailable(reason):
            return "libvips could not start: \(reason)"
        case let .invalidOptions(error):
            return error.description
        case let .undecodable(path, reason):
            return "image '\(path)': not a decodable image (\(reason))"
        case let .formatUnavailable(format):
            return "output format '\(format.rawValue)': this libvips build has no \(format.rawValue) writer"
        case let .processingFailed(path, step, reason):
            return "image '\(path)': \(step) failed (\(reason))"
        }
    }
}
