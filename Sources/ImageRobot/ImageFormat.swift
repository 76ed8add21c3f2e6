/// An output image format of `/image/resize`, with its MIME type and file extension.
package enum ImageFormat: String, Sendable, Hashable, CaseIterable {
    case jpg
    case png
    case webp
    case gif
    case tiff

    /// The format called `name` in the API (`jpeg` and `tif` are accepted as aliases).
    package init(parsing name: String) throws(ImagingError) {
        switch name.lowercased() {
        case "jpeg": self = .jpg
        case "tif": self = .tiff
        case let other:
            guard let format = ImageFormat(rawValue: other) else {
                throw .unknownValue(option: "format", value: name, expected: Self.allCases.map(\.rawValue))
            }
            self = format
        }
    }

    package var mimeType: String {
        switch self {
        case .jpg: return "image/jpeg"
        case .png: return "image/png"
        case .webp: return "image/webp"
        case .gif: return "image/gif"
        case .tiff: return "image/tiff"
        }
    }

    /// The extension of files in this format, without the dot.
    package var fileExtension: String { rawValue }

    /// True when the format can keep an alpha channel (JPEG cannot; GIF keeps one level of transparency).
    package var supportsAlpha: Bool { self != .jpg }
}
